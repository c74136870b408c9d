// One run per state file at a time. Two runs on the same state (a cron job overlapping a manual
// run) would both write FILE.partial and both move the cursor; the second stops at once instead,
// before reading or writing anything. The lock is the platform's, beside the state and naming its
// process: a run killed (kill -9, a crash) leaves it behind, and the next run takes it over as soon
// as that process is gone, so a resume right after a kill is not held up.
import { LockBusyError, LockFileError, lockPathOf, tryLock } from '../../platform/lock.js';
import { InFlightError } from '../../errors.js';
import { FileStepError, Leftovers, localFailure } from './failure.js';

// Only a run on another machine (a state on a network share) that stops renewing it, or one
// stopped (Ctrl-Z) this long, loses the lock to the next run: a dead process on this machine
// loses it at once.
const LEASE_MS = 60_000;

/** Takes the lock of `state` (`<state>.lock`); returns its release. */
export function lockState(state: string): () => void {
  const path = lockPathOf(state);
  try {
    return tryLock(state, { leaseMs: LEASE_MS }).release;
  } catch (err) {
    if (err instanceof LockBusyError) {
      const holder = err.holder;
      if (holder?.pid !== undefined) {
        throw new InFlightError(
          `an export with the state ${state} is already running in another payctl process (pid ${holder.pid}, since ${holder.since ?? ''}); nothing was read or written. When it ends, run this again: it starts where that run stopped`,
        );
      }
      throw new InFlightError(`could not take the lock ${path}: another payctl process keeps taking it; nothing was read or written`);
    }
    if (!(err instanceof LockFileError)) throw err;
    // A full disk, say: the run leaves nothing it made (the lock removed its half-written file).
    const leftovers = new Leftovers();
    if (err.step === 'write') leftovers.remove(path);
    throw localFailure(new FileStepError(`${err.step} ${path}`, path, err.cause), 'taking the lock of the state', leftovers, 'nothing was read or written');
  }
}
