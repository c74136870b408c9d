// The rows of a bulk refund, from CSV (a header with `id`, and optionally `amount` in reais or
// `amount_cents`) or NDJSON (objects with `id` and optionally `amount` / `amount_cents`; so the
// output of `payctl transactions list -o ndjson` can be piped in). A row that cannot be used is
// kept with its error, to be reported without stopping the batch.
import { createHash } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { parse } from 'csv-parse/sync';
import { UsageError } from '../../../errors.js';
import { parseAmount, parseAmountCents } from '../../../validate/index.js';
import type { Snapshot } from '../applied.js';


export interface RefundRow {
  /** 1-based position among the data rows, stable across runs of the same input. */
  row: number;
  id?: string;
  /** Undefined: all that remains. */
  cents?: number;
  /** The row's own copy of the transaction, if it carries one (saves a lookup). */
  snapshot?: Snapshot;
  error?: string;
}

const ID = /^[0-9a-f]{32}$/;

function amountOf(amount: unknown, amountCents: unknown): { cents?: number; error?: string } {
  try {
    if (amountCents !== undefined && amountCents !== null && amountCents !== '') return { cents: parseAmountCents(String(amountCents), 'amount_cents') };
    if (amount !== undefined && amount !== null && amount !== '') return { cents: parseAmount(String(amount), 'amount') };
  } catch (err) {
    return { error: (err as Error).message };
  }
  return {};
}

function rowFrom(row: number, id: unknown, amount: unknown, amountCents: unknown, snapshot?: Snapshot): RefundRow {
  if (typeof id !== 'string' || !ID.test(id.trim())) return { row, error: `id: ${id === undefined || id === '' ? 'missing' : `"${String(id)}" is not a transaction id`}` };
  const { cents, error } = amountOf(amount, amountCents);
  if (error) return { row, id: id.trim(), error };
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
  /** SHA-256 of the input's bytes: the same input finds the same journal. */
  digest: string;
}

/**
 * Reads the rows as the input streams in: NDJSON when its first non-blank character opens an
 * object (parsed line by line, so a batch piped from a 100,000-line listing is never held whole),
 * CSV otherwise (its rows are short; parsed at the end).
 */
export async function readRefundInput(stream: AsyncIterable<Buffer | string>): Promise<RefundInput> {
  const hash = createHash('sha256');
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
    hash.update(buffer);
    take(decoder.write(buffer), false);
  }
  take(decoder.end(), true);
  const all = format === 'csv' ? fromCsv(csv.join('')) : rows;
  if (all.length === 0) throw new UsageError('--file: no rows to refund');
  return { rows: all, digest: hash.digest('hex') };
}
