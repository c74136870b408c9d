import { UncertainOutcomeError, type ApiClient } from '../../../api/client.js';
import type { Context } from '../../../context.js';
import { ApiError, CliError, ExitCode, UsageError, ValidationError } from '../../../errors.js';
import { formatMoney } from '../../../output/format.js';
import { writeOut } from '../../../output/write.js';
import { centsToDecimalString, decimalStringToCents } from '../../../validate/index.js';
import { open } from 'node:fs/promises';
import { optionalString } from '../../shared/input.js';
import type { Transaction } from '../shared.js';
import { readRefundInput, type RefundRow, type Snapshot } from './input.js';
import { Journal, journalPath } from './journal.js';

// `transactions refund --file`: many refunds, each exactly once, however the run is interrupted.
// Rows go to a pool of workers (--concurrency) that slows down together when the service answers
// 429. For each row the journal (journal.ts) gets the intent before the request and the outcome
// after; a row found in flight by a later run, or whose answer was lost, is checked against the
// transaction (its history and amount) before anything is sent again.

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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How many rows may be in flight: on a 429, halved (once for a burst of them) and everyone paused
 * for its Retry-After; grown back by one after each window of as many successes as the limit.
 */
export class Pace {
  private active = 0;
  private limit: number;
  private pauseUntil = 0;
  private successes = 0;
  private lastCut = 0;

  constructor(private readonly max: number) {
    this.limit = max;
  }

  async acquire(): Promise<void> {
    for (;;) {
      const wait = this.pauseUntil - Date.now();
      if (wait <= 0 && this.active < this.limit) break;
      await sleep(Math.max(5, Math.min(wait, 50)));
    }
    this.active += 1;
  }

  release(ok: boolean): void {
    this.active -= 1;
    if (ok && ++this.successes >= this.limit && this.limit < this.max) {
      this.limit += 1;
      this.successes = 0;
    }
  }

  rateLimited = (retryAfterMs: number): void => {
    const now = Date.now();
    // Workers that were already in flight report the same burst: one cut for all of them.
    if (now - this.lastCut > 250) {
      this.limit = Math.max(1, Math.floor(this.limit / 2));
      this.successes = 0;
      this.lastCut = now;
    }
    this.pauseUntil = Math.max(this.pauseUntil, now + retryAfterMs);
  };
}

function snapshotOf(tx: Transaction): Snapshot {
  return { amount: tx.amount ?? '0', status: tx.status ?? '', history: (tx.history ?? []).map((h) => ({ id: h.id, operation_type: h.operation_type })) };
}

/** Whether `now` shows a refund of `cents` made since `before`: a new void, the amount down by it, or newly canceled. */
export function refundApplied(before: Snapshot, now: Transaction, cents: number): boolean {
  const seen = new Set((before.history ?? []).map((h) => h.id));
  const newVoid = (now.history ?? []).some((h) => !seen.has(h.id) && h.operation_type === 'void');
  const dropped = decimalStringToCents(before.amount ?? '0') - decimalStringToCents(now.amount ?? '0');
  return newVoid || dropped >= cents || (now.status === 'canceled' && before.status !== 'canceled');
}

class RowRunner {
  constructor(
    private readonly api: ApiClient,
    private readonly journal: Journal,
    private readonly sellerFallback: string | undefined,
  ) {}

  /** GET with patience: a lookup that fails is tried again, since what happened must be known. */
  private async lookup(id: string): Promise<Transaction> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.api.call<Transaction>('transactions.get', { params: { id } });
      } catch (err) {
        if (err instanceof ApiError && err.exitCode !== ExitCode.network && err.exitCode !== ExitCode.rateLimited) throw err;
        if (attempt >= MAX_LOOKUPS) throw err;
        await sleep(100 * attempt);
      }
    }
  }

  private async done(row: RefundRow & { id: string }, cents: number): Promise<RowResult> {
    await this.journal.write({ t: 'done', row: row.row, id: row.id, refunded_cents: cents });
    return { row: row.row, id: row.id, status: 'refunded', refunded_amount: centsToDecimalString(cents), error: null };
  }

  private async failed(row: RefundRow & { id: string }, error: string, final: boolean): Promise<RowResult> {
    await this.journal.write({ t: 'failed', row: row.row, id: row.id, error, final });
    return { row: row.row, id: row.id, status: 'failed', refunded_amount: null, error };
  }

  async run(input: RefundRow): Promise<RowResult> {
    if (input.error || !input.id) return { row: input.row, id: input.id ?? null, status: 'invalid', refunded_amount: null, error: input.error ?? 'no id' };
    const row = input as RefundRow & { id: string };
    const known = this.journal.rows.get(row.row);
    if (known?.last.t === 'done') return { row: row.row, id: row.id, status: 'refunded', refunded_amount: centsToDecimalString(known.last.refunded_cents), error: null, resumed: true };
    if (known?.last.t === 'failed' && known.last.final) return { row: row.row, id: row.id, status: 'failed', refunded_amount: null, error: known.last.error, resumed: true };

    try {
      // In flight when an earlier run stopped: find out before sending anything again.
      const first = known?.first;
      let current: Transaction | undefined;
      if (first) {
        current = await this.lookup(row.id);
        if (refundApplied(first.before, current, first.cents)) return await this.done(row, first.cents);
      }
      if (!first && !row.snapshot) current = await this.lookup(row.id);
      const before = first?.before ?? row.snapshot ?? snapshotOf(current as Transaction);
      const cents = first?.cents ?? row.cents ?? decimalStringToCents((current?.amount ?? before.amount) || '0');
      if (cents <= 0) return await this.failed(row, `nothing left to refund (status ${current?.status ?? before.status ?? 'unknown'})`, true);
      const seller = current?.on_behalf_of ?? row.snapshot?.on_behalf_of ?? this.sellerFallback;
      if (!seller) return await this.failed(row, 'the transaction names no seller and the profile has no seller_id', true);
      if (!first) await this.journal.write({ t: 'intent', row: row.row, id: row.id, cents, before });

      let uncertain = Boolean(first);
      for (let send = 1; send <= MAX_SENDS; send += 1) {
        try {
          await this.api.call<Transaction>('transactions.void', { params: { id: row.id }, body: { on_behalf_of: seller, amount: cents } });
          return await this.done(row, cents);
        } catch (err) {
          if (err instanceof UncertainOutcomeError) uncertain = true;
          else if (err instanceof ApiError && err.exitCode === ExitCode.rateLimited) continue;
          else if (err instanceof ApiError) {
            // Refused; but if an earlier attempt's answer was lost, that one may be why.
            if (uncertain && refundApplied(before, await this.lookup(row.id), cents)) return await this.done(row, cents);
            return await this.failed(row, err.message, true);
          } else if (!(err instanceof CliError)) throw err;
          // Lost answer, or never sent: look before trying again.
          const now = await this.lookup(row.id);
          if (refundApplied(before, now, cents)) return await this.done(row, cents);
          await sleep(50 * send);
        }
      }
      return await this.failed(row, `could not refund after ${MAX_SENDS} attempts; check with: payctl transactions get ${row.id}`, false);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      return await this.failed(row, `outcome unknown: ${message}; run the same command again to check and finish`, false);
    }
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

function parseConcurrency(value: unknown): number {
  const raw = optionalString(value) ?? '4';
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 64) throw new ValidationError('--concurrency', 'give a whole number from 1 to 64');
  return Number(raw);
}

export async function runBulkRefund(ctx: Context, options: Record<string, unknown>): Promise<void> {
  const file = optionalString(options.file) as string;
  const concurrency = parseConcurrency(options.concurrency);
  if (options.amount !== undefined || options.amountCents !== undefined) throw new ValidationError('--file', 'amounts come from the file (an amount or amount_cents column); drop --amount');
  // Rows after the long run of a batch keep V8's young generation at its starting size, as long
  // exports do (see Context.list); set before the input is read, the first heavy part.
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--semi-space-growth-factor=1');
  const { rows, digest } = await readRefundInput(await inputStream(ctx, file));
  const journalFile = journalPath(ctx.paths.stateDir, digest);
  if (ctx.globals.dryRun) {
    for (const row of rows) await writeOut(ctx.io.stdout, `${JSON.stringify({ row: row.row, id: row.id ?? null, amount_cents: row.cents ?? 'all that remains', error: row.error ?? null })}\n`);
    ctx.log.status(`dry run: ${rows.length} rows read, nothing was sent`);
    return;
  }
  await ctx.requireApiKey();
  const journal = await Journal.open(journalFile, options.restart === true);
  try {
    const settled = rows.filter((r) => {
      const last = journal.rows.get(r.row)?.last;
      return last?.t === 'done' || (last?.t === 'failed' && last.final);
    }).length;
    const given = rows.filter((r) => !r.error && r.cents !== undefined).reduce((total, r) => total + (r.cents ?? 0), 0);
    const remainder = rows.filter((r) => !r.error && r.cents === undefined).length;
    const total = `${formatMoney(centsToDecimalString(given))}${remainder > 0 ? ` plus all that remains of ${remainder}` : ''}`;
    const resuming = settled > 0 ? `; resuming, ${settled} already settled` : '';
    await ctx.confirm(`Refund ${rows.length - rows.filter((r) => r.error).length} transactions (${total})${resuming}?`, 'refund in bulk');
    await ctx.noteSandbox();

    const api = await ctx.api();
    const pace = new Pace(concurrency);
    api.onRateLimited = pace.rateLimited;
    const runner = new RowRunner(api, journal, (await ctx.profile()).sellerId);
    const progress = ctx.io.stderrIsTTY && !ctx.globals.quiet ? (await import('../../../output/progress.js')).batchProgress(ctx.io.stderr, rows.length) : undefined;

    const counts = { refunded: 0, failed: 0, invalid: 0, cents: 0 };
    let next = 0;
    const worker = async () => {
      while (next < rows.length) {
        const row = rows[next++] as RefundRow;
        await pace.acquire();
        let result: RowResult;
        try {
          result = await runner.run(row);
        } finally {
          pace.release(true);
        }
        if (result.status === 'refunded') {
          counts.refunded += 1;
          counts.cents += decimalStringToCents(result.refunded_amount ?? '0');
        } else counts[result.status] += 1;
        progress?.update(counts.refunded, counts.failed + counts.invalid);
        await writeOut(ctx.io.stdout, `${JSON.stringify(result)}\n`);
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(concurrency, rows.length) }, worker));
    } finally {
      progress?.stop();
    }
    const failed = counts.failed + counts.invalid;
    const summary = `Refunded ${counts.refunded} of ${rows.length} rows (${formatMoney(centsToDecimalString(counts.cents))})${failed > 0 ? `; ${counts.failed} failed, ${counts.invalid} invalid` : ''}${resuming}. Journal: ${journal.file}`;
    ctx.io.stderr.write(`${summary}\n`);
    if (failed > 0) throw new CliError(`${failed} of ${rows.length} rows were not refunded (see their result lines)`, ExitCode.bulkPartial);
  } finally {
    await journal.close();
  }
}
