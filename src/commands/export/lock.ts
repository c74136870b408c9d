// One run per state file at a time. Two runs on the same state (a cron job overlapping a manual
// run) would both write FILE.partial and both move the cursor; the second stops at once instead,
// before reading or writing anything. The lock is a file beside the state naming its process: a
// run killed (kill -9, a crash) leaves it behind, and the next run takes it over as soon as that
// process is gone, so a resume right after a kill is not held up.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { stopBeforeExit } from '../../platform/interrupt.js';
import { InFlightError } from '../../errors.js';
import { FileStepError, Leftovers, localFailure } from './failure.js';

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderOf(path: string): { pid: number; since: string } | undefined {
  try {
    const held = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown; since?: unknown };
    return typeof held.pid === 'number' ? { pid: held.pid, since: String(held.since ?? '') } : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the lock of `state` (`<state>.lock`); returns its release. */
export function lockState(state: string): () => void {
  const path = `${state}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw localFailure(new FileStepError(`create ${path}`, path, err), 'taking the lock of the state', new Leftovers(), 'nothing was read or written');
      const holder = holderOf(path);
      if (holder && alive(holder.pid)) {
        throw new InFlightError(
          `an export with the state ${state} is already running in another payctl process (pid ${holder.pid}, since ${holder.since}); nothing was read or written. When it ends, run this again: it starts where that run stopped`,
        );
      }
      // Left by a run that is gone: taken over.
      unlinkSync(path);
      continue;
    }
    try {
      writeSync(fd, JSON.stringify({ pid: process.pid, since: new Date().toISOString() }));
    } catch (err) {
      // A full disk, say: the run leaves nothing it made.
      closeSync(fd);
      const leftovers = new Leftovers();
      leftovers.remove(path);
      throw localFailure(new FileStepError(`write ${path}`, path, err), 'taking the lock of the state', leftovers, 'nothing was read or written');
    }
    closeSync(fd);
    const release = () => {
      forgetOnExit();
      if (holderOf(path)?.pid === process.pid) unlinkSync(path);
    };
    // Ctrl-C exits without unwinding: the lock goes with the process rather than wait to be taken over.
    const forgetOnExit = stopBeforeExit(() => {
      try {
        release();
      } catch {
        // Taken over by the next run, as a lock whose process is gone.
      }
    });
    return release;
  }
  throw new InFlightError(`could not take the lock ${path}: another payctl process keeps taking it; nothing was read or written`);
}
