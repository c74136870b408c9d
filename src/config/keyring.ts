import { UsageError } from '../errors.js';

// The OS keyring (Secret Service on Linux, Keychain on macOS, Credential Manager on Windows), where
// `payctl login` keeps API keys, through @napi-rs/keyring. It is a native module: kept out of the
// bundle and loaded (below, on first use) only by the commands that store, read or remove a key
// kept there; never by --version, --help or a profile whose key is elsewhere.

/** Keyring entries are named by this service, with the profile's name as the account. */
export const KEYRING_SERVICE = 'payctl';

/** What a profile's `api_key_ref` says when its API key is in the keyring. */
export const KEYRING_REF = 'keyring';

// A keyring that does not answer (a locked collection waiting on an unlock prompt no one sees) is
// treated as unreachable rather than left to hang the command.
const ANSWER_MS = 10_000;

// On Linux, the Secret Service and nothing else: left to choose, the binding falls back to the
// kernel's keyutils, which answers reads with "no key" where no session bus is, and forgets
// everything at reboot. (Other platforms ignore the option.)
const ENTRY_OPTIONS = { linux: { store: 'secret-service' as const } };

/** No keyring can be used: no binding for this platform, no session bus, no Secret Service, locked. */
export class KeyringUnreachable extends Error {
  constructor(readonly reason: string) {
    super(`no OS keyring is reachable (${reason})`);
    this.name = 'KeyringUnreachable';
  }
}

/** A profile's key (or `what` else of it) is in the keyring, which cannot be reached now: one line, exit 2. */
export function unreachableFor(profile: string, err: KeyringUnreachable, then: string, what = 'the API key'): UsageError {
  return new UsageError(`${what} of profile "${profile}" is in the OS keyring, but no keyring is reachable (${err.reason}); ${then}`);
}

/**
 * The keyring entry of a profile's ledger URL (`config set ledger_url`), kept whole since its
 * password may be in its user part or its query. A profile's name has no colon: no entry of an
 * API key is ever this.
 */
export function ledgerUrlEntry(profile: string): string {
  return `${profile}:ledger_url`;
}

type Binding = typeof import('@napi-rs/keyring');
let binding: Promise<Binding> | undefined;

async function loadBinding(): Promise<Binding> {
  binding ??= import('@napi-rs/keyring').then((mod) => ((mod as { default?: Binding }).default ?? mod) as Binding);
  try {
    return await binding;
  } catch (err) {
    binding = undefined;
    throw new KeyringUnreachable(`the keyring binding could not be loaded: ${firstLine(err)}`);
  }
}

function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err).split('\n')[0] ?? 'unknown error';
}

/** One keyring operation, within ANSWER_MS; any failure of the store itself is KeyringUnreachable. */
async function withEntry<T>(profile: string, work: (entry: InstanceType<Binding['AsyncEntry']>) => Promise<T>): Promise<T> {
  const { AsyncEntry } = await loadBinding();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new KeyringUnreachable(`it did not answer within ${ANSWER_MS / 1000} s; is it locked?`)), ANSWER_MS);
    timer.unref();
  });
  try {
    return await Promise.race([work(new AsyncEntry(KEYRING_SERVICE, profile, ENTRY_OPTIONS)), timeout]);
  } catch (err) {
    if (err instanceof KeyringUnreachable) throw err;
    throw new KeyringUnreachable(firstLine(err));
  } finally {
    clearTimeout(timer);
  }
}

/** Throws KeyringUnreachable unless the keyring answers; a read that changes nothing. */
export async function probeKeyring(profile: string): Promise<void> {
  await readKeyringKey(profile);
}

/** The profile's API key from the keyring; null when it holds none. */
export function readKeyringKey(profile: string): Promise<string | null> {
  return withEntry(profile, (entry) => entry.getPassword());
}

export function storeKeyringKey(profile: string, key: string): Promise<void> {
  return withEntry(profile, (entry) => entry.setPassword(key));
}

/** Removes the profile's API key from the keyring; false when there was none. */
export function removeKeyringKey(profile: string): Promise<boolean> {
  return withEntry(profile, (entry) => entry.deleteCredential());
}
