import type { Factory } from '../../factory.js';
import { KEYRING_REF, KeyringUnreachable, probeKeyring, removeKeyringKey, storeKeyringKey, unreachableFor } from '../../config/keyring.js';
import type { ProfileSettings } from '../../config/store.js';
import { CancelledError, UsageError } from '../../errors.js';

// Where login keeps an API key: the OS keyring, with only a reference in the config file; or, on a
// machine without one (a server, CI with no session bus) and only when the user says so, the
// config file itself (mode 0600). The keyring's native binding loads on the first call that needs
// it (src/config/keyring.ts), so --insecure-storage never loads it.

export type KeyStorage = 'keyring' | 'file';

/** A secret kept for a profile: how messages name it, and what to do instead of saving it. */
export interface KeptSecret {
  what: string;
  instead: string;
}

export const API_KEY: KeptSecret = { what: 'the API key', instead: 'set PAYCTL_API_KEY instead of logging in' };
export const LEDGER_URL: KeptSecret = { what: "the ledger URL (with its password)", instead: 'set PAYCTL_LEDGER_URL instead' };

/**
 * Decides where login will save the key, before the key is checked over the network:
 * --insecure-storage is the file; otherwise the keyring if it answers; if not, on a terminal the
 * user is asked, and without one it is one line and exit 2.
 */
export async function chooseKeyStorage(ctx: Factory, profile: string, insecureStorage: boolean, secret: KeptSecret = API_KEY): Promise<KeyStorage> {
  if (insecureStorage) return 'file';
  try {
    await probeKeyring(profile);
    return 'keyring';
  } catch (err) {
    if (!(err instanceof KeyringUnreachable)) throw err;
    const fallback = `${ctx.config.paths.configFile} (plain text, mode 0600)`;
    if (!ctx.prompts.interactive) {
      throw new UsageError(`${err.message} to keep ${secret.what} in; run again with --insecure-storage to save it in ${fallback}, or ${secret.instead}`);
    }
    ctx.log.warn(err.message);
    const prompter = await ctx.prompts.prompter();
    if (!(await prompter.confirm(`Save ${secret.what} in ${fallback} instead?`, { default: false }))) {
      throw new CancelledError('cancelled: nothing was saved');
    }
    return 'file';
  }
}

/**
 * Puts the key in the keyring (under `entry`: the profile's name for its API key) when that is
 * where it goes; before the config is written, so the file never refers to a missing key.
 */
export async function saveKeyToKeyring(entry: string, key: string, storage: KeyStorage, secret: KeptSecret = API_KEY): Promise<void> {
  if (storage !== 'keyring') return;
  try {
    await storeKeyringKey(entry, key);
  } catch (err) {
    if (!(err instanceof KeyringUnreachable)) throw err;
    throw new UsageError(`could not save ${secret.what} in the OS keyring (${err.reason}); nothing was saved`);
  }
}

/** The profile's settings as saved with a key in `storage`: the key itself, or only the reference. */
export function withKey(settings: ProfileSettings, key: string, storage: KeyStorage): ProfileSettings {
  const next = { ...settings };
  if (storage === 'keyring') {
    delete next.api_key;
    next.api_key_ref = KEYRING_REF;
  } else {
    delete next.api_key_ref;
    next.api_key = key;
  }
  return next;
}

/** Whether a profile's saved settings say its key is in the keyring. */
export function keyInKeyring(settings: ProfileSettings | undefined): boolean {
  return settings?.api_key_ref === KEYRING_REF;
}

/**
 * Removes a profile's key from the keyring (logout, profiles remove, a login that now saves to the
 * file). A keyring that cannot be reached is one line and exit 2 with nothing changed: the
 * reference stays, so the key is never left in the keyring with nothing pointing at it.
 */
export async function removeKeyFromKeyring(profile: string, entry = profile, secret: KeptSecret = API_KEY): Promise<void> {
  try {
    await removeKeyringKey(entry);
  } catch (err) {
    throw err instanceof KeyringUnreachable ? unreachableFor(profile, err, 'nothing was changed', secret.what) : err;
  }
}

/** Whether a profile's saved settings say its ledger URL is in the keyring (the file then holds it masked). */
export function ledgerUrlInKeyring(settings: ProfileSettings | undefined): boolean {
  return settings?.ledger_url_ref === KEYRING_REF;
}
