import { mkdirSync, rmdirSync, statSync, utimesSync } from 'node:fs';
import { chmod, mkdir, open, readdir, readFile, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { trackChanges } from './change-tracking.js';
import { SandboxError } from './errors.js';
import { recordEvents } from './events.js';
import { seedState } from './seed.js';
import {
  appendChanges,
  changesName,
  CorruptStateError,
  LEGACY_NAME,
  readChanges,
  readSnapshot,
  SNAPSHOT_NAME,
  unitRecord,
  writeSnapshot,
  type UnitRecord,
} from './state-files.js';
import { upgradeState } from './state-upgrade.js';
import type { SandboxState } from './types.js';

// The sandbox's state: files in the state directory (state-files.ts), and in each process a copy
// in memory kept up to date with them. Several payctl processes may serve the same directory at
// once (each command starts its own in-process sandbox, next to any `sandbox serve`), so:
//
// - a change runs under a file lock: bring the copy up to date, mutate it, append what changed to
//   the log (change-tracking.ts finds which records) with the events they make (events.ts), unlock;
// - a read takes no lock: it checks the snapshot with one stat and reads whatever the log gained
//   since, so a process that is the only writer never re-reads anything.

type Callback<T = void> = (err: NodeJS.ErrnoException | null, value?: T) => void;

/** A synchronous call in the callback shape proper-lockfile expects, answered on the next tick. */
function viaSync<A extends unknown[], T>(call: (...args: A) => T) {
  return (...args: [...A, Callback<T>]): void => {
    const callback = args.pop() as Callback<T>;
    try {
      const value = call(...(args as unknown as A));
      process.nextTick(() => callback(null, value));
    } catch (err) {
      process.nextTick(() => callback(err as NodeJS.ErrnoException));
    }
  };
}

// The lock's file calls (mkdir, stat, utimes, rmdir on a small directory) made synchronously:
// each takes microseconds, while a round trip through libuv's thread pool took about a tenth of
// a millisecond, and a change makes several of them in a row while everyone else waits.
const LOCK_FS = {
  mkdir: viaSync((p: string) => mkdirSync(p)),
  stat: viaSync((p: string) => statSync(p)),
  utimes: viaSync((p: string, atime: Date, mtime: Date) => utimesSync(p, atime, mtime)),
  rmdir: viaSync((p: string) => rmdirSync(p)),
  rmdirSync: (p: string) => rmdirSync(p),
};

const LOCK_OPTIONS = {
  fs: LOCK_FS,
  realpath: false,
  // A process that dies holding the lock stops refreshing its mtime; after 10 s others take over.
  stale: 10_000,
  // Long enough to outlast a stale lock, jittered so waiting processes do not retry in step.
  retries: { retries: 400, factor: 1.2, minTimeout: 5, maxTimeout: 50, randomize: true },
} as const;

/** The log is folded into a new snapshot once it is larger than this and than the snapshot (tests lower it). */
export const storeLimits = { compactMinBytes: 16 * 1024 * 1024 };

/**
 * The time, for seeding. The sandbox clock (clock.ts) also adopts the clock offset of every state
 * loaded here, so a request always runs on the sandbox time of the state it is looking at.
 */
export type StoreClock = (() => Date) & { adopt?: (state: SandboxState) => void };

export interface StatePaths {
  dir: string;
  /** The snapshot; also what the lock is taken on. */
  file: string;
  legacy: string;
}

export function statePaths(stateDir: string): StatePaths {
  const dir = path.join(path.resolve(stateDir), 'sandbox');
  return { dir, file: path.join(dir, SNAPSHOT_NAME), legacy: path.join(dir, LEGACY_NAME) };
}

interface Cached {
  state: SandboxState;
  generation: string;
  /** Which snapshot file the copy came from: it changes when another process writes a new one. */
  snapshotId: string;
  snapshotSize: number;
  /** Bytes of the generation's log already applied. */
  offset: number;
}

const caches = new Map<string, Cached>();
// Bumped on every change applied to a cached state, so views computed from it know when to go.
const versions = new WeakMap<SandboxState, number>();

function bump(state: SandboxState): void {
  versions.set(state, (versions.get(state) ?? 0) + 1);
}

/** Changes whenever the state's content may have: lists cache their sorted views against it. */
export function stateVersion(state: SandboxState): number {
  return versions.get(state) ?? 0;
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

const prepared = new Set<string>();

/** Once per process and directory: every change used to pay two system calls for it. */
async function prepareDir(dir: string): Promise<void> {
  if (prepared.has(dir)) return;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // mkdir's mode does not apply to a directory that already existed.
  await chmod(dir, 0o700);
  prepared.add(dir);
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

function unreadable(paths: StatePaths, err: unknown): SandboxError {
  const why = err instanceof CorruptStateError ? ` (${err.message})` : '';
  return new SandboxError(500, 'server_api_error', `The sandbox state in ${paths.dir} is unreadable${why}; run "payctl sandbox reset" to start over.`);
}

// Synchronous for the same reason as the lock's calls: a stat is microseconds, a thread-pool round trip more.
async function snapshotStat(file: string): Promise<{ id: string; size: number } | undefined> {
  try {
    const s = statSync(file);
    return { id: `${s.ino}:${s.size}:${s.mtimeMs}`, size: s.size };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

async function loadFromFiles(paths: StatePaths, id: string, size: number): Promise<Cached> {
  const snapshot = await readSnapshot(paths.file);
  if (!snapshot) throw Object.assign(new Error('snapshot vanished'), { code: 'ENOENT' });
  const state = upgradeState(snapshot.state as unknown as SandboxState);
  const offset = await readChanges(path.join(paths.dir, changesName(snapshot.generation)), 0, snapshot.state);
  return { state, generation: snapshot.generation, snapshotId: id, snapshotSize: size, offset };
}

/**
 * Brings this process's copy up to date with the files; undefined when there is no snapshot (a
 * new sandbox, or one of an earlier version still in its single JSON file).
 */
async function refresh(paths: StatePaths): Promise<Cached | undefined> {
  // A snapshot replaced between the stat and the read of its log shows up as a log that is gone;
  // the second pass then finds the new snapshot.
  for (let attempt = 0; ; attempt += 1) {
    try {
      const current = await snapshotStat(paths.file);
      if (!current) {
        // Gone (a reset, or removed by hand): nothing about the directory can be assumed any more.
        caches.delete(paths.file);
        prepared.delete(paths.dir);
        await closeLogs(paths.dir);
        return undefined;
      }
      let cached = caches.get(paths.file);
      if (!cached || cached.snapshotId !== current.id) {
        cached = await loadFromFiles(paths, current.id, current.size);
        caches.set(paths.file, cached);
        bump(cached.state);
        return cached;
      }
      const before = cached.offset;
      const log = path.join(paths.dir, changesName(cached.generation));
      // One stat tells whether anyone appended; only then is the log opened and read.
      let size: number;
      try {
        size = statSync(log).size;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || before !== 0) throw err;
        size = 0;
      }
      if (size !== before) cached.offset = await readChanges(log, cached.offset, cached.state as never);
      if (cached.offset !== before) bump(cached.state);
      return cached;
    } catch (err) {
      caches.delete(paths.file);
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' && attempt < 2) continue;
      if (err instanceof SandboxError) throw err;
      throw unreadable(paths, err);
    }
  }
}

// The open log of each generation this process appends to: opening it for every change was two
// more system calls a change. A new generation (or a wipe) closes the old one.
const openLogs = new Map<string, FileHandle>();

async function changeLog(file: string): Promise<FileHandle> {
  let handle = openLogs.get(file);
  if (!handle) {
    handle = await open(file, 'a', 0o600);
    openLogs.set(file, handle);
  }
  return handle;
}

async function closeLogs(dir: string): Promise<void> {
  for (const [file, handle] of openLogs) {
    if (path.dirname(file) !== dir) continue;
    openLogs.delete(file);
    await handle.close().catch(() => undefined);
  }
}

/** Replaces the files with a snapshot of `state` (a new generation) and caches it. Under the lock. */
async function saveSnapshot(paths: StatePaths, state: SandboxState): Promise<Cached> {
  const old = caches.get(paths.file)?.generation;
  const generation = await writeSnapshot(paths.dir, state as never);
  await closeLogs(paths.dir);
  if (old) await rm(path.join(paths.dir, changesName(old)), { force: true });
  const current = await snapshotStat(paths.file);
  const cached: Cached = { state, generation, snapshotId: current?.id ?? '', snapshotSize: current?.size ?? 0, offset: 0 };
  caches.set(paths.file, cached);
  bump(state);
  return cached;
}

/** Under the lock: the current state, seeded (or migrated from the single-file format) when new. */
async function currentOrNew(paths: StatePaths, now: StoreClock): Promise<Cached> {
  const cached = await refresh(paths);
  if (cached) return cached;
  let legacy: string | undefined;
  try {
    legacy = await readFile(paths.legacy, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (legacy === undefined) return saveSnapshot(paths, seedState(now()));
  let parsed: unknown;
  try {
    parsed = JSON.parse(legacy);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || (parsed as { version?: unknown }).version !== 1) throw unreadable(paths, undefined);
  const saved = await saveSnapshot(paths, upgradeState(parsed as SandboxState));
  await rm(paths.legacy, { force: true });
  return saved;
}

/**
 * Runs `mutate` on the current state under the lock and saves what it changed. If `mutate`
 * throws, nothing is written and whatever it had changed in this process's copy is put back.
 */
export async function mutateState<T>(stateDir: string, now: StoreClock, mutate: (state: SandboxState) => T): Promise<T> {
  const paths = statePaths(stateDir);
  await prepareDir(paths.dir);
  return serialize(paths.file, () =>
    withFileLock(paths.file, async (assertHeld) => {
      const cached = await currentOrNew(paths, now);
      now.adopt?.(cached.state);
      const tracker = trackChanges(cached.state);
      let result: T;
      let records: UnitRecord[];
      try {
        result = tracker.unwrap(mutate(tracker.state));
        // Every change of a transaction, buyer, plan, subscription or invoice is also an event,
        // written in the same change (events.ts).
        recordEvents(tracker, tracker.changed(), now());
        assertHeld();
        records = tracker.changed().map((unit) => unitRecord(cached.state as never, unit));
      } catch (err) {
        // A refusal (the usual way a mutation throws) changed nothing, or what it changed is put
        // back; reloading the whole state for it made every refused refund cost a full parse.
        if (!tracker.revert()) caches.delete(paths.file);
        throw err;
      }
      if (records.length === 0) return result;
      const texts = records.map((r) => JSON.stringify(r));
      try {
        cached.offset += await appendChanges(await changeLog(path.join(paths.dir, changesName(cached.generation))), texts);
      } catch (err) {
        caches.delete(paths.file);
        throw err;
      }
      // Each changed record is replaced by a fresh copy of what was written: objects the mutation
      // shared between records (a card copied into a transaction) must not stay shared in memory,
      // or a later change to one would silently change the other, unlike on disk.
      records.forEach((record, i) => {
        const fresh = JSON.parse(texts[i] as string) as UnitRecord;
        const [top, key] = record.u;
        const state = cached.state as unknown as Record<string, Record<string, unknown>>;
        if (fresh.d) return;
        if (key === undefined) state[top] = fresh.v as Record<string, unknown>;
        else (state[top] as Record<string, unknown>)[key] = fresh.v;
      });
      bump(cached.state);
      if (cached.offset > storeLimits.compactMinBytes && cached.offset > cached.snapshotSize) await saveSnapshot(paths, cached.state);
      return result;
    }),
  );
}

/** Lets go of what this process holds open for a state directory (a sandbox server closing). */
export async function releaseState(stateDir: string): Promise<void> {
  const paths = statePaths(stateDir);
  // Through the same queue as changes, so no append is cut off by the close.
  await serialize(paths.file, () => closeLogs(paths.dir));
}

/** The current state, shared with other requests of this process: read it, never change it. */
export async function readState(stateDir: string, now: StoreClock): Promise<SandboxState> {
  const paths = statePaths(stateDir);
  let cached = await refresh(paths);
  if (!cached) {
    await mutateState(stateDir, now, () => undefined);
    cached = await refresh(paths);
    if (!cached) throw unreadable(paths, undefined);
  }
  now.adopt?.(cached.state);
  return cached.state;
}

/**
 * Runs `change` on the state under the lock and writes the result as a new snapshot rather than
 * a logged change: for a change to most of the state at once (generating a volume of sales), which
 * would otherwise be one enormous log line.
 */
export async function rewriteState<T>(stateDir: string, now: StoreClock, change: (state: SandboxState) => T): Promise<T> {
  const paths = statePaths(stateDir);
  await prepareDir(paths.dir);
  return serialize(paths.file, () =>
    withFileLock(paths.file, async () => {
      const cached = await currentOrNew(paths, now);
      now.adopt?.(cached.state);
      let result: T;
      try {
        result = change(cached.state);
      } catch (err) {
        caches.delete(paths.file);
        throw err;
      }
      await saveSnapshot(paths, cached.state);
      return result;
    }),
  );
}

/**
 * Replaces the whole state (a new snapshot) under the lock: for tests that need a state no
 * request can produce.
 */
export async function replaceState(stateDir: string, state: SandboxState): Promise<void> {
  const paths = statePaths(stateDir);
  await prepareDir(paths.dir);
  await serialize(paths.file, () =>
    withFileLock(paths.file, async () => {
      await refresh(paths).catch(() => undefined);
      await saveSnapshot(paths, state);
      await rm(paths.legacy, { force: true });
    }),
  );
}

/** Deletes the state (and temp files of writers that crashed); the next request seeds afresh. */
export async function wipeState(stateDir: string): Promise<void> {
  const paths = statePaths(stateDir);
  await prepareDir(paths.dir);
  await serialize(paths.file, () =>
    withFileLock(paths.file, async () => {
      caches.delete(paths.file);
      await closeLogs(paths.dir);
      for (const name of await readdir(paths.dir)) {
        const ours = name === SNAPSHOT_NAME || name === LEGACY_NAME || /^changes-[0-9a-f]+\.ndjson$/.test(name) || name.endsWith('.tmp');
        if (ours) await rm(path.join(paths.dir, name), { force: true });
      }
    }),
  );
}

/** The state as the files hold it, read afresh without any process's copy: for tests and tools. */
export async function readStateFiles(stateDir: string): Promise<SandboxState | undefined> {
  const paths = statePaths(stateDir);
  const current = await snapshotStat(paths.file);
  if (!current) return undefined;
  return (await loadFromFiles(paths, current.id, current.size)).state;
}
