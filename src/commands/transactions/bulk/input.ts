// The rows of a bulk refund, from CSV (a header with `id`, and optionally `amount` in reais or
// `amount_cents`) or NDJSON (objects with `id` and optionally `amount` / `amount_cents`; so the
// output of `payctl transactions list -o ndjson` can be piped in). A row that cannot be used is
// kept with its error, to be reported without stopping the batch.
import { parse } from 'csv-parse/sync';
import { UsageError } from '../../../errors.js';
import { parseAmount, parseAmountCents } from '../../../validate/index.js';

/** What the row says the transaction looked like, when it carries the whole transaction (NDJSON from a list). */
export interface Snapshot {
  amount?: string;
  status?: string;
  history?: Array<{ id?: string; operation_type?: string }>;
}

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

function fromNdjson(text: string): RefundRow[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      let object: Record<string, unknown>;
      try {
        object = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return { row: i + 1, error: 'not a JSON object' };
      }
      if (typeof object !== 'object' || object === null || Array.isArray(object)) return { row: i + 1, error: 'not a JSON object' };
      const snapshot = Array.isArray(object.history) ? { amount: object.amount as string, status: object.status as string, history: object.history as Snapshot['history'] } : undefined;
      return rowFrom(i + 1, object.id, object.amount, object.amount_cents, snapshot);
    });
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

/** NDJSON when the first non-blank character opens an object, CSV otherwise. */
export function parseRefundRows(text: string): RefundRow[] {
  const rows = text.trimStart().startsWith('{') ? fromNdjson(text) : fromCsv(text);
  if (rows.length === 0) throw new UsageError('--file: no rows to refund');
  return rows;
}
