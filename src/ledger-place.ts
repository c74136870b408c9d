import type { Configuration } from './config/configuration.js';
import type { Account } from './ledger/account.js';
import type { LedgerPlace } from './ledger/open.js';
import type { Secrets } from './secrets.js';

/**
 * Where the current profile's account keeps its ledger (this machine's SQLite file, or the
 * shared PostgreSQL database), for the money guard and for `payctl ledger check|reset`. Error
 * messages are kept with the intents they ended: cleaned of card data and secrets read in this
 * run first (a shared ledger's password among them).
 */
export async function ledgerPlace(config: Configuration, secrets: Secrets): Promise<{ place: LedgerPlace; account: Account; scrub: (text: string) => string }> {
  const profile = await config.profile();
  const url = await config.ledgerUrl();
  const [{ accountOf }, { maskText }, { ledgerUrlSecrets }] = await Promise.all([import('./ledger/account.js'), import('./api/mask.js'), import('./ledger/errors.js')]);
  if (url) for (const secret of ledgerUrlSecrets(url)) secrets.add(secret);
  return {
    place: { stateDir: config.paths.stateDir, configDir: config.paths.configDir, url },
    account: accountOf(profile, config.paths.stateDir),
    scrub: (text) => maskText(text, secrets.known()),
  };
}
