// The rows a bulk run did not refund, as a file to run again: `payctl transactions refund --file
// refunds.failed.csv` touches only those. Written beside the input (refunds.csv →
// refunds.failed.csv; a retry of that file writes what still fails back to it), or where
// --failed-out says; for standard input, under the state directory. A CSV with the columns the
// refund reads (id, amount or amount_cents, the cell `all` for all that remains) and the error,
// cells made safe for a spreadsheet. A row that could not be read is written as it was, to be
// mended there: its amount is never turned into "all that remains".
import { randomUUID } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureDir } from '../../../config/dirs.js';
import { CliError } from '../../../errors.js';
import { stringify } from 'csv-stringify/sync';
import { safeCell } from '../../../output/csv.js';

export interface FailedRow {
  row: number;
  id: string | null;
  /** Undefined: all that remains. */
  cents: number | undefined;
  error: string;
  /** A row that could not be read: its cells as they were, never turned into "all that remains". */
  cells?: { id: string; amount: string; amount_cents: string };
}

/** Where the failed rows of `input` go. */
export function failedRowsPath(input: string, stateDir: string, given: string | undefined, now = new Date()): string {
  if (given !== undefined) return given;
  if (input === '-') {
    const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
    return path.join(stateDir, 'failed', `refund-${stamp}.csv`);
  }
  const dir = path.dirname(input);
  const base = path.basename(input).replace(/\.(csv|ndjson|jsonl|json|txt)$/i, '').replace(/\.failed$/i, '');
  return path.join(dir, `${base}.failed.csv`);
}

export function failedRowsCsv(rows: FailedRow[]): string {
  const records = [...rows]
    .sort((a, b) => a.row - b.row)
    .map((row) => {
      const cells = row.cells ?? { id: row.id ?? '', amount: '', amount_cents: row.cents === undefined ? 'all' : String(row.cents) };
      return [cells.id, cells.amount, cells.amount_cents, row.error].map((cell) => safeCell(cell));
    });
  return stringify([['id', 'amount', 'amount_cents', 'error'], ...records], { record_delimiter: '\n' });
}

/**
 * Writes the file whole or not at all (a temporary file renamed into place). Returns why it could
 * not be written, if it could not: the rows are in the result lines anyway, and a full disk here
 * must not hide what the batch itself ran into.
 */
export function writeFailedRows(file: string, rows: FailedRow[]): string | undefined {
  const temporary = `${file}.tmp-${randomUUID().slice(0, 8)}`;
  try {
    ensureDir(path.dirname(path.resolve(file)), 'directory for the rows not refunded');
    writeFileSync(temporary, failedRowsCsv(rows), { mode: 0o600 });
    renameSync(temporary, file);
    return undefined;
  } catch (err) {
    rmSync(temporary, { force: true });
    return err instanceof CliError ? err.message : `${file} cannot be written (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  }
}
