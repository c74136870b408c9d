// The rows of a bulk refund, read strictly: a column, a cell or a line payctl cannot read is an
// error naming it, never a default that moves more money.
//
//   - CSV with a header: `id`, and one amount column of those payctl knows, `amount` or `valor`
//     (reais) and `amount_cents` or `valor_centavos`; the cell `all` or `tudo` is all that remains.
//     Any other column is refused before anything is sent. Separated by `,` or, as a pt-BR
//     spreadsheet writes it, by `;` with decimal commas (told apart by the header); a BOM and CRLF
//     line ends are read as such.
//   - NDJSON: objects with `id` and one of the same amounts, so the output of `payctl transactions
//     list -o ndjson` pipes straight in (its `amount` is what remains).
//
// A row that cannot be used (a blank or unreadable amount, two amounts, more cells than the header
// has columns: an unquoted decimal comma) is kept with its error, to be reported without stopping
// the batch. `--full` refunds all that remains of every row, with no amount column. The input is
// read as it streams, each line bounded (64 KB): /dev/zero or a file with no line ends stops there.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { parse, type Parser } from 'csv-parse';
import { UsageError } from '../../../errors.js';
import { parseAmount, parseAmountCents } from '../../../validate/index.js';
import type { Snapshot } from '../applied.js';

export interface RefundRow {
  /** 1-based position among the data rows. */
  row: number;
  id?: string;
  /** This row is the n-th of its transaction in the input (1 unless --allow-duplicates). */
  occurrence?: number;
  /** Undefined: all that remains (said with `all`/`tudo`, or --full). */
  cents?: number;
  /** The row's own copy of the transaction, if it carries one (saves a lookup). */
  snapshot?: Snapshot;
  error?: string;
  /** A row that cannot be used keeps its cells as they were, for the file of rows to retry. */
  cells?: { id: string; amount: string; amount_cents: string };
}

export interface ReadOptions {
  /** --full: every row refunds all that remains; the input has no amounts. */
  full: boolean;
}

/** The longest line (row) payctl reads: a refund row is a few dozen bytes. */
export const MAX_LINE_BYTES = 64 * 1024;

const ID = /^[0-9a-f]{32}$/;
/** The cell that says "all that remains" in so many words. */
const ALL = /^(all|tudo)$/i;

/** The amount columns payctl reads, and what unit each is in. */
const AMOUNT_COLUMNS: Record<string, 'reais' | 'cents'> = { amount: 'reais', valor: 'reais', amount_cents: 'cents', valor_centavos: 'cents' };
/** Columns that are read but carry nothing to send: the error of a rows-to-retry file. */
const IGNORED_COLUMNS = new Set(['error']);
const KNOWN = 'id, amount or valor (reais), amount_cents or valor_centavos (cents)';

const given = (cell: unknown) => cell !== undefined && cell !== null && !(typeof cell === 'string' && cell.trim() === '');
const asText = (value: unknown) => (value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value));

/** One row's amount: from exactly one amount cell, or all that remains when said so. */
function amountOf(amounts: Array<[column: string, cell: unknown]>, options: ReadOptions): { cents?: number; error?: string } {
  if (options.full) return {};
  const present = amounts.filter(([, cell]) => given(cell));
  if (present.length === 0) return { error: `no amount: write one in ${amounts.map(([c]) => c).join(' or ') || 'amount'}, or all (tudo) to refund all that remains` };
  if (present.length > 1) return { error: `two amounts (${present.map(([c, cell]) => `${c} ${asText(cell)}`).join(', ')}): give one` };
  const [column, cell] = present[0] as [string, unknown];
  const text = asText(cell).trim();
  if (ALL.test(text)) return {};
  try {
    return { cents: AMOUNT_COLUMNS[column] === 'cents' ? parseAmountCents(text, column) : parseAmount(text, column) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

function rowFrom(row: number, id: unknown, amounts: Array<[column: string, cell: unknown]>, options: ReadOptions, snapshot?: Snapshot): RefundRow {
  const cellIn = (unit: 'reais' | 'cents') => asText(amounts.find(([column, cell]) => AMOUNT_COLUMNS[column] === unit && given(cell))?.[1]);
  const cells = { id: asText(id), amount: cellIn('reais'), amount_cents: cellIn('cents') };
  if (typeof id !== 'string' || !ID.test(id.trim())) return { row, error: `id: ${!given(id) ? 'missing' : `"${asText(id)}" is not a transaction id`}`, cells };
  const { cents: amount, error } = amountOf(amounts, options);
  if (error) return { row, id: id.trim(), error, cells };
  return { row, id: id.trim(), ...(amount !== undefined ? { cents: amount } : {}), ...(snapshot ? { snapshot } : {}) };
}

function fromNdjsonLine(line: string, row: number, options: ReadOptions): RefundRow {
  let object: Record<string, unknown>;
  try {
    object = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return { row, error: 'not a JSON object', cells: { id: '', amount: '', amount_cents: '' } };
  }
  if (typeof object !== 'object' || object === null || Array.isArray(object)) return { row, error: 'not a JSON object', cells: { id: '', amount: '', amount_cents: '' } };
  // A transaction as `transactions list` prints it: keep only what tells whether it was refunded since.
  const snapshot: Snapshot | undefined = Array.isArray(object.history)
    ? {
        amount: object.amount as string,
        status: object.status as string,
        ...(typeof object.on_behalf_of === 'string' ? { on_behalf_of: object.on_behalf_of } : {}),
        history: (object.history as Array<Record<string, unknown>>).map((h) => ({ id: h.id as string, operation_type: h.operation_type as string })),
      }
    : undefined;
  const amounts = Object.keys(AMOUNT_COLUMNS).filter((key) => key in object).map((key): [string, unknown] => [key, object[key]]);
  return rowFrom(row, object.id, amounts, options, snapshot);
}

/** The header's columns, checked: an id, one known amount column (none with --full), nothing else. */
function checkHeader(header: string[], options: ReadOptions): string[] {
  const columns = header.map((h) => h.trim().toLowerCase());
  const unknown = columns.filter((c) => c !== 'id' && !(c in AMOUNT_COLUMNS) && !IGNORED_COLUMNS.has(c));
  if (unknown.length > 0) {
    throw new UsageError(`--file: the header has ${unknown.length === 1 ? 'a column' : 'columns'} payctl does not read: ${unknown.map((c) => `"${c}"`).join(', ')}; the columns are ${KNOWN}. Nothing was sent`);
  }
  if (!columns.includes('id')) throw new UsageError(`--file: the header needs an "id" column (it has ${columns.map((c) => `"${c}"`).join(', ')}). Nothing was sent`);
  const amounts = columns.filter((c) => c in AMOUNT_COLUMNS);
  if (options.full && amounts.length > 0) throw new UsageError(`--file: --full refunds all that remains of every row, but the file has an amount column (${amounts.join(', ')}); drop one of the two. Nothing was sent`);
  if (!options.full && amounts.length === 0) {
    throw new UsageError(`--file: the header has no amount column (amount or valor in reais, amount_cents or valor_centavos); add one (the cell all or tudo refunds all that remains), or pass --full to refund all that remains of every row. Nothing was sent`);
  }
  return columns;
}

function fromCsvRecord(record: string[], columns: string[], row: number, options: ReadOptions, delimiter: string): RefundRow {
  if (record.length > columns.length) {
    const hint = delimiter === ',' ? '; an unquoted decimal comma? write "10,50" in quotes, 10.50, or separate the cells with ;' : '';
    return {
      row,
      error: `${record.length} cells for ${columns.length} columns${hint}`,
      cells: { id: record[columns.indexOf('id')] ?? '', amount: record.slice(columns.length - 1).join(delimiter), amount_cents: '' },
    };
  }
  const cell = (column: string) => record[columns.indexOf(column)];
  const amounts = columns.filter((c) => c in AMOUNT_COLUMNS).map((c): [string, unknown] => [c, cell(c)]);
  return rowFrom(row, cell('id'), amounts, options);
}

/** `;` when the header says so (a pt-BR spreadsheet's CSV), `,` otherwise. */
function delimiterOf(header: string): string {
  const outsideQuotes = header.replace(/"[^"]*"/g, '');
  const count = (c: string) => outsideQuotes.split(c).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

const tooLong = (where: string) => new UsageError(`--file: ${where} is longer than ${MAX_LINE_BYTES / 1024} KB; not a refund file (a refund row is a few dozen bytes). Nothing was sent`);

/**
 * The rows as the input streams in, one at a time (the reader pulls: nothing is read ahead of what
 * the batch takes). NDJSON when the first non-blank character opens an object, CSV otherwise; each
 * line at most MAX_LINE_BYTES. A file with no rows is an error at its end.
 */
export async function* refundRows(stream: AsyncIterable<Buffer | string>, options: ReadOptions = { full: false }): AsyncGenerator<RefundRow> {
  const decoder = new StringDecoder('utf8');
  const source = stream[Symbol.asyncIterator]();
  const decoded = (chunk: Buffer | string) => decoder.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  try {
    // The first line decides: NDJSON or CSV, and a CSV's separator.
    let head = '';
    let ended = false;
    while (!head.trimStart().includes('\n')) {
      const next = await source.next();
      if (next.done) {
        head += decoder.end();
        ended = true;
        break;
      }
      head = (head + decoded(next.value)).replace(/^\uFEFF/, '');
      if (!head.trimStart().includes('\n') && Buffer.byteLength(head.trimStart()) > MAX_LINE_BYTES) throw tooLong('the first line');
    }
    const start = head.trimStart();
    if (start === '') throw new UsageError('--file: no rows to refund');
    // The input from its first line on, as text.
    async function* text(): AsyncGenerator<string> {
      yield head;
      if (ended) return;
      for (let next = await source.next(); !next.done; next = await source.next()) yield decoded(next.value);
      yield decoder.end();
    }
    let count = 0;
    const rows = start.startsWith('{') ? ndjsonRows(text(), options) : csvRows(text(), start.split('\n')[0] as string, options);
    for await (const row of rows) {
      count = row.row;
      yield row;
    }
    if (count === 0) throw new UsageError('--file: no rows to refund');
  } finally {
    await source.return?.();
  }
}

async function* ndjsonRows(text: AsyncIterable<string>, options: ReadOptions): AsyncGenerator<RefundRow> {
  let pending = '';
  let row = 0;
  for await (const chunk of text) {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() as string;
    if (Buffer.byteLength(pending) > MAX_LINE_BYTES) throw tooLong(`row ${row + 1}`);
    for (const line of lines) {
      if (Buffer.byteLength(line) > MAX_LINE_BYTES) throw tooLong(`row ${row + 1}`);
      if (line.trim() !== '') yield fromNdjsonLine(line, ++row, options);
    }
  }
  if (pending.trim() !== '') yield fromNdjsonLine(pending, ++row, options);
}

/** CSV records as they are parsed (csv-parse, pulled: it reads no further ahead than its buffer); the header checked first. */
async function* csvRows(text: AsyncIterable<string>, header: string, options: ReadOptions): AsyncGenerator<RefundRow> {
  const delimiter = delimiterOf(header);
  const parser: Parser = parse({ delimiter, bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, max_record_size: MAX_LINE_BYTES });
  // Its errors reach the loop below through the parser; the pipeline's own promise is left quiet.
  pipeline(Readable.from(text), parser).catch(() => undefined);
  let columns: string[] | undefined;
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!columns) columns = checkHeader(record, options);
      else yield fromCsvRecord(record, columns, ++row, options, delimiter);
    }
  } catch (err) {
    if (err instanceof UsageError) throw err;
    // csv-parse counts lines from the header's: the data row is one less.
    const lines = (err as { lines?: number }).lines;
    if ((err as { code?: string }).code === 'CSV_MAX_RECORD_SIZE') throw tooLong(`row ${lines !== undefined ? lines - 1 : row + 1}`);
    throw new UsageError(`--file: not readable as CSV at row ${row + 1} (${(err as Error).message}). Nothing was sent`);
  } finally {
    parser.destroy();
  }
}
