// Who holds a lock, and whether that process still lives: shared by the lock files beside a path
// (lock.ts) and the ledger's leases in its database. A holder is named by machine, pid and the
// process's start time (Linux's /proc/<pid>/stat), so a pid reused by an unrelated process after a
// crash is not mistaken for the holder. Only on the holder's own machine can the pid be asked at
// all; elsewhere (another operator's laptop, sharing a PostgreSQL ledger or a network directory)
// the lease is the only word, and it runs out by itself when that machine dies.
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';

/** Who this process is, as written on its locks and intents. */
export interface Owner {
  /** `user@host`, for people. */
  holder: string;
  /** Which machine (hostname and boot): only there can the holder's pid be asked whether it lives. */
  host_id: string;
  pid: number;
  /** The process's start time (Linux), so a reused pid is not mistaken for the holder; '' when unknown. */
  started: string;
  /** One per process. */
  token: string;
}

/** When the process `pid` of this machine started (Linux), '' when it cannot be told. */
export function startTimeOf(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? '';
  } catch {
    return '';
  }
}

/** This boot of this machine: two containers or namespaces with one hostname but another kernel differ. */
function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return '';
  }
}

function userName(): string {
  try {
    return userInfo().username;
  } catch {
    // A uid with no passwd entry (some containers).
    return String(process.getuid?.() ?? 'unknown');
  }
}

let self: Owner | undefined;

export function currentOwner(): Owner {
  if (!self) {
    const host = hostname();
    self = {
      holder: `${userName()}@${host}`,
      host_id: createHash('sha256').update(`${host}\0${bootId()}`).digest('hex').slice(0, 16),
      pid: process.pid,
      started: startTimeOf(process.pid),
      token: randomUUID(),
    };
  }
  return self;
}

/** Whether a process with this pid exists on this machine (under any user). */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the process holding a lock still runs, as far as this machine can tell: a lock from
 * another machine is alive until its lease says otherwise.
 */
export function holderAlive(lock: Pick<Owner, 'host_id' | 'pid' | 'started'>, me: Owner = currentOwner()): boolean {
  if (lock.host_id !== me.host_id) return true;
  if (!pidAlive(lock.pid)) return false;
  if (!lock.started) return true;
  const now = startTimeOf(lock.pid);
  return now === '' || now === lock.started;
}
