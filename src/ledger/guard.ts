// The protocol every money-moving command follows, on top of the ledger:
//
//   1. hold the lock on what it moves (another process moving it: stop, exit 8, nothing sent);
//   2. resolve what earlier runs left unresolved on it (killed, or their answer lost): look until
//      it shows applied or its settle deadline has passed; a rerun of the same request that finds
//      its earlier self applied sends nothing;
//   3. write the intent, send, and resolve it from the answer: applied; refused (an error answer,
//      exit by status); not applied (the connection never opened, exit 8, "safe to run again");
//      or, when the answer is lost or is not what was asked for, look again until the deadline
//      and, failing proof, exit 9 with the intent left for the next run to resolve.
import { UncertainOutcomeError } from '../api/client.js';
import type { Context } from '../context.js';
import { noteWhileInFlight } from '../interrupt.js';
import { ApiError, CliError, ExitCode, InFlightError, OutcomeUnknownError, UsageError } from '../errors.js';
import type { Intent, Ledger, NewIntent } from './ledger.js';
import { settle, settleDeadlineForSend, settleWindowMs, type Settled } from './settle.js';

export interface GuardedMove<R> {
  /** What is locked: `transaction:<id>`, `reference:<id>`, `invoice:<id>`. */
  key: string;
  operation: string;
  target: string;
  /** The amount as the user asked for it (null: the default, all of it). */
  requestedCents: number | null;
  /** "the refund of transaction …": for messages. */
  what: string;
  /** The command that shows the resource, for messages that send the user to check. */
  checkCommand: string;
  /** The resource as it is now. */
  look(): Promise<R>;
  /** Does `now` show `intent` applied, compared with what it looked like before (intent.before)? */
  applied(intent: Intent, now: R): boolean;
}

export function when(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export class MoneyGuard {
  constructor(
    private readonly ctx: Context,
    readonly ledger: Ledger,
    /** The request timeout: settle windows are measured in it. */
    readonly timeoutMs: number,
  ) {}

  /** Runs `work` holding the lock on `key`; stops at once when another process holds it. */
  async hold<T>(key: string, what: string, advice: string, work: () => Promise<T>): Promise<T> {
    const claim = this.ledger.claim(key);
    if (!claim.ok) {
      throw new InFlightError(`${what} is already in flight in another payctl process (pid ${claim.holder.pid}, since ${when(claim.holder.since)}); nothing was sent. ${advice}`);
    }
    try {
      return await work();
    } finally {
      this.ledger.release(key);
    }
  }

  /**
   * The usual shape of a money-moving command: hold the lock, resolve what earlier runs left, then
   * either report that this same request already went through (`alreadyDone`) or do `work`.
   */
  async guarded<R>(move: GuardedMove<R>, alreadyDone: (repeat: { intent: Intent; now: R }) => Promise<void>, work: () => Promise<void>): Promise<void> {
    await this.hold(move.key, move.what, `Let it finish, then check with: ${move.checkCommand}`, async () => {
      const { repeat } = await this.resolveEarlier(move);
      await (repeat ? alreadyDone(repeat) : work());
    });
  }

  /** Settles one unresolved intent: looks until it shows applied or its deadline has passed. */
  async settleIntent<R>(intent: Intent, move: Pick<GuardedMove<R>, 'look' | 'applied' | 'what'>, quiet = false): Promise<Settled<R>> {
    const deadline = intent.settle_until ?? intent.created_at + this.timeoutMs + settleWindowMs(this.timeoutMs);
    const settled = await settle(deadline, () => move.look(), (now) => move.applied(intent, now), {
      maxWaitMs: this.timeoutMs + settleWindowMs(this.timeoutMs),
      // A batch has its progress bar for that: no line per row under it.
      ...(quiet ? {} : { onWait: (ms: number) => this.ctx.log.warn(`checking whether ${move.what} was applied (up to ${Math.ceil(ms / 1000)} s)…`) }),
    });
    if (settled.kind === 'applied') this.ledger.resolve(intent, 'applied', 'seen applied by a later lookup');
    else if (settled.kind === 'not_applied') this.ledger.resolve(intent, 'not_applied', `not seen applied by ${when(Date.now())}, past its settle deadline`);
    else this.ledger.resolve(intent, 'unknown', settled.error.message);
    return settled;
  }

  /**
   * Resolves every intent earlier runs left on `move.key`. Returns the resource as it is now when
   * one of them was this same request (same operation and amount asked) and went through: then
   * nothing is to be sent. Throws exit 9 when one still cannot be told.
   */
  async resolveEarlier<R>(move: GuardedMove<R>): Promise<{ repeat?: { intent: Intent; now: R } }> {
    let repeat: { intent: Intent; now: R } | undefined;
    for (const intent of this.ledger.unresolved(move.key)) {
      const earlier = intent.operation === move.operation ? move.what : `an earlier ${intent.operation} of ${intent.target}`;
      this.ctx.log.warn(`an earlier run (${when(intent.created_at)}, pid ${intent.pid}) left ${earlier} unresolved; checking it before sending anything`);
      const settled = await this.settleIntent(intent, { ...move, what: earlier });
      if (settled.kind === 'unknown') {
        throw new OutcomeUnknownError(
          `cannot tell whether ${earlier} (${when(intent.created_at)}) was applied (${settled.error.message}); nothing was sent. Check with: ${move.checkCommand}, then run the command again`,
          { cause: settled.error },
        );
      }
      if (settled.kind === 'applied' && intent.operation === move.operation && intent.requested_cents === move.requestedCents) repeat = { intent, now: settled.now };
      else if (settled.kind === 'applied') this.ctx.log.warn(`${earlier} was applied (${when(intent.created_at)})`);
    }
    return repeat ? { repeat } : {};
  }

  /**
   * Writes the intent, sends, and resolves the intent from what came back. On a lost or unusable
   * answer, looks until the settle deadline: `onLate` turns the resource, seen applied, into the
   * result; no proof either way is exit 9.
   */
  async send<A, R>(move: GuardedMove<R>, fields: Omit<NewIntent, 'key' | 'operation' | 'target' | 'requested_cents'>, request: () => Promise<A>, onLate: (now: R) => A): Promise<A> {
    const intent = this.ledger.record({
      key: move.key,
      operation: move.operation,
      target: move.target,
      requested_cents: move.requestedCents,
      settle_until: settleDeadlineForSend(this.timeoutMs),
      ...fields,
    });
    const note = `${move.what} was in flight: it may or may not have been applied. Run the same command again: it checks first and sends only if it did not go through`;
    return noteWhileInFlight(note, async () => {
      let answer: A;
      try {
        answer = await request();
      } catch (err) {
        return onLate(await this.afterFailure(move, intent, err));
      }
      this.ledger.resolve(intent, 'applied');
      return answer;
    });
  }

  /** An attempt failed: record what is proven and return the resource if it shows applied; else throw. */
  private async afterFailure<R>(move: GuardedMove<R>, intent: Intent, err: unknown): Promise<R> {
    if (err instanceof UncertainOutcomeError) {
      const window = settleWindowMs(this.timeoutMs, err.answered);
      this.ledger.setSettleUntil(intent, Date.now() + window);
      this.ctx.log.warn(`${err.message}; ${move.what} may or may not have been applied`);
      const settled = await this.settleIntent(intent, move);
      if (settled.kind === 'applied') {
        this.ctx.log.status(`${capitalize(move.what)} was applied (confirmed from the service).`);
        return settled.now;
      }
      // Not seen, but no proof it was refused: the next run looks again before sending.
      this.ledger.resolve(intent, 'unknown', err.message);
      const seen = settled.kind === 'not_applied' ? `no sign of it in the ${(window / 1000).toFixed(1)} s after` : `it could not be looked up: ${settled.error.message}`;
      throw new OutcomeUnknownError(
        `outcome unknown: ${move.what} may or may not have been applied (no usable answer, and ${seen}). Run the same command again: it checks first and sends only if this one did not go through. Or check with: ${move.checkCommand}`,
        { cause: err },
      );
    }
    if (err instanceof ApiError && err.details.httpStatus === 429) {
      this.ledger.resolve(intent, 'not_applied', err.message);
      throw err;
    }
    if (err instanceof ApiError && err.details.httpStatus >= 400 && err.details.httpStatus < 500) {
      this.ledger.resolve(intent, 'refused', err.message);
      throw err;
    }
    if (err instanceof UsageError) {
      // The client refuses a request it would not send (a body that fails its schema, a path it
      // cannot build) before anything leaves this machine.
      this.ledger.resolve(intent, 'not_applied', err.message);
      throw err;
    }
    if (err instanceof CliError && err.exitCode === ExitCode.network) {
      // The client raises a plain network error for a money-moving request only when it never
      // left this machine (connection refused, DNS): proof that nothing was applied.
      this.ledger.resolve(intent, 'not_applied', err.message);
      throw new CliError(`${err.message}; ${move.what} was not sent, so nothing was applied: it is safe to run the command again`, ExitCode.network, { cause: err });
    }
    // Anything else (an interruption, a bug): the intent stays pending for the next run to settle.
    throw err;
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
