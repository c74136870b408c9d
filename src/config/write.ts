import { dirname, parse, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { CliError, ExitCode } from '../errors.js';
import { dirError, ensureDir, probeDir } from '../platform/dirs.js';
import { parseConfig, type ConfigFile } from './store.js';

// Writing the config: only the commands that change it load this module (and with it conf, which
// brings ajv, and proper-lockfile). Every change is a read-modify-write under a file lock shared by
// all payctl processes: the file is read again inside the lock, so a change another process made
// in the meantime is kept, and written back atomically by conf (temp file + rename), mode 0600.

/** How long a change waits for another payctl process to finish its own. */
export const LOCK_WAIT_MS = 5_000;
// A process that dies holding the lock stops refreshing it; after this long others take it over.
// Below LOCK_WAIT_MS, so a lock left by a crash is taken over by the next change rather than
// turned into an error. (proper-lockfile's floor is 2 s.)
const LOCK_STALE_MS = 4_000;

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
  const [{ default: Conf }, { default: lockfile }, { configSchema }] = await Promise.all([import('conf'), import('proper-lockfile'), import('./schema.js')]);
  const release = await acquireLock(lockfile, path, dir);
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
    await release().catch(() => undefined);
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

type Lockfile = typeof import('proper-lockfile');

/**
 * The lock on the config file (a `config.json.lock` directory next to it). Waits, with short
 * jittered pauses, while another payctl holds it, for at most LOCK_WAIT_MS; any other error (a
 * directory that is not writable) is reported at once, never retried.
 */
async function acquireLock(lockfile: Lockfile, file: string, dir: string): Promise<() => Promise<void>> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      return await lockfile.lock(file, {
        realpath: false,
        stale: LOCK_STALE_MS,
        retries: 0,
        // The lock is held only while a synchronous read-edit-write runs: its refresh timer never
        // fires in that window. Losing it later is no reason to crash with a stack.
        onCompromised: () => undefined,
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw dirError('config directory', dir, err);
      if (Date.now() >= deadline) {
        throw new CliError(
          `config file ${file} is being changed by another payctl process (lock ${file}.lock held for more than ${LOCK_WAIT_MS / 1000} s); try again, or remove ${file}.lock if no payctl is running`,
          ExitCode.internal,
        );
      }
      await new Promise((done) => setTimeout(done, 5 + Math.random() * 25));
    }
  }
}
