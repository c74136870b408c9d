import { basename } from 'node:path';
import { randomUUID } from 'node:crypto';
import { UncertainOutcomeError, type ApiClient } from '../../../api/client.js';
import type { Factory } from '../../../factory.js';
import { SHORT_RUN_ITEMS } from '../../../output/printer.js';
import { ApiError, ApprovalPendingError, CliError, ExitCode, InFlightError, OutcomeUnknownError, PolicyRefusedError, UsageError } from '../../../errors.js';
import type { ApprovalRequest } from '../../../ledger/policy/types.js';
import { LeaseLostError, LedgerFileError, LedgerLostError, LedgerUnreachableError } from '../../../ledger/errors.js';
import { localDateTime } from '../../../time/zone.js';
import type { MoneyGuard } from '../../../ledger/guard.js';
import { clockTime } from '../../../ledger/time.js';
import { UNRESOLVED, type Intent, type NewIntent } from '../../../ledger/types.js';
import { noteWhileInFlight } from '../../../platform/interrupt.js';
import { formatMoney } from '../../../output/format.js';
import { counted, formatCount, noun } from '../../../platform/plural.js';
import { sanitize } from '../../../output/sanitize.js';
import { lineBatcher, writeOut } from '../../../output/write.js';
import { centsToDecimalString, decimalStringToCents } from '../../../validate/index.js';
import type { MoneyMoveFlags } from '../../shared/again.js';
import { optionalString } from '../../shared/input.js';
import { describePayer, type Transaction } from '../shared.js';
import { checkMoveAnswer, describeEarlier, earlierDetail, earlierMoves, earlierTotal, snapshotOf, transactionMoveProof, type EarlierMove, type Snapshot } from '../applied.js';
import { beyondWhatIsLeft } from '../left-to-refund.js';
import { FailedRowsFile, failedRowsPath } from './failed-rows.js';
import { readBatchFlags } from './flags.js';
import { refundRows, type RefundRow } from './input.js';
import { MAX_BATCH_ROWS, RowIndex } from './row-index.js';
import { openBulkSource, type BulkSource } from './source.js';
import { BatchStopped, Pace, WaitBudget } from './pace.js';
import type { OptionsOf } from '../../verb.js';
import type { refund } from '../flags.js';

type RefundOptions = OptionsOf<typeof refund>;

// `transactions refund --file`: many refunds, each exactly once, however the run is interrupted,
// however many runs there are, on however many machines sharing the ledger, and however the file
// was edited in between. Rows go to a pool of workers whose requests (--concurrency at once) slow
// down together when the service answers 429. Each row holds its transaction's lock in the ledger
// while it works, and first reads what is known of that sale: a move another run left unresolved
// is settled (waiting for its window); then what the sale still allows, and a refund payctl already
// made of it (any command, batch, profile or machine) or one in the sale's own history, decide
// (RowRunner.decide): all that remains is refunded whatever was done before, an amount refunded
// before skips the row and a larger one holds it, unless --again. Only then is the row's intent
// written, the refund sent and the intent resolved; a lost answer is settled by looking for a void
// that identifies it, never by sending again.

export interface RowResult {
  row: number;
  id: string | null;
  /**
   * held: asks more than was refunded of its sale before; not sent, and --again would send it.
   * waiting_approval: a rule of the team's policy sent it to a person; recorded as `request`, not sent.
   */
  status: 'refunded' | 'skipped' | 'held' | 'waiting_approval' | 'failed' | 'invalid';
  /** The approval request of a row waiting for one. */
  request?: string;
  refunded_amount: string | null;
  error: string | null;
  /** Why a row was skipped: what was refunded before, and by whom. */
  reason?: string;
  /** For scripts, of a skipped or held row: the latest earlier refund of the sale. */
  earlier?: { amount: string | null; at: string | null; by: 'payctl' | 'history'; holder: string | null; batch: string | null };
}

type Row = RefundRow & { id: string };

/** Why a row was skipped on a sale refunded before that has nothing left. */
const FULLY_REFUNDED = 'already fully refunded';

const money = (cents: number) => formatMoney(centsToDecimalString(cents));

/** The latest of the earlier refunds, as a result line gives it to scripts. */
function earlierOf(earlier: EarlierMove[]): RowResult['earlier'] {
  const last = earlier.at(-1) as EarlierMove;
  return {
    amount: last.cents !== null && last.cents >= 0 ? centsToDecimalString(last.cents) : null,
    at: last.at > 0 ? new Date(last.at).toISOString() : null,
    by: last.intent ? 'payctl' : 'history',
    holder: last.intent?.holder ?? null,
    batch: last.intent?.batch_name ?? null,
  };
}

/** A row whose transaction another run is moving right now: taken up again later. */
const DEFERRED = Symbol('deferred');
/**
 * A row whose answer was lost and whose refund could still land: its worker moves on, and the row
 * is taken up again once the other rows are done, when what is left of its window is waited out.
 */
const PARKED = Symbol('parked');
type Handed = typeof DEFERRED | typeof PARKED;

const MAX_SENDS = 6;
/** How many times a row whose answer was lost is taken up again at the end of the batch (its window waited out each time). */
const MAX_PARKS = 3;
const MAX_LOOKUPS = 6;
/** Rows in progress per request slot: the others wait out lost answers without holding a slot. */
const ROWS_PER_SLOT = 4;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const keyOf = (id: string) => `transaction:${id}`;
/** The ledger itself failing (unreachable, its leases lost, its file full or damaged): the batch stops. */
const ledgerTrouble = (err: unknown): boolean => err instanceof LedgerUnreachableError || err instanceof LeaseLostError || err instanceof LedgerFileError;

interface BatchRun {
  /** This run's own id: its intents are not "earlier" to its own later rows. */
  id: string;
  /** The input's name, for people reading the ledger. */
  name: string;
}

class RowRunner {
  /** The first trouble with the ledger: the batch stops, and the command exits with it. */
  ledgerError: CliError | undefined;
  /** Whether the team's rules are about this actor's refunds: every row is judged before its intent is written. */
  gated = false;
  /** Rows skipped as refunded before that the sale would still allow: --again refunds them. */
  repeatable = 0;
  /** How often each row was parked (PARKED): past MAX_PARKS, an open outcome is the row's result. */
  private readonly parked = new Map<number, number>();

  constructor(
    private readonly api: ApiClient,
    private readonly guard: MoneyGuard,
    private readonly pace: Pace,
    private readonly budget: WaitBudget,
    private readonly batch: BatchRun,
    private readonly sellerFallback: string | undefined,
    private readonly flags: MoneyMoveFlags,
  ) {}

  private get ledger() {
    return this.guard.ledger;
  }

  /** One request, counted against the pace: waits (settling, backing off) hold no slot. */
  private async net<T>(work: () => Promise<T>): Promise<T> {
    await this.pace.acquire();
    let ok = false;
    try {
      const result = await work();
      ok = true;
      return result;
    } finally {
      this.pace.release(ok);
    }
  }

  /** GET with patience: a lookup that fails is tried again, since what happened must be known. */
  private async lookup(id: string): Promise<Transaction> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.net(() => this.api.call('transactions.get', { params: { id } }));
      } catch (err) {
        if (err instanceof ApiError && err.exitCode !== ExitCode.network && err.exitCode !== ExitCode.rateLimited) throw err;
        if (err instanceof BatchStopped || attempt >= MAX_LOOKUPS) throw err;
        this.budget.spend(100 * attempt, 'an unavailable service');
        await sleep(100 * attempt);
      }
    }
  }

  private newIntent(row: Row, cents: number, before: Snapshot): NewIntent {
    return {
      key: keyOf(row.id),
      operation: 'transactions.void',
      target: row.id,
      requested_cents: row.cents ?? null,
      amount_cents: cents,
      before: JSON.stringify(before),
      batch: this.batch.id,
      batch_name: this.batch.name,
      row: row.row,
      settle_until: this.guard.settleUntilFromNow(),
    };
  }

  /**
   * A row that carries its transaction (NDJSON from a list), on a sale the ledger knows nothing
   * of and whose history shows no refund: its intent is written in the same commit as its lock.
   * Every other row is looked at first (runHeld).
   */
  private decideFromSnapshot(row: Row): ((memory: Intent[]) => NewIntent | undefined) | undefined {
    const snapshot = row.snapshot;
    // A row the team's rules judge has its intent written by the gate, never with its lock.
    if (this.gated || !snapshot || (row.occurrence ?? 1) > 1 || (snapshot.history ?? []).some((h) => h.operation_type === 'void')) return undefined;
    const left = decimalStringToCents(snapshot.amount || '0');
    const cents = row.cents ?? left;
    const seller = snapshot.on_behalf_of ?? this.sellerFallback;
    // More than the sale has left is refused by runHeld, naming what is left.
    if (cents <= 0 || cents > left || !seller) return undefined;
    return (memory) => (memory.length === 0 ? this.newIntent(row, cents, { ...snapshotOf(snapshot), on_behalf_of: seller }) : undefined);
  }

  /**
   * Waits for a transaction another process (or another row of this batch) is moving, as long as
   * such a move may take; or, unless `wait`, does not wait at all (the row is taken up later).
   */
  private async claim(row: Row, wait: boolean) {
    const until = Date.now() + (wait ? this.guard.settings.windowMs + this.guard.settings.timeoutMs + this.ledger.leaseMs : 0);
    for (;;) {
      // Committed (with other rows' claims) before this resolves, so before anything is sent.
      const claim = await this.ledger.claim(keyOf(row.id), this.decideFromSnapshot(row));
      if (claim.ok || Date.now() >= until || this.budget.stopped) return claim;
      await sleep(200);
    }
  }

  /**
   * One row. Unless `wait`, a row whose transaction another run holds is not waited for: it is
   * handed back (DEFERRED) to be taken up once the other rows are done, so two runs of one file
   * (two machines, an overlapping cron job) share its rows instead of queueing behind each other.
   */
  async run(input: RefundRow, wait = true): Promise<RowResult | Handed> {
    if (input.error || !input.id) return { row: input.row, id: input.id ?? (input.cells?.id || null), status: 'invalid', refunded_amount: null, error: input.error ?? 'no id' };
    const row = input as Row;
    if (this.budget.stopped) return this.failed(row, `not attempted: the batch ${this.budget.stopped}; run the same command again to resume`);
    const key = keyOf(row.id);
    const held = { released: false };
    try {
      const claim = await this.claim(row, wait);
      if (!claim.ok) {
        held.released = true;
        if (!wait && !this.budget.stopped) return DEFERRED;
        if (this.budget.stopped) return this.failed(row, `not attempted: the batch ${this.budget.stopped}; run the same command again to resume`);
        return this.failed(row, `another payctl (${claim.holder.holder}, pid ${claim.holder.pid}) is moving money on this transaction; run the same command again when it is done`);
      }
      return await this.runHeld(row, key, claim.memory, claim.intent, held);
    } catch (err) {
      if (ledgerTrouble(err)) {
        this.ledgerError ??= err as CliError;
        this.budget.stop(`lost the ledger (${(err as Error).message})`);
        this.pace.wakeAll();
        return this.failed(row, `not finished: ${(err as Error).message}; once the ledger is back, run the same command again: it checks this row first`);
      }
      const message = err instanceof Error ? err.message : String(err);
      return this.failed(row, `outcome unknown: ${message}; run the same command again to check and finish`);
    } finally {
      if (!held.released) await this.ledger.release(key).catch(() => undefined);
    }
  }

  private async settled(row: Row, key: string, intent: Intent, state: Intent['state'], error: string | null, proof: string | null | undefined, held: { released: boolean }): Promise<void> {
    await this.ledger.resolveAndRelease(intent, state, error, proof, key);
    held.released = true;
  }

  private async refunded(row: Row, key: string, intent: Intent, proof: string | null | undefined, held: { released: boolean }): Promise<RowResult> {
    await this.settled(row, key, intent, 'applied', null, proof, held);
    return { row: row.row, id: row.id, status: 'refunded', refunded_amount: centsToDecimalString(intent.amount_cents ?? 0), error: null };
  }

  private failed(row: Row, error: string): RowResult {
    return { row: row.row, id: row.id, status: 'failed', refunded_amount: null, error };
  }

  /**
   * What the sale still allows, and what was done of it before, decide whether a row is sent. A
   * row of all that remains is never a duplicate: it refunds what is left, or finds the sale
   * already fully refunded. A row whose amount was refunded before (by payctl or in the sale's
   * history) is skipped, unless --again; one the sale cannot give is refused naming what is left,
   * never offered --again; and one asking more than was refunded before is held: not sent, not
   * skipped, the run exits 10 saying what --again would send. Undefined: send it.
   */
  private decide(row: Row, earlier: EarlierMove[], left: number, status: string | null | undefined): RowResult | undefined {
    const prior = earlier.slice((row.occurrence ?? 1) - 1);
    if (row.cents === undefined) {
      if (left > 0) return undefined;
      if (earlier.length > 0) return this.skipped(row, earlier, `${FULLY_REFUNDED} (${earlierDetail(earlier)})`);
      return this.failed(row, `nothing left to refund (status ${status ?? 'unknown'})`);
    }
    const done = prior.length > 0 && !this.flags.again ? earlierTotal(prior) : undefined;
    const covered = prior.length > 0 && !this.flags.again && (done === undefined || row.cents <= done);
    const beyond = beyondWhatIsLeft(row.id, row.cents, left);
    if (covered && !beyond) {
      this.repeatable += 1;
      return this.skipped(row, earlier, describeEarlier(earlier, 'transactions.void'));
    }
    if (covered) {
      const why = left === 0 ? `${FULLY_REFUNDED} (${earlierDetail(earlier)})` : `${describeEarlier(earlier, 'transactions.void')}, and only ${money(left)} is left`;
      return this.skipped(row, earlier, why);
    }
    if (beyond) return this.failed(row, `${beyond}${earlier.length > 0 ? `; it was ${describeEarlier(earlier, 'transactions.void')}` : ''}; nothing was sent`);
    if (done === undefined) return undefined;
    const asked = money(row.cents);
    return {
      ...this.failed(row, `asks ${asked}, more than the ${money(done)} refunded of it before (${describeEarlier(prior, 'transactions.void')}); nothing was sent for it. --again would send its ${asked} in addition: payctl transactions refund ${row.id} --amount ${centsToDecimalString(row.cents)} --again`),
      status: 'held',
      earlier: earlierOf(prior),
    };
  }

  private skipped(row: Row, earlier: EarlierMove[], reason: string): RowResult {
    return { row: row.row, id: row.id, status: 'skipped', refunded_amount: null, error: null, reason, earlier: earlierOf(earlier) };
  }

  private async runHeld(row: Row, key: string, memory: Intent[], fresh: Intent | undefined, held: { released: boolean }): Promise<RowResult | Handed> {
    const look = () => this.lookup(row.id);
    const move = { look, proves: transactionMoveProof, checkCommand: `payctl transactions get ${row.id}` };
    // Moves on this sale that other runs left unresolved (a single refund whose answer was lost,
    // a killed batch, another machine's): settled before this row sends anything.
    for (const earlier of memory.filter((i) => UNRESOLVED.includes(i.state) && i.id !== fresh?.id)) {
      try {
        await this.guard.settleEarlier(earlier, move, memory, `an earlier ${earlier.operation === 'transactions.void' ? 'refund' : earlier.operation} of ${row.id}`, true);
      } catch (err) {
        if (err instanceof OutcomeUnknownError) return this.failed(row, err.message);
        throw err;
      }
      // This row's own refund, parked when its answer was lost: it landed after all.
      if (earlier.batch === this.batch.id && earlier.row === row.row && earlier.state === 'applied') {
        return { row: row.row, id: row.id, status: 'refunded', refunded_amount: centsToDecimalString(earlier.amount_cents ?? 0), error: null };
      }
    }
    let intent = fresh;
    if (!intent) {
      let current: Transaction | undefined;
      try {
        if (!row.snapshot) current = await look();
      } catch (err) {
        // Nothing was sent: a sale that is not there (404) or not ours (403) is this row's answer;
        // one that could not be looked up is left for a rerun.
        if (err instanceof ApiError) return this.failed(row, err.message);
        if (err instanceof BatchStopped) return this.failed(row, `not refunded: the batch ${err.why}; run the same command again to resume`);
        if (err instanceof CliError && !ledgerTrouble(err)) return this.failed(row, `not refunded: it could not be looked up (${(err as Error).message}); nothing was sent. Run the same command again`);
        throw err;
      }
      const seen: Snapshot & { history?: Transaction['history'] } = current ?? (row.snapshot as Snapshot);
      const mine = new Set(memory.filter((i) => i.batch === this.batch.id).map((i) => i.id));
      const earlier = earlierMoves(memory, 'transactions.void', seen, this.ledger, mine);
      const left = decimalStringToCents(seen.amount || '0');
      const decided = this.decide(row, earlier, left, seen.status);
      if (decided) return decided;
      const cents = row.cents ?? left;
      const seller = current?.on_behalf_of ?? seen.on_behalf_of ?? this.sellerFallback;
      if (!seller) return this.failed(row, 'the transaction names no seller and the profile has no seller_id');
      const record = () => this.ledger.record(this.newIntent(row, cents, { ...snapshotOf(seen), on_behalf_of: seller }));
      const admitted = await this.admit(row, cents, seller, (current ?? row.snapshot) as Transaction, record);
      if ('status' in admitted) return admitted;
      intent = admitted;
      memory.push(intent);
    }
    return this.send(row, key, intent, memory, held);
  }

  /**
   * The team's rules on a row: its intent written when they let it go; else, nothing sent, the
   * row waits for approval (its request filed under the batch; a rerun finds the same one while it
   * is pending) or fails naming the rule that blocks it or the daily limit it would pass.
   */
  private async admit(row: Row, cents: number, seller: string, tx: Transaction, record: () => Promise<Intent>): Promise<Intent | RowResult> {
    const gate = this.guard.gate;
    if (!gate || !this.gated) return record();
    const what = { key: keyOf(row.id), operation: 'transactions.void', target: row.id, requestedCents: row.cents ?? null, what: `the refund of transaction ${row.id}`, checkCommand: `payctl transactions get ${row.id}` };
    const asked = {
      body: { on_behalf_of: seller, amount: cents },
      amountCents: cents,
      currency: tx.currency ?? 'BRL',
      summary: async () => `Refund ${formatMoney(centsToDecimalString(cents), tx.currency)} of transaction ${row.id} (${await describePayer(this.api, tx)})`,
      replay: ['transactions', 'refund', row.id, '--amount-cents', String(cents), ...(this.flags.again ? ['--again'] : [])],
    };
    try {
      return await gate.admit(what, asked, record, { batch: this.batch.id, batch_name: this.batch.name, row: row.row });
    } catch (err) {
      const request = (err as { request?: ApprovalRequest } | null)?.request;
      if (err instanceof ApprovalPendingError && request) {
        return { row: row.row, id: row.id, status: 'waiting_approval', refunded_amount: null, error: null, request: request.id, reason: err.message.replace(/^waiting for approval: /, '') };
      }
      if (err instanceof PolicyRefusedError || err instanceof InFlightError) return this.failed(row, err.message);
      throw err;
    }
  }

  private async send(row: Row, key: string, intent: Intent, memory: Intent[], held: { released: boolean }): Promise<RowResult | Handed> {
    const look = () => this.lookup(row.id);
    const before = JSON.parse(intent.before ?? '{}') as Snapshot;
    const body = { on_behalf_of: before.on_behalf_of ?? this.sellerFallback, amount: intent.amount_cents };
    const others = () => memory.filter((i) => i.id !== intent.id);
    let uncertain = false;
    for (let send = 1; send <= MAX_SENDS; send += 1) {
      // A fresh intent was written with its window just now; each new attempt gets one of its own.
      if (send > 1) await this.ledger.update(intent, { state: 'pending', settle_until: this.guard.settleUntilFromNow() });
      try {
        await this.pace.acquire();
      } catch (err) {
        return this.notSent(row, key, intent, err, held, uncertain);
      }
      // The request holds a slot; what follows a failure (looking, backing off) does not.
      let answer: Transaction | undefined;
      let failure: { error: unknown } | undefined;
      try {
        this.ledger.assertLeased();
        answer = await this.api.call('transactions.void', { params: { id: row.id }, body });
      } catch (error) {
        failure = { error };
      } finally {
        this.pace.release(failure === undefined);
      }
      if (failure === undefined) {
        const checked = checkMoveAnswer(intent, answer as Transaction, others());
        if (checked.kind === 'applied') return this.refunded(row, key, intent, checked.proof, held);
        uncertain = true;
        const outcome = await this.lookForOwn(row, key, intent, memory, held, `the service answered, but not with this refund: ${checked.why}`);
        if (outcome) return outcome;
        continue;
      }
      const err = failure.error;
      if (err instanceof UncertainOutcomeError) {
        uncertain = true;
        const outcome = await this.lookForOwn(row, key, intent, memory, held, err.message);
        if (outcome) return outcome;
        continue; // seen unchanged past its window: it did not happen, and can no longer land
      }
      if (err instanceof BatchStopped || ledgerTrouble(err)) return this.notSent(row, key, intent, err, held, uncertain);
      if (err instanceof ApiError && err.exitCode === ExitCode.rateLimited) {
        await this.ledger.resolve(intent, 'not_applied', err.message);
        continue;
      }
      if (err instanceof ApiError) {
        // Refused; but if an earlier attempt's answer was lost, that one may be why.
        if (uncertain) {
          const proof = transactionMoveProof(intent, await look(), others());
          if (proof.kind === 'applied') return this.refunded(row, key, intent, proof.proof, held);
        }
        await this.settled(row, key, intent, 'refused', err.message, undefined, held);
        return this.failed(row, err.message);
      }
      if (!(err instanceof CliError)) throw err;
      // Never left this machine (connection refused): nothing applied; back off and try again.
      await this.ledger.resolve(intent, 'not_applied', err.message);
      try {
        this.budget.spend(100 * send, 'an unavailable service');
      } catch (stopped) {
        return this.notSent(row, key, intent, stopped, held, uncertain);
      }
      await sleep(100 * send);
    }
    await this.settled(row, key, intent, intent.state === 'pending' ? 'unknown' : intent.state, null, undefined, held);
    return this.failed(row, `could not refund after ${MAX_SENDS} attempts; run the same command again, or check with: payctl transactions get ${row.id}`);
  }

  /**
   * The row's own answer was lost: look for its void for a while. Undefined: it did not happen
   * (send again). PARKED: it could still land; the row is taken up again at the end of the batch.
   */
  private async lookForOwn(row: Row, key: string, intent: Intent, memory: Intent[], held: { released: boolean }, why: string): Promise<RowResult | Handed | undefined> {
    const deadline = intent.settle_until ?? this.guard.settleUntilFromNow();
    const settled = await this.guard.lookFor(intent, { look: () => this.lookup(row.id), proves: transactionMoveProof }, memory, deadline, this.guard.ownWaitUntil(deadline), undefined);
    if (settled.kind === 'applied') return this.refunded(row, key, intent, settled.proof, held);
    if (settled.kind === 'not_applied') return undefined;
    const detail = settled.kind === 'unknown' ? settled.error.message : (settled.why ?? 'not seen in the service yet');
    const message = `outcome unknown: ${why}; ${detail}; it could still land until ${clockTime(this.ledger.local(deadline))}. Run the same command again: it waits for it and sends only if it did not land`;
    const parks = this.parked.get(row.row) ?? 0;
    if (parks < MAX_PARKS && !this.budget.stopped) {
      this.parked.set(row.row, parks + 1);
      await this.settled(row, key, intent, 'unknown', message, undefined, held);
      return PARKED;
    }
    await this.settled(row, key, intent, 'unknown', message, undefined, held);
    return this.failed(row, message);
  }

  /** Stopped before this attempt left (the batch's wait ran out, the ledger went away). */
  private async notSent(row: Row, key: string, intent: Intent, err: unknown, held: { released: boolean }, uncertain: boolean): Promise<RowResult> {
    if (ledgerTrouble(err)) throw err;
    // An earlier attempt whose answer was lost may still land: the intent stays for the next run.
    const state = uncertain ? 'unknown' : 'not_applied';
    const why = err instanceof BatchStopped ? `the batch ${err.why}` : String(err);
    await this.settled(row, key, intent, state, `not sent: ${why}`, undefined, held);
    return this.failed(row, uncertain ? `outcome unknown: an earlier attempt's answer was lost, and ${why}; run the same command again to check and finish` : `not refunded: ${why}; run the same command again to resume`);
  }
}

/**
 * The same transaction on two rows is refused before anything is sent: a line repeated by
 * mistake (a file concatenated twice, a list that overlapped) would refund it twice. A batch
 * that means it (two partial refunds of one sale) says so with --allow-duplicates; its rows
 * then run one after the other.
 */
function refuseRepeatedTransactions(index: RowIndex): void {
  const { shown, count } = index.repeated();
  if (count === 0) return;
  const listed = shown.map((r) => `rows ${r.first} and ${r.row} (${r.id})`).join('; ') + (count > shown.length ? `; and ${count - shown.length} more` : '');
  throw new UsageError(`--file: the same transaction is on more than one row: ${listed}. Nothing was sent. Remove the repeats, or pass --allow-duplicates if each row is a refund of its own`);
}

/** How many rows the ledger already knows payctl refunded (not refunded twice without --again), before asking. */
async function alreadyRefunded(guard: MoneyGuard, index: RowIndex, again: boolean): Promise<number> {
  if (again) return 0;
  let skipping = 0;
  for (const chunk of index.transactions(500)) {
    const applied = new Map<string, number>();
    for (const intent of await guard.ledger.intentsOn(chunk.map((t) => keyOf(t.id)))) {
      if (intent.state === 'applied' && intent.operation === 'transactions.void') applied.set(intent.target, (applied.get(intent.target) ?? 0) + 1);
    }
    for (const { id, rows } of chunk) skipping += Math.min(applied.get(id) ?? 0, rows);
  }
  return skipping;
}

/** What the first reading found: every row noted, and what the batch asks in all. */
interface FirstReading {
  index: RowIndex;
  invalid: number;
  givenCents: number;
  remainder: number;
}

async function readFirst(source: BulkSource, options: { full: boolean }): Promise<FirstReading> {
  const reading: FirstReading = { index: new RowIndex(), invalid: 0, givenCents: 0, remainder: 0 };
  for await (const row of refundRows(source.first(), options)) {
    if (row.row > MAX_BATCH_ROWS) {
      throw new UsageError(`--file: more than ${formatCount(MAX_BATCH_ROWS)} rows; split it into files of at most that many and run them one after another (each sale is refunded once however the files overlap). Nothing was sent`);
    }
    reading.index.add(row);
    if (row.error || !row.id) reading.invalid += 1;
    else if (row.cents === undefined) reading.remainder += 1;
    else reading.givenCents += row.cents;
  }
  return reading;
}

/** The input changed between its two readings: the batch stops at the first row that differs. */
class InputChanged extends UsageError {
  constructor(row: number) {
    super(`--file: the file changed after it was read (row ${row} is not what it was); the batch stopped there and sent nothing for that row or any after it. Check the file and run the same command again: rows already refunded are skipped`);
  }
}

/** The second reading, row by row, each checked against the first and told which of its transaction's rows it is. */
async function* readAgain(source: BulkSource, options: { full: boolean }, index: RowIndex): AsyncGenerator<RefundRow> {
  let last = 0;
  for await (const row of refundRows(source.again(), options)) {
    if (!index.same(row)) throw new InputChanged(row.row);
    last = row.row;
    if (row.id && !row.error) row.occurrence = index.occurrenceOf(row.row);
    yield row;
  }
  if (last < index.rows) throw new InputChanged(last + 1);
}

export async function runBulkRefund(ctx: Factory, options: RefundOptions): Promise<void> {
  const file = options.file ?? '';
  // Its flag rules passed before it ran (refund.ts's check): this reads what they allow.
  const { concurrency, maxWait, flags, full } = readBatchFlags(options);
  const source = await openBulkSource(ctx, file);
  try {
    await runFromSource(ctx, options, source, { file, concurrency, maxWait, flags, full });
  } finally {
    await source.close();
  }
}

interface BatchSettings {
  file: string;
  concurrency: number;
  maxWait: number;
  flags: MoneyMoveFlags;
  full: boolean;
}

async function runFromSource(ctx: Factory, options: RefundOptions, source: BulkSource, settings: BatchSettings): Promise<void> {
  const { file, concurrency, maxWait, flags, full } = settings;
  const { index, invalid, givenCents, remainder } = await readFirst(source, { full });
  const rowCount = index.rows;
  if (options.allowDuplicates !== true) refuseRepeatedTransactions(index);
  if (ctx.globals.dryRun) {
    for await (const row of readAgain(source, { full }, index)) await writeOut(ctx.io.stdout, `${JSON.stringify({ row: row.row, id: row.id ?? null, amount_cents: row.cents ?? 'all that remains', error: row.error ?? null })}\n`);
    ctx.log.status(`dry run: ${counted(rowCount, 'row')} read, nothing was sent`);
    return;
  }
  await ctx.service.requireApiKey();
  const guard = await ctx.moneyGuard({ noWait: flags.noWait });
  const batch: BatchRun = { id: randomUUID(), name: file === '-' ? 'standard input' : basename(file) };

  const skipping = await alreadyRefunded(guard, index, flags.again);
  const total = `${formatMoney(centsToDecimalString(givenCents))}${remainder > 0 ? ` plus all that remains of ${remainder}` : ''}`;
  const skipped = skipping > 0 ? `; ${formatCount(skipping)} refunded earlier by payctl will not be refunded twice without --again` : '';
  await ctx.prompts.confirm(`Refund ${counted(rowCount - invalid, 'transaction')} (${total})${skipped}?`, 'refund in bulk');
  await ctx.service.noteSandbox();

  if (rowCount > SHORT_RUN_ITEMS) ctx.service.expectLongRun();
  const api = await ctx.api();
  const budget = new WaitBudget(maxWait * 1000);
  const pace = new Pace(concurrency, budget);
  api.onRateLimited = pace.rateLimited;
  api.beforeRetryWait = (ms) => budget.spend(ms, 'rate limits and an unavailable service');
  const runner = new RowRunner(api, guard, pace, budget, batch, (await ctx.config.profile()).sellerId, flags);
  runner.gated = (await guard.gate?.judges('transactions.void')) === true;
  const progress = ctx.io.stderrIsTTY && !ctx.globals.quiet ? (await import('../../../output/progress.js')).batchProgress(ctx.io.stderr, rowCount) : undefined;
  // NDJSON for scripts (piped, -o json or ndjson); a line a person reads on a terminal.
  const line = (await ctx.out.outputFormat()) === 'table' ? readableLine(rowCount) : (result: RowResult) => `${JSON.stringify(result)}\n`;

  const counts = { refunded: 0, skipped: 0, held: 0, waiting_approval: 0, failed: 0, invalid: 0, cents: 0 };
  let firstHeld: RowResult | undefined;
  const failedOut = failedRowsPath(file, ctx.config.paths.stateDir, optionalString(options.failedOut));
  const notRefunded = new FailedRowsFile(failedOut);
  const writeLine = lineBatcher(ctx.io.stdout);
  // Rows in order, as the second reading gives them, shared by the workers; then those another run
  // held when their turn came, waited for this time. The reading stopping (the file changed) ends
  // the fresh rows: what was taken runs to its end, and the batch then stops with it.
  const rows = readAgain(source, { full }, index);
  let readError: unknown;
  let fresh = true;
  const nextFresh = async (): Promise<RefundRow | undefined> => {
    if (!fresh) return undefined;
    try {
      const next = await rows.next();
      if (!next.done) return next.value;
    } catch (err) {
      readError ??= err;
    }
    fresh = false;
    return undefined;
  };
  const later: RefundRow[] = [];
  const worker = async () => {
    for (;;) {
      const freshRow = await nextFresh();
      const input = freshRow ?? later.shift();
      if (input === undefined) break;
      const result = await runner.run(input, freshRow === undefined);
      if (result === DEFERRED || result === PARKED) {
        later.push(input);
        continue;
      }
      if (result.status === 'refunded') {
        counts.refunded += 1;
        counts.cents += decimalStringToCents(result.refunded_amount ?? '0');
      } else counts[result.status] += 1;
      if (result.status === 'held' && (firstHeld === undefined || result.row < firstHeld.row)) firstHeld = result;
      if (result.status === 'failed' || result.status === 'invalid' || result.status === 'held') notRefunded.add({ row: result.row, id: result.id, cents: input.cents, error: result.error ?? '', ...(input.cells ? { cells: input.cells } : {}) });
      progress?.update(counts.refunded + counts.skipped, counts.held + counts.waiting_approval + counts.failed + counts.invalid);
      await writeLine(line(result));
    }
  };
  const note = 'refunds of this batch were in flight. Run the same command again: it checks each one first and sends only what did not go through';
  try {
    // More rows in progress than requests in flight: a row waiting for a lost answer to settle
    // holds no request slot (the pace counts requests), so it does not hold up the others.
    await noteWhileInFlight(note, () => Promise.all(Array.from({ length: Math.min(concurrency * ROWS_PER_SLOT, rowCount) }, worker)));
  } finally {
    progress?.stop();
    await rows.return(undefined);
  }
  const failed = counts.failed + counts.invalid + counts.held;
  const waiting = counts.waiting_approval;
  const parts = [`Refunded ${formatCount(counts.refunded)} of ${counted(rowCount, 'row')} (${formatMoney(centsToDecimalString(counts.cents))})`];
  if (counts.failed + counts.invalid > 0) parts.push(`${formatCount(counts.failed)} failed, ${formatCount(counts.invalid)} invalid`);
  const lines = [`${parts.join('; ')}.`];
  if (runner.repeatable > 0) lines.push(`Skipped ${counted(runner.repeatable, 'row')} refunded earlier (--again refunds them).`);
  const spent = counts.skipped - runner.repeatable;
  if (spent > 0) lines.push(`Skipped ${counted(spent, 'row')} already refunded, with too little left to refund ${noun(spent, 'it', 'them')} again.`);
  if (counts.held > 0) lines.push(`Held ${counted(counts.held, 'row')} asking more than was refunded of ${noun(counts.held, 'its sale', 'their sales')} before: nothing was sent for ${noun(counts.held, 'it', 'them')} (${noun(counts.held, 'its line says', 'their lines say')} what --again would send).`);
  if (waiting > 0) lines.push(`${counted(waiting, 'row')} ${noun(waiting, 'waits', 'wait')} for approval by the team's policy: nothing was sent for ${noun(waiting, 'it', 'them')} (${noun(waiting, 'its line names its request', 'their lines name their requests')}); a supervisor approves ${noun(waiting, 'it', 'them')} with: payctl approvals approve --batch ${batch.name}`);
  const problem = notRefunded.finish();
  if (notRefunded.count > 0) {
    // Not "run it with --again": that would send again every other row of it payctl already refunded.
    const heldToo = counts.held > 0 ? '; a held row is sent only by the command its line gives' : '';
    lines.push(problem ? `Rows not refunded: not written (${problem}); they are in the result lines above` : `Rows not refunded: ${failedOut} (to retry only those: payctl transactions refund --file ${failedOut}${heldToo})`);
  }
  lines.push(`Ledger: ${guard.ledger.where}`);
  ctx.io.stderr.write(`${lines.join('\n')}\n`);
  // A ledger deleted, emptied or replaced under the batch: its refunds went out once each, but the
  // record that keeps a rerun from repeating them went with it. Never exit 0 on that.
  const vanished = runner.ledgerError ? undefined : await guard.ledger.vanished().catch(() => undefined);
  if (vanished) {
    const since = localDateTime(guard.ledger.store.since);
    throw new LedgerLostError(guard.ledger.where, `${vanished} while this batch ran`, since, `${formatCount(counts.refunded)} refunded (see the result lines), and the record of them went with it`);
  }
  if (runner.ledgerError) {
    throw new CliError(`the batch stopped: ${runner.ledgerError.message}. ${formatCount(counts.refunded)} refunded; rows not finished are checked first by the next run`, runner.ledgerError.exitCode, { cause: runner.ledgerError });
  }
  if (readError) throw readError;
  if (budget.stopped) {
    throw new CliError(`the batch ${budget.stopped}; ${formatCount(counts.refunded)} refunded, ${formatCount(failed)} not. Run the same command again to resume`, counts.refunded === 0 ? ExitCode.rateLimited : ExitCode.bulkPartial);
  }
  if (failed > 0) {
    // A held row is named: what was refunded before, what it asks, and what --again would send.
    const held = firstHeld ? `; row ${firstHeld.row} (${firstHeld.id}) ${firstHeld.error}` : '';
    const waits = waiting > 0 ? `; ${formatCount(waiting)} ${noun(waiting, 'waits', 'wait')} for approval` : '';
    throw new CliError(`${formatCount(failed)} of ${counted(rowCount, 'row')} ${noun(failed, 'was', 'were')} not refunded (see their result lines)${waits}${held}`, ExitCode.bulkPartial);
  }
  if (waiting > 0) {
    throw new CliError(`${formatCount(waiting)} of ${counted(rowCount, 'row')} ${noun(waiting, 'waits', 'wait')} for approval (see their result lines); nothing was sent for ${noun(waiting, 'it', 'them')}: payctl approvals list --state pending`, ExitCode.bulkPartial);
  }
}

/**
 * One result as a line for a terminal: `row  12  refunded  R$ 10,00  <id>`; errors after the id;
 * a skipped row says briefly when it was refunded before, by payctl or outside it (`earlier:
 * payctl 17:57:03`; the JSON line has the amount, who and which batch): it fits 80 columns.
 */
function readableLine(rowCount: number): (result: RowResult) => string {
  const width = String(rowCount).length + 1;
  return (result) => {
    const amount = result.refunded_amount !== null ? formatMoney(result.refunded_amount) : '';
    const parts = [`row ${String(result.row).padStart(width)}`, result.status.padEnd(8), amount, result.id ?? '', result.request ?? '', result.error === null ? '' : sanitize(result.error), result.status === 'skipped' && result.earlier ? briefEarlier(result.earlier) : ''];
    return `${parts.filter((part) => part !== '').join('  ')}\n`;
  };
}

function briefEarlier(earlier: NonNullable<RowResult['earlier']>): string {
  const at = earlier.at ? ` ${clockTime(Date.parse(earlier.at))}` : '';
  return earlier.by === 'payctl' ? `earlier: payctl${at}` : `earlier: history${at}`;
}
