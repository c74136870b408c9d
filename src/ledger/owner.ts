// Who holds a ledger lock, and whether that process still lives. A lock names its owner by pid and
// the process's start time (Linux's /proc/<pid>/stat), so a pid reused by an unrelated process
// after a crash is not mistaken for the owner. Where /proc is absent only the pid is compared,
// which errs on the safe side: a reused pid keeps the lock (nothing is sent) until it exits.
import { readFileSync } from 'node:fs';

export interface Owner {
  pid: number;
  /** Start time in clock ticks since boot, or "" where the system does not tell. */
  started: string;
}

function startTimeOf(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? '';
  } catch {
    return '';
  }
}

let self: Owner | undefined;

export function currentOwner(): Owner {
  self ??= { pid: process.pid, started: startTimeOf(process.pid) };
  return self;
}

export function isAlive(owner: Owner): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (!owner.started) return true;
  const now = startTimeOf(owner.pid);
  return now === '' || now === owner.started;
}
