// How fast a batch sends, and for how long it may wait in all.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The longest pause a 429 can impose on the whole batch, whatever its Retry-After says. */
export const MAX_PAUSE_MS = 60_000;

/** A batch's wait ran past --max-wait: it stops sending (rows not done are reported, a rerun resumes). */
export class BatchStopped extends Error {
  constructor(readonly why: string) {
    super(why);
    this.name = 'BatchStopped';
  }
}

/**
 * Everything a batch waits on rate limits and an unavailable service, counted once however many
 * workers wait at the same moment (the union of their waits), against --max-wait. A wait that
 * would run past it is refused instead (the batch stops), so no batch under a rate limit that
 * never lifts runs for hours.
 */
export class WaitBudget {
  private waited = 0;
  /** The end of the latest wait counted: overlapping waits are counted from here. */
  private countedUntil = 0;
  private stoppedWhy: string | undefined;

  constructor(readonly limitMs: number) {}

  get stopped(): string | undefined {
    return this.stoppedWhy;
  }

  get waitedMs(): number {
    return this.waited;
  }

  /** Counts a wait of `ms` from now; throws BatchStopped when the batch may not wait that long. */
  spend(ms: number, why: string): void {
    if (this.stoppedWhy) throw new BatchStopped(this.stoppedWhy);
    const start = Date.now();
    const end = start + Math.max(0, ms);
    const added = Math.max(0, end - Math.max(start, this.countedUntil));
    if (this.waited + added > this.limitMs) {
      this.stoppedWhy = `stopped at --max-wait: it has waited ${Math.round(this.waited / 1000)} s in all on ${why}, and would wait ${Math.ceil(ms / 1000)} s more (limit ${Math.round(this.limitMs / 1000)} s)`;
      throw new BatchStopped(this.stoppedWhy);
    }
    this.waited += added;
    this.countedUntil = Math.max(this.countedUntil, end);
  }

  /** Stops the batch for another reason (the ledger went away). */
  stop(why: string): void {
    this.stoppedWhy ??= why;
  }
}

/**
 * How many rows may be in flight: on a 429, halved (once for a burst of them) and everyone paused
 * for its Retry-After; grown back by one after each window of as many successes as the limit.
 * A worker waiting for a slot is woken the moment one is released: a slot left empty even for a
 * timer tick is a request the service could have been working on (polling every 5 ms left it
 * without work for a third of a batch's requests).
 */
export class Pace {
  private active = 0;
  private limit: number;
  private pauseUntil = 0;
  private successes = 0;
  private lastCut = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly max: number,
    private readonly budget?: WaitBudget,
  ) {
    this.limit = max;
  }

  async acquire(): Promise<void> {
    for (;;) {
      if (this.budget?.stopped) throw new BatchStopped(this.budget.stopped);
      const pause = this.pauseUntil - Date.now();
      if (pause > 0) {
        this.budget?.spend(pause, 'rate limits (HTTP 429)');
        await sleep(Math.min(pause, 50));
      }
      else if (this.active < this.limit) break;
      else await new Promise<void>((wake) => this.waiting.push(wake));
    }
    this.active += 1;
  }

  release(ok: boolean): void {
    this.active -= 1;
    this.waking(1);
    if (ok && ++this.successes >= this.limit && this.limit < this.max) {
      this.limit += 1;
      this.successes = 0;
      this.waking(1);
    }
  }

  /** Wakes as many waiting workers as slots were freed; each checks again, and waits again if another took it. */
  private waking(slots: number): void {
    for (let i = 0; i < slots; i += 1) this.waiting.shift()?.();
  }

  /** Wakes everyone (the batch stopped: they find out and leave). */
  wakeAll(): void {
    this.waking(this.waiting.length);
  }

  rateLimited = (retryAfterMs: number): void => {
    const now = Date.now();
    // Workers that were already in flight report the same burst: one cut for all of them.
    if (now - this.lastCut > 250) {
      this.limit = Math.max(1, Math.floor(this.limit / 2));
      this.successes = 0;
      this.lastCut = now;
    }
    this.pauseUntil = Math.max(this.pauseUntil, now + Math.min(Math.max(0, retryAfterMs), MAX_PAUSE_MS));
  };
}
