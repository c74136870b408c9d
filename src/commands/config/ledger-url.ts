import type { Factory } from '../../factory.js';
import { KEYRING_REF, ledgerUrlEntry } from '../../config/keyring.js';
import { currentProfileName } from '../../config/profile.js';
import { ledgerUrlSecrets, maskLedgerUrl } from '../../ledger/errors.js';
import { chooseKeyStorage, LEDGER_URL, ledgerUrlInKeyring, removeKeyFromKeyring, saveKeyToKeyring, type KeyStorage } from '../auth/key-storage.js';

// `config set ledger_url`: a URL that carries a password is kept like an API key. The whole URL
// goes to the OS keyring (its password may be in its user part or its query) and the config file
// holds it masked, with a reference; on a machine without a keyring, the file holds it as given
// only with --insecure-storage. A URL without a password is only an address: the file holds it.
// PAYCTL_LEDGER_URL is used as given, wherever it comes from.

export async function setLedgerUrl(ctx: Factory, url: string, insecureStorage: boolean): Promise<void> {
  const config = await ctx.config.file();
  const name = currentProfileName(config, ctx.io.env, ctx.globals.profile);
  const masked = maskLedgerUrl(url);
  const secret = ledgerUrlSecrets(url).length > 0;
  if (ctx.globals.dryRun) {
    const where = !secret ? '' : insecureStorage ? '; its password in the config file' : '; its password in the OS keyring';
    return ctx.log.status(`dry run: would set ledger_url = ${masked} in profile "${name}"${where}; nothing was changed`);
  }
  await ctx.config.checkWritable();
  const storage: KeyStorage = secret ? await chooseKeyStorage(ctx, name, insecureStorage, LEDGER_URL) : 'file';
  await saveKeyToKeyring(ledgerUrlEntry(name), url, storage, LEDGER_URL);
  if (storage === 'file' && ledgerUrlInKeyring(config.profiles[name])) {
    // The URL an earlier `config set` put in the keyring is replaced by this one: it must not stay behind.
    await removeKeyFromKeyring(name, ledgerUrlEntry(name), LEDGER_URL).catch((err: Error) => ctx.log.warn(`the ledger URL saved earlier in the OS keyring stays there: ${err.message}`));
  }
  await ctx.config.update((fresh) => {
    // Only these two settings change: whatever another process changed meanwhile stays.
    const settings = { ...(fresh.profiles[name] ?? {}) };
    if (storage === 'keyring') {
      settings.ledger_url = masked;
      settings.ledger_url_ref = KEYRING_REF;
    } else {
      settings.ledger_url = url;
      delete settings.ledger_url_ref;
    }
    fresh.profiles[name] = settings;
  });
  const where = !secret ? '' : storage === 'keyring' ? '; its password is in the OS keyring' : `; its password is in ${ctx.config.paths.configFile} (plain text, mode 0600)`;
  ctx.log.status(`Set ledger_url = ${masked} in profile "${name}"${where}`);
}

/** `config unset ledger_url`: the URL kept in the keyring goes first; if the keyring cannot be reached, nothing changes. */
export async function forgetLedgerUrl(ctx: Factory, name: string, inKeyring: boolean): Promise<void> {
  if (inKeyring) await removeKeyFromKeyring(name, ledgerUrlEntry(name), LEDGER_URL);
  await ctx.config.update((fresh) => {
    delete fresh.profiles[name]?.ledger_url;
    delete fresh.profiles[name]?.ledger_url_ref;
  });
}
