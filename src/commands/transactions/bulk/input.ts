// The rows of a bulk refund, from CSV (a header with `id`, and optionally `amount` in reais or
// `amount_cents`; the cell `all` or `tudo` is all that remains) or NDJSON (objects with `id` and
// optionally `amount` / `amount_cents`; so the output of `payctl transactions list -o ndjson` can
// be piped in). A row that cannot be used is kept with its error, to be reported without stopping
// the batch. The input's bytes do not identify anything: what was already refunded is known per
// sale, from the ledger (an edited or re-saved file refunds only what was not done).
import { StringDecoder } from 'node:string_decoder';
import { parse } from 'csv-parse/sync';
import { UsageError } from '../../../errors.js';
import { parseAmount, parseAmountCents } from '../../../validate/index.js';
import type { Snapshot } from '../applied.js';


export interface RefundRow {
  /** 1-based position among the data rows. */
  row: number;
  id?: string;
  /** This row is the n-th of its transaction in the input (1 unless --allow-duplicates). */
  occurrence?: number;
  /** Undefined: all that remains. */
  cents?: number;
  /** The row's own copy of the transaction, if it carries one (saves a lookup). */
  snapshot?: Snapshot;
  error?: string;
  /** A row that cannot be used keeps its cells as they were, for the file of rows to retry. */
  cells?: { id: string; amount: string; amount_cents: string };
}

const ID = /^[0-9a-f]{32}$/;

/** The cell that says "all that remains" in so many words. */
const ALL = /^(all|tudo)$/i;

function amountOf(amount: unknown, amountCents: unknown): { cents?: number; error?: string } {
  if ([amount, amountCents].some((cell) => typeof cell === 'string' && ALL.test(cell.trim()))) return {};
  try {
    if (amountCents !== undefined && amountCents !== null && amountCents !== '') return { cents: parseAmountCents(String(amountCents), 'amount_cents') };
    if (amount !== undefined && amount !== null && amount !== '') return { cents: parseAmount(String(amount), 'amount') };
  } catch (err) {
    return { error: (err as Error).message };
  }
  return {};
}

function rowFrom(row: number, id: unknown, amount: unknown, amountCents: unknown, snapshot?: Snapshot): RefundRow {
  const cell = (value: unknown) => (value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value));
  const cells = { id: cell(id), amount: cell(amount), amount_cents: cell(amountCents) };
  if (typeof id !== 'string' || !ID.test(id.trim())) return { row, error: `id: ${id === undefined || id === '' ? 'missing' : `"${String(id)}" is not a transaction id`}`, cells };
  const { cents, error } = amountOf(amount, amountCents);
  if (error) return { row, id: id.trim(), error, cells };
  return { row, id: id.trim(), ...(cents !== undefined ? { cents } : {}), ...(snapshot ? { snapshot } : {}) };
}

function fromNdjsonLine(line: string, row: number): RefundRow {
  let object: Record<string, unknown>;
  try {
    object = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return { row, error: 'not a JSON object' };
  }
  if (typeof object !== 'object' || object === null || Array.isArray(object)) return { row, error: 'not a JSON object' };
  // A transaction as `transactions list` prints it: keep only what tells whether it was refunded since.
  const snapshot: Snapshot | undefined = Array.isArray(object.history)
    ? {
        amount: object.amount as string,
        status: object.status as string,
        ...(typeof object.on_behalf_of === 'string' ? { on_behalf_of: object.on_behalf_of } : {}),
        history: (object.history as Array<Record<string, unknown>>).map((h) => ({ id: h.id as string, operation_type: h.operation_type as string })),
      }
    : undefined;
  return rowFrom(row, object.id, object.amount, object.amount_cents, snapshot);
}

function fromCsv(text: string): RefundRow[] {
  let records: Array<Record<string, string>>;
  try {
    records = parse(text, { columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()), skip_empty_lines: true, trim: true, relax_column_count: true });
  } catch (err) {
    throw new UsageError(`--file: not readable as CSV (${(err as Error).message})`);
  }
  if (records.length > 0 && !('id' in (records[0] as object))) throw new UsageError('--file: the CSV header needs an "id" column (and optionally "amount" or "amount_cents")');
  return records.map((r, i) => rowFrom(i + 1, r.id, r.amount, r.amount_cents));
}

export interface RefundInput {
  rows: RefundRow[];
}

/** Numbers each row among the rows of its transaction: the second refund of a sale is its second row. */
function numberOccurrences(rows: RefundRow[]): RefundRow[] {
  const seen = new Map<string, number>();
  for (const row of rows) {
    if (!row.id || row.error) continue;
    const n = (seen.get(row.id) ?? 0) + 1;
    seen.set(row.id, n);
    row.occurrence = n;
  }
  return rows;
}

/**
 * Reads the rows as the input streams in: NDJSON when its first non-blank character opens an
 * object (parsed line by line, so a batch piped from a 100,000-line listing is never held whole),
 * CSV otherwise (its rows are short; parsed at the end).
 */
export async function readRefundInput(stream: AsyncIterable<Buffer | string>): Promise<RefundInput> {
  const decoder = new StringDecoder('utf8');
  const rows: RefundRow[] = [];
  let format: 'ndjson' | 'csv' | undefined;
  let pending = '';
  const csv: string[] = [];
  const take = (text: string, final: boolean) => {
    if (format === undefined) {
      const start = text.trimStart();
      if (start === '' && !final) {
        pending += text;
        return;
      }
      format = (pending + text).trimStart().startsWith('{') ? 'ndjson' : 'csv';
    }
    if (format === 'csv') {
      csv.push(pending, text);
      pending = '';
      return;
    }
    const lines = (pending + text).split('\n');
    pending = final ? '' : (lines.pop() as string);
    for (const line of lines) if (line.trim() !== '') rows.push(fromNdjsonLine(line, rows.length + 1));
  };
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    take(decoder.write(buffer), false);
  }
  take(decoder.end(), true);
  const all = format === 'csv' ? fromCsv(csv.join('')) : rows;
  if (all.length === 0) throw new UsageError('--file: no rows to refund');
  return { rows: numberOccurrences(all) };
}
