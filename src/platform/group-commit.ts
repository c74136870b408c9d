// Writes asked for close together, committed together: one transaction instead of one each. Both
// stores that payctl writes in bursts use it: the embedded sandbox's database (a bulk refund at
// --concurrency 8 arrives as eight changes at once) and the ledger (a bulk run's workers claiming
// and settling rows). A commit writes every page its writes touched; writes that arrive together
// share most of those pages, so committing them as a group writes each page once.

/**
 * What a commit hands back once its group is written (or failed): it tells each writer its answer.
 * It runs after the queue is free again, so a writer answered here that writes at once joins the
 * next group on that group's terms (its own wait), not on an immediate one.
 */
export type AnswerWriters = () => void;

export class GroupCommit<Write> {
  private queued: Write[] = [];
  private timer: { kind: 'immediate'; handle: NodeJS.Immediate } | { kind: 'timeout'; handle: NodeJS.Timeout } | undefined;
  private committing: Promise<void> | undefined;

  /**
   * `commit` writes a group, in the order asked, and must not throw: a group that fails answers
   * each of its writers with the failure. `maxGroup` bounds how long the first write of a group
   * waits for its answer; the rest are committed in the next turn of the event loop.
   */
  constructor(
    private readonly commit: (group: Write[]) => AnswerWriters | Promise<AnswerWriters>,
    private readonly maxGroup = Number.POSITIVE_INFINITY,
  ) {}

  /**
   * Queues `write`. It is committed in the next turn of the event loop with whatever else arrives
   * by then, or, for `waitMs` > 0, after waiting that long for company (unless a write that will
   * not wait comes first). While a group is being committed, new writes wait for the next one.
   */
  add(write: Write, waitMs = 0): void {
    this.queued.push(write);
    this.schedule(waitMs);
  }

  /** The writes not yet handed to a commit. */
  get waiting(): readonly Write[] {
    return this.queued;
  }

  /** Until nothing is queued or being committed. */
  async drain(): Promise<void> {
    while (this.committing || this.timer) {
      if (this.committing) await this.committing.catch(() => undefined);
      else await this.flush();
    }
  }

  private schedule(waitMs: number): void {
    if (this.committing) return; // committed when the group under way is done
    if (waitMs === 0) {
      if (this.timer?.kind === 'immediate') return;
      this.cancelTimer();
      this.timer = { kind: 'immediate', handle: setImmediate(() => void this.flush()) };
    } else if (!this.timer) {
      this.timer = { kind: 'timeout', handle: setTimeout(() => void this.flush(), waitMs) };
    }
  }

  private cancelTimer(): void {
    if (this.timer?.kind === 'immediate') clearImmediate(this.timer.handle);
    else if (this.timer) clearTimeout(this.timer.handle);
    this.timer = undefined;
  }

  private async flush(): Promise<void> {
    this.cancelTimer();
    const group = this.queued.splice(0, this.maxGroup);
    if (group.length === 0) return;
    let answer: AnswerWriters | undefined;
    this.committing = (async () => {
      answer = await this.commit(group);
    })();
    try {
      await this.committing;
    } finally {
      this.committing = undefined;
      if (this.queued.length > 0) this.schedule(0);
    }
    answer?.();
  }
}
