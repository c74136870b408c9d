// One lock beside a path (`<path>.lock`), for work that must run in one payctl process at a time:
// a change to the config, an export with a given state file, the webhook deliverer of a sandbox.
// The lock file holds its holder's record: who (`user@host`, pid, since), on which machine, and a
// lease (until when), renewed while it is held by a timer that never keeps the process alive. It is
// taken over when its lease has run out, or at once when its holder is a process of this machine
// that is gone (kill -9, a crash, Ctrl-C): a rerun right after one is not held up for a lease.
//
// Made with O_EXCL and the record written into it, rather than proper-lockfile's directory plus an
// owner file: the record is read from the lock itself, so a reader never finds a lock with no owner
// or with the owner of the lock before it; the lock can be taken synchronously (an export stops
// before it reads anything); and taking over is checked. A stale lock is renamed aside and removed
// only if it is still the one judged stale (the same inode), else put back, so two processes taking
// over one lock at once do not both end up holding it. proper-lockfile knows a holder only by its
// directory's mtime, and cannot tell a dead holder from a live one.
//
// A lock whose record cannot be read (a file being written this instant, another user's file) lasts
// for its mtime plus the lease.
import { closeSync, fstatSync, linkSync, lstatSync, openSync, readFileSync, renameSync, rmSync, writeSync, type Stats } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { stopBeforeExit } from './interrupt.js';
import { currentOwner, holderAlive } from './owner.js';

/** What a lock file says of its holder. Any of it may be missing from a record that cannot be read whole. */
export interface LockHolder {
  /** `user@host`. */
  holder?: string;
  host_id?: string;
  pid?: number;
  started?: string;
  /** ISO times. */
  since?: string;
  expires?: string;
}

export interface LockOptions {
  /** How long the lock stays held without a renewal (ms). */
  leaseMs: number;
  /** How often the holder renews it (ms); a quarter of the lease unless said. */
  renewMs?: number;
  /** How long acquireLock waits for another holder to let go (ms); 0 fails at once. */
  waitMs?: number;
  /** The longest pause between two tries while waiting (ms); each is jittered below it. */
  pollMs?: number;
  /**
   * Called once if the lock is lost while held: taken over after its lease ran out (the process was
   * stopped or too busy to renew it), removed, or it could not be renewed. The holder no longer
   * holds it and must not act as if it did.
   */
  onLost?: (why: string) => void;
}

export interface HeldLock {
  readonly path: string;
  /** True once the lock was lost (see onLost). */
  readonly lost: boolean;
  /** Lets go of the lock (removing its file, if it is still this holder's). Safe to call twice. */
  release(): void;
}

/** Another holder has the lock (`holder`: what its file says, when it could be read). */
export class LockBusyError extends Error {
  constructor(
    readonly path: string,
    readonly holder: LockHolder | undefined,
    waitedMs: number,
  ) {
    super(`lock ${path} is held by ${describeHolder(holder)}${waitedMs > 0 ? ` (waited ${Math.round(waitedMs / 100) / 10} s)` : ''}`);
    this.name = 'LockBusyError';
  }
}

/** The file system refused a step of taking the lock: making or writing its file, or removing a stale one. */
export class LockFileError extends Error {
  constructor(
    readonly step: 'create' | 'write' | 'remove',
    readonly path: string,
    cause: unknown,
  ) {
    super(`cannot ${step} ${path}: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'LockFileError';
  }
}

export function lockPathOf(target: string): string {
  return `${target}.lock`;
}

function describeHolder(holder: LockHolder | undefined): string {
  if (holder?.pid === undefined) return 'another process';
  return `${holder.holder ?? 'a process'}, pid ${holder.pid}${holder.since ? `, since ${holder.since}` : ''}`;
}

const code = (err: unknown) => (err as NodeJS.ErrnoException | null)?.code;

/** How many stale locks one try takes over before it gives up to another process taking them too. */
const TAKEOVERS = 3;

/** Takes the lock on `target` now, or throws LockBusyError naming who holds it. */
export function tryLock(target: string, options: LockOptions): HeldLock {
  const path = lockPathOf(target);
  for (let attempt = 0; attempt <= TAKEOVERS; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (err) {
      if (code(err) !== 'EEXIST') throw new LockFileError('create', path, err);
      const found = inspect(path);
      if (!found) continue;
      if (!isStale(found.holder, found.stats, options.leaseMs)) throw new LockBusyError(path, found.holder, 0);
      try {
        removeIfSame(path, found.stats.ino);
      } catch (removeErr) {
        throw new LockFileError('remove', path, removeErr);
      }
      continue;
    }
    return hold(fd, path, options);
  }
  // Each stale lock removed was replaced by another process's before this one could take it.
  throw new LockBusyError(path, undefined, 0);
}

/** Takes the lock on `target`, waiting up to options.waitMs (jittered pauses) while another holds it. */
export async function acquireLock(target: string, options: LockOptions): Promise<HeldLock> {
  const started = Date.now();
  const pollMs = options.pollMs ?? 30;
  for (;;) {
    try {
      return tryLock(target, options);
    } catch (err) {
      const waited = Date.now() - started;
      if (!(err instanceof LockBusyError)) throw err;
      if (waited >= (options.waitMs ?? 0)) throw waited > 0 ? new LockBusyError(err.path, err.holder, waited) : err;
      // Jittered, so processes waiting on one lock do not all try again in step.
      await new Promise((done) => setTimeout(done, pollMs / 6 + Math.random() * ((pollMs * 5) / 6)));
    }
  }
}

/** The lock file as it is now (undefined: gone meanwhile). */
function inspect(path: string): { holder: LockHolder | undefined; stats: Stats } | undefined {
  try {
    // Read through one descriptor, so the record and the inode judged are the same file's.
    const fd = openSync(path, 'r');
    try {
      const stats = fstatSync(fd);
      return { holder: stats.isFile() ? parseHolder(readFileSync(fd, 'utf8')) : undefined, stats };
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    if (code(err) === 'ENOENT') return undefined;
  }
  // Not readable (another user's lock, or a directory where it cannot be opened): known by its mtime.
  try {
    return { holder: undefined, stats: lstatSync(path) };
  } catch (err) {
    if (code(err) === 'ENOENT') return undefined;
    throw new LockFileError('create', path, err);
  }
}

function parseHolder(text: string): LockHolder | undefined {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof record !== 'object' || record === null) return undefined;
  const str = (key: string) => (typeof record[key] === 'string' ? (record[key] as string) : undefined);
  return {
    holder: str('holder'),
    host_id: str('host_id'),
    pid: typeof record.pid === 'number' ? record.pid : undefined,
    started: str('started'),
    since: record.since === undefined ? undefined : String(record.since),
    expires: str('expires'),
  };
}

function isStale(holder: LockHolder | undefined, stats: Stats, leaseMs: number): boolean {
  const written = Date.parse(holder?.expires ?? '');
  const expires = Number.isFinite(written) ? written : stats.mtimeMs + leaseMs;
  if (expires <= Date.now()) return true;
  // A holder known in full is gone at once if it was a process of this machine that is no more.
  if (holder?.pid === undefined || holder.host_id === undefined || holder.started === undefined) return false;
  return !holderAlive({ host_id: holder.host_id, pid: holder.pid, started: holder.started }, currentOwner());
}

/**
 * Removes the lock at `path` if it is still the file with inode `ino`; one that is not (another
 * process took the lock over meanwhile) is put back. Renamed aside first, so what is checked is
 * what is removed.
 */
function removeIfSame(path: string, ino: number): boolean {
  const aside = `${path}.${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(path, aside);
  } catch (err) {
    if (code(err) === 'ENOENT') return false;
    throw err;
  }
  const moved = lstatSync(aside);
  if (moved.ino !== ino) {
    try {
      // link fails when a third process has made the lock again: then that one holds it, and the
      // holder put aside finds out when it next renews.
      if (moved.isDirectory()) renameSync(aside, path);
      else linkSync(aside, path);
    } catch {
      // As said.
    }
  }
  rmSync(aside, { recursive: true, force: true });
  return moved.ino === ino;
}

function hold(fd: number, path: string, options: LockOptions): HeldLock {
  const me = currentOwner();
  const since = new Date().toISOString();
  // Every field but `expires` stays as it is, and an ISO time has one length: a renewal rewrites
  // the record in place, never leaving it shorter or half-written for a reader.
  const write = () => {
    const record = JSON.stringify({ holder: me.holder, host_id: me.host_id, pid: me.pid, started: me.started, since, expires: new Date(Date.now() + options.leaseMs).toISOString() });
    const bytes = Buffer.from(record);
    for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, done);
  };
  let ino: number;
  try {
    write();
    ino = fstatSync(fd).ino;
  } catch (err) {
    closeSync(fd);
    rmSync(path, { force: true });
    throw new LockFileError('write', path, err);
  }

  let done = false;
  let lost = false;
  const stillMine = () => {
    try {
      return lstatSync(path).ino === ino;
    } catch {
      return false;
    }
  };
  const finish = () => {
    done = true;
    clearInterval(renewer);
    unregister();
    closeSync(fd);
  };
  const release = () => {
    if (done) return;
    finish();
    try {
      if (stillMine()) removeIfSame(path, ino);
    } catch {
      // Left behind: the next holder takes it over, its process being gone.
    }
  };
  const renewer = setInterval(() => {
    if (done) return;
    let why: string | undefined;
    if (!stillMine()) why = `${path} was taken over or removed`;
    else {
      try {
        write();
      } catch (err) {
        why = `cannot renew ${path}: ${(err as Error).message}`;
      }
    }
    if (why === undefined) return;
    lost = true;
    // Not renewable but still this holder's: let go of it rather than leave others waiting for its lease.
    if (stillMine()) release();
    else finish();
    options.onLost?.(why);
  }, options.renewMs ?? options.leaseMs / 4);
  renewer.unref();
  // A signal or a closed pipe exits without unwinding: the lock goes with the process.
  const unregister = stopBeforeExit(() => release());
  return {
    path,
    get lost() {
      return lost;
    },
    release,
  };
}
