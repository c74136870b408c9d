import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { SandboxError } from './errors.js';
import { seedState } from './seed.js';
import { upgradeState } from './state-upgrade.js';
import type { SandboxState } from './types.js';

// The whole sandbox lives in one JSON file. Several payctl processes may serve the same state
// directory at once (each command starts its own in-process sandbox), so every change goes
// through lock → read → mutate → write temp file → rename → unlock. Readers skip the lock: the
// rename is atomic, so they see either the old file or the new one, never half of one.

const LOCK_OPTIONS = {
  realpath: false,
  // A process that dies holding the lock stops refreshing its mtime; after 10 s others take over.
  stale: 10_000,
  // Long enough to outlast a stale lock, jittered so waiting processes do not retry in step.
  retries: { retries: 400, factor: 1.2, minTimeout: 5, maxTimeout: 50, randomize: true },
} as const;

/**
 * The time, for seeding. The sandbox clock (clock.ts) also adopts the clock offset of every state
 * loaded here, so a request always runs on the sandbox time of the state it is looking at.
 */
export type StoreClock = (() => Date) & { adopt?: (state: SandboxState) => void };

export interface StatePaths {
  dir: string;
  file: string;
}

export function statePaths(stateDir: string): StatePaths {
  const dir = path.join(path.resolve(stateDir), 'sandbox');
  return { dir, file: path.join(dir, 'state.json') };
}

// Requests inside one process queue here first, so they do not spin on the file lock against
// each other; the file lock then only arbitrates between processes.
const queues = new Map<string, Promise<void>>();

function serialize<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const run = previous.then(task);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}

async function prepareDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // mkdir's mode does not apply to a directory that already existed.
  await chmod(dir, 0o700);
}

async function withFileLock<T>(file: string, task: (assertHeld: () => void) => Promise<T>): Promise<T> {
  let compromised: Error | undefined;
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(file, {
      ...LOCK_OPTIONS,
      // The default throws from a timer and would kill the CLI; refuse the write instead.
      onCompromised: (err) => {
        compromised = err;
      },
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new SandboxError(503, 'server_api_error', 'The sandbox state is locked by another process; try again.', {
        headers: { 'Retry-After': '1' },
      });
    }
    throw err;
  }
  try {
    return await task(() => {
      if (compromised) {
        throw new SandboxError(503, 'server_api_error', `Lost the sandbox state lock (${compromised.message}); try again.`);
      }
    });
  } finally {
    await release().catch(() => undefined);
  }
}

async function loadState(file: string): Promise<SandboxState | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || (parsed as { version?: unknown }).version !== 1) {
    throw new SandboxError(
      500,
      'server_api_error',
      `The sandbox state file ${file} is unreadable; run "payctl sandbox reset" to start over.`,
    );
  }
  return upgradeState(parsed as SandboxState);
}

async function writeAtomically(file: string, state: SandboxState): Promise<void> {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await open(tmp, 'wx', 0o600);
    try {
      await handle.writeFile(JSON.stringify(state));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/**
 * Runs `mutate` on the current state under the lock and saves the result. If `mutate` throws,
 * nothing is written, so handlers validate first and change state only once they cannot fail.
 */
export async function mutateState<T>(stateDir: string, now: StoreClock, mutate: (state: SandboxState) => T): Promise<T> {
  const { dir, file } = statePaths(stateDir);
  await prepareDir(dir);
  return serialize(file, () =>
    withFileLock(file, async (assertHeld) => {
      let state = await loadState(file);
      if (!state) {
        // Saved before the mutation, so a rejected first request still leaves a seeded sandbox.
        state = seedState(now());
        await writeAtomically(file, state);
      }
      now.adopt?.(state);
      const result = mutate(state);
      assertHeld();
      await writeAtomically(file, state);
      return result;
    }),
  );
}

export async function readState(stateDir: string, now: StoreClock): Promise<SandboxState> {
  const { file } = statePaths(stateDir);
  const state = await loadState(file);
  if (!state) return mutateState(stateDir, now, (seeded) => seeded);
  now.adopt?.(state);
  return state;
}

/** Deletes the state (and temp files of writers that crashed); the next request seeds afresh. */
export async function wipeState(stateDir: string): Promise<void> {
  const { dir, file } = statePaths(stateDir);
  await prepareDir(dir);
  await serialize(file, () =>
    withFileLock(file, async () => {
      await rm(file, { force: true });
      const base = path.basename(file);
      for (const name of await readdir(dir)) {
        if (name.startsWith(`${base}.`) && name.endsWith('.tmp')) await rm(path.join(dir, name), { force: true });
      }
    }),
  );
}
