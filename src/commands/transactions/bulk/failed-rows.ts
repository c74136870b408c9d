// The rows a bulk run did not refund, as a file to run again: `payctl transactions refund --file
// refunds.failed.csv` touches only those. Written beside the input (refunds.csv →
// refunds.failed.csv; a retry of that file writes what still fails back to it), or where
// --failed-out says; for standard input, under the state directory. A CSV with the columns the
// refund reads (id, amount or amount_cents, the cell `all` for all that remains) and the error,
// cells made safe for a spreadsheet, in the order the rows finished. A row that could not be read is written as it was, to be
// mended there: its amount is never turned into "all that remains".
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { ensureDir } from '../../../platform/dirs.js';
import { CliError } from '../../../errors.js';
import { stringify } from 'csv-stringify/sync';
import { safeCell } from '../../../output/csv.js';
import { stopBeforeExit } from '../../../platform/interrupt.js';

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

const HEADER = 'id,amount,amount_cents,error\n';
/** Lines are written in batches of about this many characters. */
const FLUSH_AT = 64 * 1024;

/** One row as a line of the file. */
function failedRowLine(row: FailedRow): string {
  const cells = row.cells ?? { id: row.id ?? '', amount: '', amount_cents: row.cents === undefined ? 'all' : String(row.cents) };
  return stringify([[cells.id, cells.amount, cells.amount_cents, row.error].map((cell) => safeCell(cell))], { record_delimiter: '\n' });
}

/**
 * The file of rows not refunded, written as the rows finish (in that order), so that a batch in
 * which every row fails holds none of them in memory. It appears whole or not at all: the lines go
 * to a temporary file beside it, renamed into place at the end; Ctrl-C removes it. A file that
 * cannot be written does not stop the batch: the rows are in the result lines anyway, and a full
 * disk here must not hide what the batch itself ran into.
 */
export class FailedRowsFile {
  private readonly temporary: string;
  private fd: number | undefined;
  private pending = '';
  private problem: string | undefined;
  private readonly unregister: () => void;
  count = 0;

  constructor(private readonly file: string) {
    this.temporary = `${file}.tmp-${randomUUID().slice(0, 8)}`;
    this.unregister = stopBeforeExit(() => this.discard());
  }

  add(row: FailedRow): void {
    this.count += 1;
    if (this.problem) return;
    this.pending += failedRowLine(row);
    if (this.pending.length >= FLUSH_AT) this.flush();
  }

  /** Puts the file in place; returns why it could not be written, if it could not. */
  finish(): string | undefined {
    this.unregister();
    if (this.count === 0) return undefined;
    this.flush();
    if (!this.problem) {
      try {
        closeSync(this.fd as number);
        this.fd = undefined;
        renameSync(this.temporary, this.file);
      } catch (err) {
        this.fail(err);
      }
    }
    this.discard();
    return this.problem;
  }

  private flush(): void {
    if (this.problem || this.pending === '') return;
    try {
      if (this.fd === undefined) {
        ensureDir(path.dirname(path.resolve(this.file)), 'directory for the rows not refunded');
        this.fd = openSync(this.temporary, 'wx', 0o600);
        this.pending = HEADER + this.pending;
      }
      const bytes = Buffer.from(this.pending);
      for (let done = 0; done < bytes.length; ) done += writeSync(this.fd, bytes, done);
      this.pending = '';
    } catch (err) {
      this.fail(err);
    }
  }

  private fail(err: unknown): void {
    this.problem = err instanceof CliError ? err.message : `${this.file} cannot be written (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
    this.pending = '';
    this.discard();
  }

  private discard(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    rmSync(this.temporary, { force: true });
  }
}
