// After a money-moving request whose answer was lost, how long to keep looking before deciding.
//
// A request that timed out or whose connection dropped may still be sitting in a queue on the
// service's side and be applied seconds later; a single lookup right after giving up would see
// nothing and wrongly call it "not applied". So the resource is looked up again and again, with
// backoff, until the attempt's settle deadline: the end of the attempt plus twice the request
// timeout. An intent written before sending gets the conservative deadline of three timeouts
// from the send, so a run that was killed mid-request is settled as late as it could land.

/**
 * How long after an attempt ends its request may still land. When the service did answer (a
 * 5xx, an answer that is not the object asked for) it has finished with the request: what is
 * left is for a lookup to see the change, so the wait is short.
 */
export function settleWindowMs(timeoutMs: number, answered = false): number {
  return answered ? Math.min(ANSWERED_GRACE_MS, timeoutMs) : 2 * timeoutMs;
}

const ANSWERED_GRACE_MS = 2000;

/** The deadline of an attempt about to be sent: its own timeout, then the window. */
export function settleDeadlineForSend(timeoutMs: number, now = Date.now()): number {
  return now + timeoutMs + settleWindowMs(timeoutMs);
}

export type Settled<T> =
  | { kind: 'applied'; now: T }
  /** Seen unchanged at or after the deadline: it did not happen and can no longer land. */
  | { kind: 'not_applied'; now: T }
  /** The last lookups failed: nothing can be said. */
  | { kind: 'unknown'; error: Error };

export interface SettleOptions {
  /** Never wait past this many ms from now, whatever a stored deadline says. */
  maxWaitMs: number;
  sleep?: (ms: number) => Promise<void>;
  /** Told once, before the first wait, how long the wait may be. */
  onWait?: (ms: number) => void;
}

const FIRST_DELAY_MS = 250;
const LONGEST_DELAY_MS = 4000;

/**
 * Looks with `look` until `applied` says yes, or until `deadline` has passed and a lookup made at
 * or after it shows the move still not applied.
 */
export async function settle<T>(deadline: number, look: () => Promise<T>, applied: (now: T) => boolean, options: SettleOptions): Promise<Settled<T>> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const until = Math.min(deadline, Date.now() + options.maxWaitMs);
  let delay = FIRST_DELAY_MS;
  let told = false;
  for (;;) {
    let outcome: Settled<T>;
    try {
      const now = await look();
      if (applied(now)) return { kind: 'applied', now };
      outcome = { kind: 'not_applied', now };
    } catch (err) {
      outcome = { kind: 'unknown', error: err instanceof Error ? err : new Error(String(err)) };
    }
    const left = until - Date.now();
    if (left <= 0) return outcome;
    if (!told) {
      options.onWait?.(left);
      told = true;
    }
    await sleep(Math.min(delay, left));
    delay = Math.min(delay * 2, LONGEST_DELAY_MS);
  }
}
