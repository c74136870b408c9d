// How many money tool calls one `payctl mcp` session may make: an agent in a loop (retrying, or
// refunding down a list) is stopped after a few, each refused with nothing run, and told when it
// may call again. Every call still goes through the ledger and the rules; this only bounds how
// fast an agent can ask. Reads are not counted.

/** At most this many money tool calls… */
export const MONEY_CALLS_PER_WINDOW = 10;
/** …in any minute (a sliding window). */
export const MONEY_CALL_WINDOW_MS = 60_000;

export type Slot = { ok: true } | { ok: false; retryInMs: number };

/** A sliding window of calls: `take` counts one now when the window has room, else says how long until it does. */
export class CallRate {
  private readonly calls: number[] = [];

  constructor(
    readonly max = MONEY_CALLS_PER_WINDOW,
    readonly windowMs = MONEY_CALL_WINDOW_MS,
    private readonly clock: () => number = Date.now,
  ) {}

  take(): Slot {
    const now = this.clock();
    while (this.calls.length > 0 && (this.calls[0] as number) <= now - this.windowMs) this.calls.shift();
    if (this.calls.length >= this.max) return { ok: false, retryInMs: (this.calls[0] as number) + this.windowMs - now };
    this.calls.push(now);
    return { ok: true };
  }
}

/** Why a call was refused, for the agent: what the bound is, and when to call again. */
export function rateRefusal(rate: Pick<CallRate, 'max' | 'windowMs'>, retryInMs: number): string {
  const seconds = Math.max(1, Math.ceil(retryInMs / 1000));
  return `too many money tool calls: at most ${rate.max} every ${rate.windowMs / 1000} s in one payctl mcp session; nothing was run. Call again in ${seconds} s`;
}
