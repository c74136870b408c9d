import { UncertainOutcomeError, type ApiClient } from '../../../api/client.js';
import { SHORT_RUN_ITEMS, type Context } from '../../../context.js';
import { ApiError, CliError, ExitCode, UsageError, ValidationError } from '../../../errors.js';
import { formatMoney } from '../../../output/format.js';
import { counted, noun } from '../../../output/plural.js';
import { sanitize } from '../../../output/table.js';
import { lineBatcher, writeOut } from '../../../output/write.js';
import { centsToDecimalString, decimalStringToCents } from '../../../validate/index.js';
import { open } from 'node:fs/promises';
import { optionalString } from '../../shared/input.js';
import type { Transaction } from '../shared.js';
import type { Intent, NewIntent } from '../../../ledger/ledger.js';
import { noteWhileInFlight } from '../../../interrupt.js';
import { when, type MoneyGuard } from '../../../ledger/guard.js';
import { settleDeadlineForSend, settleWindowMs } from '../../../ledger/settle.js';
import { snapshotOf, transactionMoveApplied, type Snapshot } from '../applied.js';
import { readRefundInput, type RefundRow } from './input.js';
import { importLegacyJournal } from './legacy-journal.js';

// `transactions refund --file`: many refunds, each exactly once, however the run is interrupted
// and however many runs there are. Rows go to a pool of workers whose requests (--concurrency at
// once) slow down together when the service answers 429. Each row is an intent in the ledger
// (src/ledger/), tagged with the input's hash and its row number: written before the request,
// resolved after. A run holds the input's lock (a second run of the same input stops at once)
// and each row holds its transaction's lock while it is in flight; a row found in flight by a
// later run, or whose answer was lost, is settled against the transaction (its history and
// amount, compared with the snapshot taken before the first attempt) before anything is sent again.

export interface RowResult {
  row: number;
  id: string | null;
  status: 'refunded' | 'failed' | 'invalid';
  refunded_amount: string | null;
  error: string | null;
  /** Settled by an earlier run of the same input. */
  resumed?: true;
}

const MAX_SENDS = 6;
const MAX_LOOKUPS = 6;
/** Rows in progress per request slot: the others wait out lost answers without holding a slot. */
const ROWS_PER_SLOT = 4;
/** The longest pause a 429 can impose on the whole batch, whatever its Retry-After says. */
export const MAX_PAUSE_MS = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

  constructor(private readonly max: number) {
    this.limit = max;
  }

  async acquire(): Promise<void> {
    for (;;) {
      const pause = this.pauseUntil - Date.now();
      if (pause > 0) await sleep(Math.min(pause, 50));
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

const keyOf = (id: string) => `transaction:${id}`;

/** How a row's refund (or another move on its transaction) is told apart when its answer was lost. */
const applied = transactionMoveApplied;

class RowRunner {
  constructor(
    private readonly api: ApiClient,
    private readonly guard: MoneyGuard,
    private readonly pace: Pace,
    private readonly batch: string,
    private readonly rows: Map<number, { first: Intent; last: Intent }>,
    private readonly sellerFallback: string | undefined,
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
        return await this.net(() => this.api.call<Transaction>('transactions.get', { params: { id } }));
      } catch (err) {
        if (err instanceof ApiError && err.exitCode !== ExitCode.network && err.exitCode !== ExitCode.rateLimited) throw err;
        if (attempt >= MAX_LOOKUPS) throw err;
        await sleep(100 * attempt);
      }
    }
  }

  /** A row's result is handed over only once the ledger has it (one commit shared with other rows). */
  private async done(row: RefundRow & { id: string }, intent: Intent): Promise<RowResult> {
    await this.ledger.settleAndReleaseSoon(intent, 'applied', undefined, keyOf(row.id));
    return { row: row.row, id: row.id, status: 'refunded', refunded_amount: centsToDecimalString(intent.amount_cents ?? 0), error: null };
  }

  /** `final`: the service refused, or there is nothing to send; otherwise a later run tries again. */
  private async failed(row: RefundRow & { id: string }, error: string, final: boolean, intent?: Intent): Promise<RowResult> {
    if (intent) await this.ledger.settleAndReleaseSoon(intent, final ? 'refused' : intent.state === 'pending' ? 'unknown' : intent.state, error, keyOf(row.id));
    else if (final) this.ledger.record({ key: keyOf(row.id), operation: 'transactions.void', target: row.id, batch: this.batch, row: row.row, state: 'refused', detail: error });
    return { row: row.row, id: row.id, status: 'failed', refunded_amount: null, error };
  }

  /**
   * The intent of a row that carries its transaction (NDJSON from a list): written in the same
   * commit as the row's lock. A row without one is looked up first (runHeld).
   */
  private intentFromSnapshot(row: RefundRow & { id: string }): NewIntent | undefined {
    if (!row.snapshot) return undefined;
    const cents = row.cents ?? decimalStringToCents(row.snapshot.amount || '0');
    const seller = row.snapshot.on_behalf_of ?? this.sellerFallback;
    if (cents <= 0 || !seller) return undefined;
    return this.newIntent(row, cents, { ...snapshotOf(row.snapshot), on_behalf_of: seller });
  }

  private newIntent(row: RefundRow & { id: string }, cents: number, before: Snapshot): NewIntent {
    return {
      key: keyOf(row.id),
      operation: 'transactions.void',
      target: row.id,
      requested_cents: row.cents ?? null,
      amount_cents: cents,
      before: JSON.stringify(before),
      batch: this.batch,
      row: row.row,
      settle_until: settleDeadlineForSend(this.guard.timeoutMs),
    };
  }

  /** Waits for a transaction another process (or another row of this batch) is moving. */
  private async claim(key: string, intent: NewIntent | undefined): Promise<{ ok: boolean; intent?: Intent }> {
    const until = Date.now() + settleDeadlineForSend(this.guard.timeoutMs, 0);
    for (;;) {
      // Committed (with other rows' claims) before this resolves, so before anything is sent.
      const claim = await this.ledger.claimSoon(key, intent && { ...intent, settle_until: settleDeadlineForSend(this.guard.timeoutMs) });
      if (claim.ok) return claim;
      if (Date.now() >= until) return { ok: false };
      await sleep(200);
    }
  }

  async run(input: RefundRow): Promise<RowResult> {
    if (input.error || !input.id) return { row: input.row, id: input.id ?? null, status: 'invalid', refunded_amount: null, error: input.error ?? 'no id' };
    const row = input as RefundRow & { id: string };
    const known = this.rows.get(row.row)?.last;
    if (known?.state === 'applied') return { row: row.row, id: row.id, status: 'refunded', refunded_amount: centsToDecimalString(known.amount_cents ?? 0), error: null, resumed: true };
    if (known?.state === 'refused') return { row: row.row, id: row.id, status: 'failed', refunded_amount: null, error: known.detail ?? 'refused', resumed: true };
    const key = keyOf(row.id);
    const claim = await this.claim(key, known ? undefined : this.intentFromSnapshot(row));
    if (!claim.ok) return await this.failed(row, `another payctl process is moving money on this transaction; run the same command again when it is done`, false);
    const intent = known ?? claim.intent;
    try {
      return await this.runHeld(row, key, intent, !known);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      return await this.failed(row, `outcome unknown: ${message}; run the same command again to check and finish`, false, intent);
    } finally {
      this.ledger.release(key);
    }
  }

  /** `fresh`: the intent (if any) was written by this run, just now, and nothing was sent for it yet. */
  private async runHeld(row: RefundRow & { id: string }, key: string, known: Intent | undefined, fresh: boolean): Promise<RowResult> {
    const look = () => this.lookup(row.id);
    // Moves on this transaction that other runs left unresolved (a single refund whose answer
    // was lost, a killed batch of another file): settled before this row sends anything.
    for (const other of this.ledger.unresolved(key)) {
      if (other.id === known?.id) continue;
      const settled = await this.guard.settleIntent(other, { look, applied, what: `an earlier ${other.operation} of ${row.id}` }, true);
      if (settled.kind === 'unknown') {
        if (known && fresh) this.ledger.resolve(known, 'not_applied', 'not sent: an earlier move of this transaction was unresolved');
        return await this.failed(row, `an earlier refund of this transaction (${when(other.created_at)}) cannot be told apart yet; run the same command again`, false);
      }
    }
    let intent = known;
    if (intent && !fresh && (intent.state === 'pending' || intent.state === 'unknown')) {
      // In flight when an earlier run stopped, or its answer was lost: find out before sending again.
      const settled = await this.guard.settleIntent(intent, { look, applied, what: `the refund of ${row.id}` }, true);
      if (settled.kind === 'applied') return await this.done(row, intent);
      if (settled.kind === 'unknown') return await this.failed(row, `outcome unknown: ${settled.error.message}; run the same command again to check and finish`, false, intent);
    }
    if (!intent) {
      const current = row.snapshot ? undefined : await look();
      const before = row.snapshot ?? snapshotOf(current as Transaction);
      const cents = row.cents ?? decimalStringToCents((current?.amount ?? before.amount) || '0');
      if (cents <= 0) return await this.failed(row, `nothing left to refund (status ${current?.status ?? before.status ?? 'unknown'})`, true);
      const seller = current?.on_behalf_of ?? row.snapshot?.on_behalf_of ?? this.sellerFallback;
      if (!seller) return await this.failed(row, 'the transaction names no seller and the profile has no seller_id', true);
      intent = this.ledger.record(this.newIntent(row, cents, { ...snapshotOf(before), on_behalf_of: seller }));
      fresh = true;
    }
    const seller = (JSON.parse(intent.before ?? '{}') as Snapshot).on_behalf_of ?? row.snapshot?.on_behalf_of ?? this.sellerFallback;
    const body = { on_behalf_of: seller, amount: intent.amount_cents };
    let uncertain = !fresh;
    for (let send = 1; send <= MAX_SENDS; send += 1) {
      // A fresh intent was written with its deadline just now; a resend gets a new one.
      if (send > 1 || !fresh) this.ledger.resent(intent, settleDeadlineForSend(this.guard.timeoutMs));
      try {
        await this.net(() => this.api.call<Transaction>('transactions.void', { params: { id: row.id }, body }));
        return await this.done(row, intent);
      } catch (err) {
        if (err instanceof UncertainOutcomeError) {
          uncertain = true;
          this.ledger.setSettleUntil(intent, Date.now() + settleWindowMs(this.guard.timeoutMs, err.answered));
          const settled = await this.guard.settleIntent(intent, { look, applied, what: `the refund of ${row.id}` }, true);
          if (settled.kind === 'applied') return await this.done(row, intent);
          if (settled.kind === 'unknown') return await this.failed(row, `outcome unknown: ${err.message}; run the same command again to check and finish`, false, intent);
          continue; // seen unchanged past its deadline: it did not happen, and can no longer land
        }
        if (err instanceof ApiError && err.exitCode === ExitCode.rateLimited) {
          this.ledger.resolve(intent, 'not_applied', err.message);
          continue;
        }
        if (err instanceof ApiError) {
          // Refused; but if an earlier attempt's answer was lost, that one may be why.
          if (uncertain && applied(intent, await look())) return await this.done(row, intent);
          return await this.failed(row, err.message, true, intent);
        }
        if (!(err instanceof CliError)) throw err;
        // Never left this machine (connection refused): nothing applied; back off and try again.
        this.ledger.resolve(intent, 'not_applied', err.message);
        await sleep(100 * send);
      }
    }
    return await this.failed(row, `could not refund after ${MAX_SENDS} attempts; run the same command again, or check with: payctl transactions get ${row.id}`, false, intent);
  }
}

/** The file, or standard input for "-", as a stream: a batch is read as it comes, never whole. */
async function inputStream(ctx: Context, file: string): Promise<AsyncIterable<Buffer | string>> {
  if (file === '-') return ctx.io.stdin;
  try {
    const handle = await open(file, 'r');
    return handle.createReadStream();
  } catch (err) {
    throw new UsageError(`--file: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/**
 * The same transaction on two rows is refused before anything is sent: a line repeated by
 * mistake (a file concatenated twice, a list that overlapped) would refund it twice. A batch
 * that means it (two partial refunds of one sale) says so with --allow-duplicates; its rows
 * then run one after the other.
 */
function refuseRepeatedTransactions(rows: RefundRow[]): void {
  const firstRow = new Map<string, number>();
  const repeats: string[] = [];
  for (const row of rows) {
    if (!row.id || row.error) continue;
    const first = firstRow.get(row.id);
    if (first === undefined) firstRow.set(row.id, row.row);
    else repeats.push(`rows ${first} and ${row.row} (${row.id})`);
  }
  if (repeats.length === 0) return;
  const shown = repeats.slice(0, 3).join('; ') + (repeats.length > 3 ? `; and ${repeats.length - 3} more` : '');
  throw new UsageError(`--file: the same transaction is on more than one row: ${shown}. Nothing was sent. Remove the repeats, or pass --allow-duplicates if each row is a refund of its own`);
}

function parseConcurrency(value: unknown): number {
  const raw = optionalString(value) ?? '4';
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 64) throw new ValidationError('--concurrency', 'give a whole number from 1 to 64');
  return Number(raw);
}

export async function runBulkRefund(ctx: Context, options: Record<string, unknown>): Promise<void> {
  const file = optionalString(options.file) as string;
  const concurrency = parseConcurrency(options.concurrency);
  if (options.amount !== undefined || options.amountCents !== undefined) throw new ValidationError('--file', 'amounts come from the file (an amount or amount_cents column); drop --amount');
  // V8's young generation may grow to a few megabytes and no further, as in long exports
  // (output/young-generation.ts): held at its starting 1 MB, a tenth of a batch's time went to
  // the collector; left alone, memory grew with the batch. Checked from before the input is read,
  // the first heavy part, and then after every hundred rows.
  const capGrowth = (await import('../../../output/young-generation.js')).capYoungGeneration();
  capGrowth();
  const { rows, digest } = await readRefundInput(await inputStream(ctx, file));
  if (options.allowDuplicates !== true) refuseRepeatedTransactions(rows);
  if (ctx.globals.dryRun) {
    for (const row of rows) await writeOut(ctx.io.stdout, `${JSON.stringify({ row: row.row, id: row.id ?? null, amount_cents: row.cents ?? 'all that remains', error: row.error ?? null })}\n`);
    ctx.log.status(`dry run: ${counted(rows.length, 'row')} read, nothing was sent`);
    return;
  }
  await ctx.requireApiKey();
  const guard = await ctx.moneyGuard();
  const batch = `refund:${digest.slice(0, 32)}`;
  // One run of an input at a time: a second one (another terminal, an overlapping cron job)
  // stops here, before asking or sending anything.
  const resume = 'When it ends, run the same command again: it resumes where that run stopped';
  await guard.hold(batch, 'a bulk refund of this same input', resume, async () => {
    if (options.restart === true) guard.ledger.forgetBatch(batch);
    else {
      const imported = importLegacyJournal(ctx.paths.stateDir, digest, guard.ledger, batch);
      if (imported > 0) ctx.log.status(`Read ${counted(imported, 'row')} of an earlier run from its journal into the ledger.`);
    }
    const known = guard.ledger.batchRows(batch);
    const settled = rows.filter((r) => {
      const state = known.get(r.row)?.last.state;
      return state === 'applied' || state === 'refused';
    }).length;
    const given = rows.filter((r) => !r.error && r.cents !== undefined).reduce((total, r) => total + (r.cents ?? 0), 0);
    const remainder = rows.filter((r) => !r.error && r.cents === undefined).length;
    const total = `${formatMoney(centsToDecimalString(given))}${remainder > 0 ? ` plus all that remains of ${remainder}` : ''}`;
    const resuming = settled > 0 ? `; resuming, ${settled} already settled` : '';
    await ctx.confirm(`Refund ${counted(rows.length - rows.filter((r) => r.error).length, 'transaction')} (${total})${resuming}?`, 'refund in bulk');
    await ctx.noteSandbox();

    if (rows.length > SHORT_RUN_ITEMS) ctx.expectLongRun();
    const api = await ctx.api();
    const pace = new Pace(concurrency);
    api.onRateLimited = pace.rateLimited;
    const runner = new RowRunner(api, guard, pace, batch, known, (await ctx.profile()).sellerId);
    const progress = ctx.io.stderrIsTTY && !ctx.globals.quiet ? (await import('../../../output/progress.js')).batchProgress(ctx.io.stderr, rows.length) : undefined;
    // NDJSON for scripts (piped, -o json or ndjson); a line a person reads on a terminal.
    const line = (await ctx.outputFormat()) === 'table' ? readableLine(rows.length) : (result: RowResult) => `${JSON.stringify(result)}\n`;

    const counts = { refunded: 0, failed: 0, invalid: 0, cents: 0 };
    const writeLine = lineBatcher(ctx.io.stdout);
    let next = 0;
    const worker = async () => {
      while (next < rows.length) {
        const result = await runner.run(rows[next++] as RefundRow);
        if (result.status === 'refunded') {
          counts.refunded += 1;
          counts.cents += decimalStringToCents(result.refunded_amount ?? '0');
        } else counts[result.status] += 1;
        progress?.update(counts.refunded, counts.failed + counts.invalid);
        if ((counts.refunded + counts.failed + counts.invalid) % 100 === 0) capGrowth();
        await writeLine(line(result));
      }
    };
    const note = 'refunds of this batch were in flight. Run the same command again: it checks each one first and sends only what did not go through';
    try {
      // More rows in progress than requests in flight: a row waiting for a lost answer to settle
      // holds no request slot (the pace counts requests), so it does not hold up the others.
      await noteWhileInFlight(note, () => Promise.all(Array.from({ length: Math.min(concurrency * ROWS_PER_SLOT, rows.length) }, worker)));
    } finally {
      progress?.stop();
    }
    const failed = counts.failed + counts.invalid;
    const summary = `Refunded ${counts.refunded} of ${counted(rows.length, 'row')} (${formatMoney(centsToDecimalString(counts.cents))})${failed > 0 ? `; ${counts.failed} failed, ${counts.invalid} invalid` : ''}${resuming}.\nLedger: ${guard.ledger.file}`;
    ctx.io.stderr.write(`${summary}\n`);
    if (failed > 0) throw new CliError(`${failed} of ${counted(rows.length, 'row')} ${noun(failed, 'was', 'were')} not refunded (see their result lines)`, ExitCode.bulkPartial);
  });
}

/** One result as a line for a terminal: `row  12  refunded  R$ 10,00  <id>`; errors after the id. */
function readableLine(rowCount: number): (result: RowResult) => string {
  const width = String(rowCount).length + 1;
  return (result) => {
    const amount = result.refunded_amount !== null ? formatMoney(result.refunded_amount) : '';
    const parts = [`row ${String(result.row).padStart(width)}`, result.status.padEnd(8), amount, result.id ?? '', result.error === null ? '' : sanitize(result.error), result.resumed ? '(settled by an earlier run)' : ''];
    return `${parts.filter((part) => part !== '').join('  ')}\n`;
  };
}
