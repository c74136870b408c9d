// Which store keeps the ledger: PostgreSQL when a ledger URL is set (a team's shared ledger),
// else SQLite in this machine's state directory. Either way its scope is the account (account.ts).
import { UsageError } from '../errors.js';
import type { Account } from './account.js';
import { maskLedgerUrl } from './errors.js';
import { Ledger } from './ledger.js';
import { sqliteLedgerPath } from '../config/paths.js';

export interface LedgerPlace {
  stateDir: string;
  /** postgres://…, from the profile's ledger_url or PAYCTL_LEDGER_URL. */
  url?: string | undefined;
}

/** A ledger URL as payctl accepts it: postgres:// or postgresql://, with a host. */
export function checkLedgerUrl(url: string, name = 'ledger_url'): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`${name}: "${maskLedgerUrl(url)}" is not a URL; give postgres://user:password@host:5432/database`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new UsageError(`${name}: only PostgreSQL ledgers are supported (postgres://user:password@host:5432/database), not ${parsed.protocol}`);
  }
  if (!parsed.hostname) throw new UsageError(`${name}: "${maskLedgerUrl(url)}" names no host`);
  return url;
}

export async function openLedger(place: LedgerPlace, account: Account, scrub: (text: string) => string): Promise<Ledger> {
  if (place.url) {
    const url = checkLedgerUrl(place.url, 'PAYCTL_LEDGER_URL / ledger_url');
    // The driver is loaded only here: a machine without a shared ledger never pays for it.
    const { PostgresStore } = await import('./postgres-store.js');
    return new Ledger(await PostgresStore.open(url, maskLedgerUrl(url), account.id, scrub));
  }
  const { SqliteStore } = await import('./sqlite-store.js');
  return new Ledger(await SqliteStore.open(sqliteLedgerPath(place.stateDir), account.id, scrub));
}
