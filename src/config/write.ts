import { dirname, parse, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { CliError, ExitCode } from '../errors.js';
import { dirError, ensureDir, probeDir } from '../platform/dirs.js';
import { acquireLock, LockBusyError, LockFileError, lockPathOf, type HeldLock } from '../platform/lock.js';
import { parseConfig, type ConfigFile } from './store.js';

// Writing the config: only the commands that change it load this module (and with it conf, which
// brings ajv). Every change is a read-modify-write under a file lock shared by all payctl
// processes: the file is read again inside the lock, so a change another process made in the
// meantime is kept, and written back atomically by conf (temp file + rename), mode 0600.

/** How long a change waits for another payctl process to finish its own. */
export const LOCK_WAIT_MS = 5_000;
// The lock's lease: a process that dies holding the lock is taken over at once on this machine;
// one elsewhere (a config directory on a network share) stops renewing it, and after this long
// others take it over. Below LOCK_WAIT_MS, so a lock left by a crash is taken over by the next
// change rather than turned into an error.
const LOCK_LEASE_MS = 4_000;

/**
 * Changes the config: reads it afresh under the lock, lets `edit` change that copy in place, and
 * writes it (only if it changed). `edit` must be synchronous (the lock is held while it runs) and
 * may throw to change nothing. Returns the config as written and what `edit` returned.
 */
export async function updateConfig<T>(file: string, edit: (config: ConfigFile) => T): Promise<{ config: ConfigFile; result: T }> {
  const path = resolve(file);
  const dir = dirname(path);
  ensureDir(dir, 'config directory');
  // Loaded before the lock is taken, so no one waits on the ~70 ms it takes.
  const [{ default: Conf }, { configSchema }] = await Promise.all([import('conf'), import('./schema.js')]);
  const lock = await lockConfig(path, dir);
  try {
    const { name, ext } = parse(path);
    const store = new Conf<Record<string, unknown>>({
      cwd: dir,
      configName: name,
      fileExtension: ext.replace(/^\./, ''),
      configFileMode: 0o600,
      // Profile names may hold dots: keys are never paths.
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
      // The layout payctl always wrote (two-space JSON and a newline), checked by the same schema
      // as every read, so a broken file is reported, never overwritten.
      serialize: (value) => `${JSON.stringify(value, null, 2)}\n`,
      deserialize: (text) => parseConfig(path, text, configSchema) as unknown as Record<string, unknown>,
    });
    // A missing file reads as {}; a present one has been through parseConfig.
    const current = { ...store.store } as Partial<ConfigFile>;
    current.profiles ??= {};
    const draft = structuredClone(current) as ConfigFile;
    const result = edit(draft);
    if (result instanceof Promise) throw new Error('updateConfig: the edit must be synchronous');
    if (!isDeepStrictEqual(draft, current)) store.store = draft as unknown as Record<string, unknown>;
    return { config: draft, result };
  } catch (err) {
    if (err instanceof CliError || !(err as NodeJS.ErrnoException).code) throw err;
    // The file system refused the write (conf's atomic write: a temp file, then a rename).
    throw dirError('config directory', dir, err);
  } finally {
    lock.release();
  }
}

/**
 * Fails fast, leaving nothing behind, when the config could not be written: the directory cannot
 * be made (or is not a directory), or is not writable. Login runs it before it checks a key over
 * the network, so the user hears of the real problem first.
 */
export function checkWritable(file: string): void {
  probeDir(dirname(resolve(file)), 'config directory');
}

/**
 * The lock on the config file (`config.json.lock` next to it). Waits, with short jittered pauses,
 * while another payctl holds it, for at most LOCK_WAIT_MS; any other error (a directory that is
 * not writable) is reported at once, never retried.
 */
async function lockConfig(file: string, dir: string): Promise<HeldLock> {
  try {
    // The lock is held only while a synchronous read-edit-write runs: its renewal never comes due
    // in that window, and losing it later is no reason to stop.
    return await acquireLock(file, { leaseMs: LOCK_LEASE_MS, waitMs: LOCK_WAIT_MS });
  } catch (err) {
    if (err instanceof LockFileError) throw dirError('config directory', dir, err.cause);
    if (!(err instanceof LockBusyError)) throw err;
    const lock = lockPathOf(file);
    throw new CliError(
      `config file ${file} is being changed by another payctl process (lock ${lock} held for more than ${LOCK_WAIT_MS / 1000} s); try again, or remove ${lock} if no payctl is running`,
      ExitCode.internal,
    );
  }
}
