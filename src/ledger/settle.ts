// After a money-moving request whose answer was lost, how long to keep looking before deciding.
//
// A request that timed out or whose connection dropped may still sit in a queue on the service's
// side and be applied later; a single lookup right after giving up would see nothing and wrongly
// call it "not applied". How long it may sit there has nothing to do with how long the client was
// willing to wait for an answer, so the window is a setting of its own (settle_window, default
// 120 s), measured from the send: until then only proof that it was applied counts, and "not
// applied" can only be concluded from a lookup made once the window is over.

/**
 * How long a run keeps looking for its own lost answer before it stops with exit 9 (or its window,
 * if shorter): four request timeouts, from 2 s to 30 s. A short --timeout only makes the run give
 * up sooner, which is safe: the rerun its message advises waits out the rest of the window.
 */
export function ownWaitMs(timeoutMs: number): number {
  return Math.min(30_000, Math.max(2000, 4 * timeoutMs));
}

/** When a request sent at `sentAt` can no longer land: the window, and never before its own timeout. */
export function settleUntil(sentAt: number, windowMs: number, timeoutMs: number): number {
  return sentAt + Math.max(windowMs, timeoutMs);
}

/** What a lookup says of one intent. */
export type Proof =
  /** Seen, and identified: `proof` names what in the service it was (a history entry, a transaction). */
  | { kind: 'applied'; proof: string | null }
  | { kind: 'not_seen' }
  /** Something like it is there, but it cannot be told apart from another move (another operator's, another intent's). */
  | { kind: 'ambiguous'; why: string };

export type Settled<T> =
  | { kind: 'applied'; now: T; proof: string | null }
  /** Not seen in a lookup made once its window was over: it did not happen and can no longer land. */
  | { kind: 'not_applied'; now: T }
  /** Not seen yet, and its window is still open: this wait stopped before it could tell. */
  | { kind: 'open'; now: T; why?: string }
  /** Its window is over and what is there still cannot be told apart. */
  | { kind: 'ambiguous'; now: T; why: string }
  /** The last lookups failed: nothing can be said. */
  | { kind: 'unknown'; error: Error };

export interface SettleOptions {
  /** Stop waiting at this time (ledger clock) even if the deadline is later: the answer is then `open`. */
  waitUntil: number;
  /** The ledger's clock. */
  clock: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Told once, before the first wait, until when (ledger clock) this wait may last. */
  onWait?: (until: number) => void;
}

const FIRST_DELAY_MS = 250;
const LONGEST_DELAY_MS = 4000;

/**
 * Looks with `look` until `judge` proves the move applied, or until `deadline` (ledger clock) has
 * passed and a lookup made at or after it still does not: then it did not happen. Waits no longer
 * than `waitUntil`.
 */
export async function settle<T>(deadline: number, look: () => Promise<T>, judge: (now: T) => Proof, options: SettleOptions): Promise<Settled<T>> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const until = Math.min(deadline, options.waitUntil);
  let delay = FIRST_DELAY_MS;
  let told = false;
  for (;;) {
    let outcome: Settled<T>;
    const lookedAt = options.clock();
    try {
      const now = await look();
      const proof = judge(now);
      if (proof.kind === 'applied') return { kind: 'applied', now, proof: proof.proof };
      if (lookedAt >= deadline) return proof.kind === 'ambiguous' ? { kind: 'ambiguous', now, why: proof.why } : { kind: 'not_applied', now };
      outcome = proof.kind === 'ambiguous' ? { kind: 'open', now, why: proof.why } : { kind: 'open', now };
    } catch (err) {
      outcome = { kind: 'unknown', error: err instanceof Error ? err : new Error(String(err)) };
    }
    const at = options.clock();
    if (at >= options.waitUntil) return outcome;
    // Until the deadline (its last lookup made at the deadline itself, never just before it); past
    // it, only failed lookups are tried again, while the wait's bound allows.
    const left = (outcome.kind === 'unknown' ? options.waitUntil : until) - at;
    if (!told && left > 0) {
      options.onWait?.(until);
      told = true;
    }
    await sleep(Math.max(0, Math.min(delay, left)));
    delay = Math.min(delay * 2, LONGEST_DELAY_MS);
  }
}
