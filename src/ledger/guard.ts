// The protocol every money-moving command follows, on top of the ledger:
//
//   1. hold the lock on what it moves (another process moving it, on this machine or any other
//      sharing the ledger: stop, exit 8, nothing sent);
//   2. resolve what earlier runs left unresolved on it (killed, or their answer lost): look until
//      it shows applied or its settle window has closed, waiting for the window with a countdown
//      (--no-wait: exit 9 at once, naming when to come back); a rerun of the same request that
//      finds its earlier self applied sends nothing;
//   3. the command checks what the resource still allows (a move it cannot make: exit 6, naming
//      what is left, never --again), then what the ledger and the resource say was already done
//      (exit 11 for a probable duplicate the resource still allows, unless --again);
//   4. write the intent, send, and resolve it from the answer: applied, when the answer is the
//      object asked for with the change asked for; refused (an error answer, exit by status); not
//      applied (the connection never opened, exit 8); or, when the answer is lost or is not what
//      was asked for, look again, for a while: only a change that identifies this move counts
//      (a void of exactly its amount, new since it was sent, that no other intent has claimed),
//      and failing proof the intent is kept for the next run (exit 9, naming until when the
//      request could still land).
import { UncertainOutcomeError } from '../api/client.js';
import { noteWhileInFlight } from '../platform/interrupt.js';
import { ApiError, CliError, ExitCode, InFlightError, OutcomeUnknownError, UsageError } from '../errors.js';
import { LedgerFileError } from './errors.js';
import type { Ledger } from './ledger.js';
import { ownWaitMs, settle, settleUntil, type Proof, type Settled } from './settle.js';
import { localDateTime } from '../time/zone.js';
import { UNRESOLVED, type Intent, type Lock, type NewIntent } from './types.js';

/** A lookup that fails right at the end of a window is tried again for this long. */
const LOOKUP_GRACE_MS = 10_000;

/** What a guarded move moves: what is locked, what its intent is named, the words of its messages. */
export interface MoveTarget {
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
}

/** How a move is seen to have landed when its answer is lost: by looking at the resource again. */
export interface MoveLookup<R> {
  /** The resource as it is now. */
  look(): Promise<R>;
  /**
   * Whether `now` shows `intent` applied in a way that identifies it, compared with what the
   * resource looked like before (intent.before); `others` are the other intents on the key, whose
   * proofs are not this one's.
   */
  proves(intent: Intent, now: R, others: Intent[]): Proof;
}

/** A move the ledger can settle: what it moves, and how to look for it. */
export type GuardedMove<R> = MoveTarget & MoveLookup<R>;

/** How a move is proven to have landed: its direct answer checked, or the resource looked at again. */
export interface MoveProof<R, A> extends MoveLookup<R> {
  /** Whether a direct answer is the move asked for (another object, the wrong change: a mismatch, then a lookup). */
  answered(intent: Intent, answer: A, others: Intent[]): AnswerCheck;
  /** The resource, seen applied by a lookup, as the answer the report shows. */
  seen(now: R): A;
}

/**
 * A prepared move as the team's rules judge it and an approver reads it (src/ledger/policy/gate.ts):
 * everything needed to record it as a request and to send exactly it later.
 */
export interface AskedMove {
  /** The body sent (null when the request has none): its digest ties an approval to exactly this move. */
  body: unknown;
  /** The concrete amount it moves (all that remains, once the sale is read), or null when it has none. */
  amountCents: number | null;
  currency: string;
  /** The move as a person reads it: `Refund R$ 600,00 of transaction … (Visa ••••1111, Maria Silva)` (read only for a request: it may ask the service a name). */
  summary(): Promise<string>;
  /** The command words that send exactly this move (`transactions refund <id> --amount-cents 60000`), or null when none can. */
  replay: string[] | null;
}

/** What is sent, decided once the earlier moves are settled: the request, and what its intent keeps. */
export interface Sending<A> {
  /** What the intent keeps beside what is moved: the amount sent, what the resource was before. */
  record: Omit<NewIntent, 'key' | 'operation' | 'target' | 'requested_cents'>;
  /** What the team's rules judge, and an approval request keeps. */
  asked: AskedMove;
  request(): Promise<A>;
}

/** Where a move comes from when it is one row of a bulk run: its request is filed under the batch. */
export interface BatchRow {
  batch: string;
  batch_name: string;
  row: number;
}

/**
 * The team's rules, between a prepared move and its intent (src/ledger/policy/gate.ts). The guard
 * knows nothing of rules: it hands the gate the move and how to write its intent.
 */
export interface MoveGate {
  /**
   * Writes the move's intent through `record` when the rules let it go (under whatever lock a daily
   * limit needs, so the sum and the intent are one step) and returns it; else throws, nothing
   * written: a request for approval recorded (exit 13), a block or a limit (exit 4), an approved
   * request that is not this move.
   */
  admit(what: MoveTarget, asked: AskedMove, record: () => Promise<Intent>, row?: BatchRow): Promise<Intent>;
  /** Whether any rule is about moves of this (intent) operation by this actor: a batch then judges every row. */
  judges(operation: string): Promise<boolean>;
  /** How the admitted move ended: applied (the answer, or a lookup), or an error (its intent says whether anything moved). */
  finished(intent: Intent, error?: unknown): Promise<void>;
  /** An earlier run's same move, found applied: nothing is sent (an approved request that run sent is settled by it). */
  repeated(intent: Intent): Promise<void>;
}

/**
 * One money move under the protocol, in named parts: what to move, how to send it, how to prove
 * it landed, how to report. `MoneyGuard.run` does the rest, in the protocol's order.
 */
export interface Move<R, A, S extends Sending<A> = Sending<A>> {
  what: MoveTarget;
  proof: MoveProof<R, A>;
  send: {
    /**
     * What to send, from the resource as it is now and the earlier moves on it (`memory`), after
     * asking whoever must be asked; undefined when there is nothing to send (having said why).
     * `repeat`: an earlier run's same request, seen applied, when the report has no `repeated`.
     */
    prepare(memory: Intent[], repeat?: Repeat<R>): Promise<S | undefined>;
  };
  report: {
    /** This same request was applied by an earlier run whose answer was lost: nothing is sent. Absent: `prepare` decides. */
    repeated?(repeat: Repeat<R>): Promise<void>;
    /** What the service answered (or what a lookup found applied), with what was sent. */
    done(answer: A, sent: S): Promise<void>;
  };
}

/** An earlier run's same request (operation and amount asked), seen applied. */
export interface Repeat<R> {
  intent: Intent;
  now: R;
}

/** What a direct answer says: the move asked for, or something else (another object, the wrong change). */
export type AnswerCheck = { kind: 'applied'; proof: string | null } | { kind: 'mismatch'; why: string };

export interface GuardSettings {
  timeoutMs: number;
  /** How long after a send a lost request may still land (settle_window). */
  windowMs: number;
  /** --no-wait: an earlier move still within its window is exit 9 at once instead of a wait. */
  noWait: boolean;
}

export interface GuardDeps {
  ledger: Ledger;
  settings: GuardSettings;
  log: { status(message: string): void; warn(message: string): void };
  /** Shows a wait until `until` (this machine's clock): a countdown on a terminal. Returns its end. */
  waiting(what: string, until: number): () => void;
  /** The team's rules; without one, every move goes as asked. */
  gate?: MoveGate;
}

export function describeHolder(lock: Lock, ledger: Ledger): string {
  return `${lock.holder}, pid ${lock.pid}, since ${localDateTime(ledger.local(lock.since))}`;
}

/** Who wrote an intent and when: `2026-11-28 17:57:03 UTC−03:00, ana@caixa-2, pid 4242`. */
export function describeOrigin(intent: Intent, ledger: Ledger): string {
  return `${localDateTime(ledger.local(intent.created_at))}, ${intent.holder}, pid ${intent.pid}`;
}

const others = (memory: Intent[], intent: Intent) => memory.filter((i) => i.id !== intent.id);

export class MoneyGuard {
  constructor(private readonly deps: GuardDeps) {}

  get ledger(): Ledger {
    return this.deps.ledger;
  }

  get settings(): GuardSettings {
    return this.deps.settings;
  }

  /** The team's rules, for a bulk run that writes its rows' intents itself. */
  get gate(): MoveGate | undefined {
    return this.deps.gate;
  }

  /** When a request sent now could no longer land. */
  settleUntilFromNow(): number {
    return settleUntil(this.ledger.now(), this.settings.windowMs, this.settings.timeoutMs);
  }

  /**
   * How long a run looks for its own lost answer: ownWaitMs, or, when its window closes within
   * that, to the window's end (and a little past it, should the last lookups fail): then it can
   * tell, rather than leave the next run to.
   */
  ownWaitUntil(deadline: number): number {
    const bound = this.ledger.now() + ownWaitMs(this.settings.timeoutMs);
    return deadline <= bound ? deadline + LOOKUP_GRACE_MS : bound;
  }

  /** The message of a lock another process holds. */
  inFlight(what: string, holder: Lock, advice: string): InFlightError {
    const elsewhere = holder.host_id !== this.ledger.me.host_id;
    const lease = elsewhere
      ? ` Its lock is a lease until ${localDateTime(this.ledger.local(holder.expires_at))}: if that machine is gone, the lock frees itself then (or 'payctl ledger unlock ${holder.key} --force' now).`
      : '';
    return new InFlightError(`${what} is already in flight in another payctl process (${describeHolder(holder, this.ledger)}); nothing was sent. ${advice}${lease}`);
  }

  /** Runs `work` holding the lock on `key`, with every intent on it; stops at once when another process holds it. */
  async hold<T>(key: string, what: string, advice: string, work: (memory: Intent[]) => Promise<T>): Promise<T> {
    const claim = await this.ledger.claim(key).catch((err: unknown) => {
      // The lock is taken before anything is sent: a ledger that cannot take it means nothing left.
      throw err instanceof LedgerFileError ? err.saying(`${what} was not sent`) : err;
    });
    if (!claim.ok) throw this.inFlight(what, claim.holder, advice);
    try {
      return await work(claim.memory);
    } finally {
      await this.ledger.release(key).catch(() => undefined);
    }
  }

  /**
   * The usual shape of a money-moving command: hold the lock, resolve what earlier runs left, then
   * either report that this same request already went through, or prepare, send and report.
   */
  async run<R, A, S extends Sending<A> = Sending<A>>(move: Move<R, A, S>): Promise<void> {
    const guarded: GuardedMove<R> = { ...move.what, look: move.proof.look, proves: move.proof.proves };
    await this.hold(guarded.key, guarded.what, `Let it finish, then check with: ${guarded.checkCommand}`, async (memory) => {
      const { repeat } = await this.resolveEarlier(guarded, memory);
      if (repeat && move.report.repeated) {
        await this.deps.gate?.repeated(repeat.intent);
        return move.report.repeated(repeat);
      }
      const sending = await move.send.prepare(memory, repeat);
      if (sending === undefined) return;
      await move.report.done(await this.send(move, memory, sending), sending);
    });
  }

  /**
   * Resolves every intent earlier runs left on `move.key`. Returns the resource as it is now when
   * one of them was this same request (same operation and amount asked) and went through: then
   * nothing is to be sent. Throws exit 9 when one still cannot be told (or, with --no-wait, is
   * still within its window).
   */
  async resolveEarlier<R>(move: GuardedMove<R>, memory: Intent[], quiet = false): Promise<{ repeat?: Repeat<R> }> {
    let repeat: Repeat<R> | undefined;
    for (const intent of memory.filter((i) => UNRESOLVED.includes(i.state))) {
      const earlier = intent.operation === move.operation ? move.what : `an earlier ${intent.operation} of ${intent.target}`;
      if (!quiet) this.deps.log.warn(`an earlier run (${describeOrigin(intent, this.ledger)}) left ${earlier} unresolved; checking it before sending anything`);
      const settled = await this.settleEarlier(intent, move, memory, earlier, quiet);
      if (settled.kind === 'applied' && intent.operation === move.operation && intent.requested_cents === move.requestedCents) repeat = { intent, now: settled.now };
      else if (settled.kind === 'applied' && !quiet) this.deps.log.warn(`${earlier} was applied (${describeOrigin(intent, this.ledger)})`);
    }
    return repeat ? { repeat } : {};
  }

  /**
   * Settles an intent an earlier run left: waits (a countdown on a terminal) until it shows
   * applied or its window has closed; records what was found. Throws exit 9 when it cannot be told.
   */
  async settleEarlier<R>(intent: Intent, move: Pick<GuardedMove<R>, 'look' | 'proves' | 'checkCommand'>, memory: Intent[], earlier: string, quiet = false): Promise<Settled<R>> {
    const deadline = intent.settle_until ?? intent.created_at + this.settings.windowMs;
    const open = this.ledger.now() < deadline;
    const waitUntil = this.settings.noWait && open ? this.ledger.now() : deadline + LOOKUP_GRACE_MS;
    const sent = `${earlier} (sent ${localDateTime(this.ledger.local(intent.created_at))} by ${intent.holder})`;
    // Interrupted while waiting: this run sent nothing, and the earlier move may still land.
    const note = `nothing was sent; ${sent} could still land until ${localDateTime(this.ledger.local(deadline))}. Run the same command again to wait for it`;
    const settled = await noteWhileInFlight(note, () => this.lookFor(intent, move, memory, deadline, waitUntil, quiet ? undefined : sent));
    if (settled.kind === 'open' && this.settings.noWait) {
      throw new OutcomeUnknownError(
        `${sent} is not seen applied yet and could still land until ${localDateTime(this.ledger.local(deadline))}; nothing was sent. Run the same command again after ${localDateTime(this.ledger.local(deadline))}, or without --no-wait to wait for it`,
      );
    }
    if (settled.kind !== 'applied' && settled.kind !== 'not_applied') {
      const why = settled.kind === 'unknown' ? settled.error.message : settled.kind === 'ambiguous' || settled.kind === 'open' ? (settled.why ?? 'not seen yet') : '';
      throw new OutcomeUnknownError(`cannot tell whether ${earlier} (${describeOrigin(intent, this.ledger)}) was applied (${why}); nothing was sent. Check with: ${move.checkCommand}, then run the command again`, {
        cause: settled.kind === 'unknown' ? settled.error : undefined,
      });
    }
    return settled;
  }

  /**
   * Looks until proof, the deadline, or `waitUntil` (ledger clock); records what it found
   * (applied, not applied, or still unknown). `label`: shown as a countdown while it waits.
   */
  async lookFor<R>(intent: Intent, move: Pick<GuardedMove<R>, 'look' | 'proves'>, memory: Intent[], deadline: number, waitUntil: number, label: string | undefined): Promise<Settled<R>> {
    let stop: (() => void) | undefined;
    try {
      const settled = await settle(deadline, () => move.look(), (now) => move.proves(intent, now, others(memory, intent)), {
        waitUntil,
        clock: () => this.ledger.now(),
        ...(label ? { onWait: (until: number) => (stop = this.deps.waiting(`waiting for ${label} to show`, this.ledger.local(until))) } : {}),
      });
      if (settled.kind === 'applied') await this.ledger.resolve(intent, 'applied', 'seen applied by a later lookup', settled.proof);
      else if (settled.kind === 'not_applied') await this.ledger.resolve(intent, 'not_applied', `not seen applied by ${localDateTime(this.ledger.local(deadline))}, the end of its settle window`);
      else await this.ledger.resolve(intent, 'unknown', settled.kind === 'unknown' ? settled.error.message : (settled.kind === 'open' ? settled.why : settled.why) ?? 'not seen yet');
      return settled;
    } finally {
      stop?.();
    }
  }

  /**
   * Writes the intent, sends, and resolves the intent from what came back. A direct answer counts
   * only if the proof finds the move asked for in it. On a lost or unusable answer, looks for a
   * while: the resource, seen applied, stands for the answer; no proof is exit 9.
   */
  async send<R, A>(move: { what: MoveTarget; proof: MoveProof<R, A> }, memory: Intent[], sending: Sending<A>): Promise<A> {
    const { what, proof } = move;
    const guarded: GuardedMove<R> = { ...what, look: proof.look, proves: proof.proves };
    this.ledger.assertLeased();
    const record = () =>
      this.ledger.record({
        key: what.key,
        operation: what.operation,
        target: what.target,
        requested_cents: what.requestedCents,
        settle_until: this.settleUntilFromNow(),
        ...sending.record,
      });
    let intent: Intent;
    try {
      intent = await (this.deps.gate ? this.deps.gate.admit(what, sending.asked, record) : record());
    } catch (err) {
      // Written before anything is sent: a ledger that cannot take it means nothing left.
      throw err instanceof LedgerFileError ? err.saying(`${what.what} was not sent`) : err;
    }
    memory.push(intent);
    const gate = this.deps.gate;
    if (!gate) return this.sendRecorded(guarded, proof, memory, sending, intent);
    let answer: A;
    try {
      answer = await this.sendRecorded(guarded, proof, memory, sending, intent);
    } catch (err) {
      // The send's own failure is what the user must see, whatever becomes of the request's record.
      await gate.finished(intent, err).catch(() => undefined);
      throw err;
    }
    await gate.finished(intent).catch((err: unknown) => this.deps.log.warn(`${what.what} was applied, but its approval request could not be marked sent (${err instanceof Error ? err.message : String(err)})`));
    return answer;
  }

  /** Sends a recorded intent's request and resolves the intent from what came back. */
  private sendRecorded<R, A>(guarded: GuardedMove<R>, proof: MoveProof<R, A>, memory: Intent[], sending: Sending<A>, intent: Intent): Promise<A> {
    const what = guarded;
    const note = `${what.what} was in flight: it may or may not have been applied. Run the same command again: it checks first and sends only if it did not go through`;
    return noteWhileInFlight(note, async () => {
      let answer: A;
      try {
        answer = await sending.request();
      } catch (err) {
        return proof.seen(await this.afterFailure(guarded, intent, memory, err));
      }
      const checked = proof.answered(intent, answer, others(memory, intent));
      if (checked.kind === 'applied') {
        await this.ledger.resolve(intent, 'applied', null, checked.proof).catch((err: unknown) => {
          throw err instanceof LedgerFileError
            ? err.saying(`${what.what} was applied (the service answered), but this could not be recorded: its intent stays pending, and the next money move on it finds it done before sending anything`)
            : err;
        });
        return answer;
      }
      const odd = new UncertainOutcomeError(`the service answered, but not with ${what.what}: ${checked.why}`, { answered: true });
      return proof.seen(await this.afterFailure(guarded, intent, memory, odd));
    });
  }

  /** An attempt failed: record what is proven and return the resource if it shows applied; else throw. */
  private async afterFailure<R>(move: GuardedMove<R>, intent: Intent, memory: Intent[], err: unknown): Promise<R> {
    if (err instanceof UncertainOutcomeError) {
      const deadline = intent.settle_until ?? this.settleUntilFromNow();
      const waitUntil = this.ownWaitUntil(deadline);
      this.deps.log.warn(`${err.message}; ${move.what} may or may not have been applied`);
      const settled = await this.lookFor(intent, move, memory, deadline, waitUntil, move.what);
      const until = localDateTime(this.ledger.local(deadline));
      switch (settled.kind) {
        case 'applied':
          this.deps.log.status(`${capitalize(move.what)} was applied (confirmed from the service${settled.proof ? `: ${settled.proof}` : ''}).`);
          return settled.now;
        case 'not_applied':
          throw new CliError(
            `${move.what} was not applied: not seen in the service by ${until}, the end of its settle window, so it can no longer land; nothing moved. Run the same command again to send it again`,
            ExitCode.network,
            { cause: err },
          );
        default: {
          const seen =
            settled.kind === 'unknown' ? `it could not be looked up: ${settled.error.message}` : settled.why ? `what the service shows cannot be told apart: ${settled.why}` : 'not seen in the service yet';
          throw new OutcomeUnknownError(
            `outcome unknown: ${move.what} may or may not have been applied (no usable answer, and ${seen}); it could still land until ${until}. Run the same command again: it waits until then and sends only if this one did not go through (--no-wait checks without waiting). Or check with: ${move.checkCommand}`,
            { cause: err },
          );
        }
      }
    }
    if (err instanceof ApiError && err.details.httpStatus === 429) {
      await this.ledger.resolve(intent, 'not_applied', err.message);
      throw err;
    }
    if (err instanceof ApiError && err.details.httpStatus >= 400 && err.details.httpStatus < 500) {
      await this.ledger.resolve(intent, 'refused', err.message);
      throw err;
    }
    if (err instanceof UsageError) {
      // The client refuses a request it would not send (a body that fails its schema, a path it
      // cannot build) before anything leaves this machine.
      await this.ledger.resolve(intent, 'not_applied', err.message);
      throw err;
    }
    if (err instanceof CliError && err.exitCode === ExitCode.network) {
      // The client raises a plain network error for a money-moving request only when it never
      // left this machine (connection refused, DNS): proof that nothing was applied.
      await this.ledger.resolve(intent, 'not_applied', err.message);
      throw new CliError(`${err.message}; ${move.what} was not sent, so nothing was applied: it is safe to run the command again`, ExitCode.network, { cause: err });
    }
    // Anything else (an interruption, a bug): the intent stays pending for the next run to settle.
    throw err;
  }
}

/** Applied moves of `operation` on a key that this hold did not make: what a duplicate check reads. */
export function appliedEarlier(memory: Intent[], operation: string, exclude: ReadonlySet<number> = new Set()): Intent[] {
  return memory.filter((i) => i.state === 'applied' && i.operation === operation && !exclude.has(i.id));
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
