// The record that makes a bulk refund exactly-once across crashes: one file per input (named by a
// hash of its content) in the state directory, one JSON line per event. A row's intent is written
// before its request is sent, its outcome after the answer; a run of the same input reads it back
// and skips rows that are done, and checks rows that were in flight against the transaction
// before sending anything again. It holds transaction ids, amounts and history ids: no card data.
import { mkdir, open, readFile, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Snapshot } from './input.js';

export type JournalEntry =
  | { t: 'intent'; row: number; id: string; cents: number; before: Snapshot }
  | { t: 'done'; row: number; id: string; refunded_cents: number }
  /** `final`: the API refused (no point trying again); otherwise the outcome stayed unknown. */
  | { t: 'failed'; row: number; id: string; error: string; final: boolean };

/** The journal of an input, by the SHA-256 of its content. */
export function journalPath(stateDir: string, digest: string): string {
  return path.join(stateDir, 'journals', `refund-${digest.slice(0, 24)}.ndjson`);
}

export class Journal {
  private constructor(
    readonly file: string,
    private readonly handle: FileHandle,
    /** Per row: the intent of its first attempt (the state everything is compared with), and its last entry. */
    readonly rows: Map<number, { first?: Extract<JournalEntry, { t: 'intent' }>; last: JournalEntry }>,
  ) {}

  static async open(file: string, restart: boolean): Promise<Journal> {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    if (restart) await rm(file, { force: true });
    const rows: Journal['rows'] = new Map();
    let text = '';
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    for (const line of text.split('\n')) {
      let entry: JournalEntry;
      try {
        entry = JSON.parse(line) as JournalEntry;
      } catch {
        // A line cut short by a kill: the request it announced was never sent.
        continue;
      }
      const known = rows.get(entry.row);
      rows.set(entry.row, { ...(known?.first ? { first: known.first } : entry.t === 'intent' ? { first: entry } : {}), last: entry });
    }
    return new Journal(file, await open(file, 'a', 0o600), rows);
  }

  /** Appends an entry; resolves once it is written (an intent before its request goes out). */
  async write(entry: JournalEntry): Promise<void> {
    await this.handle.write(`${JSON.stringify(entry)}\n`);
    const known = this.rows.get(entry.row);
    this.rows.set(entry.row, { ...(known?.first ? { first: known.first } : entry.t === 'intent' ? { first: entry } : {}), last: entry });
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}
