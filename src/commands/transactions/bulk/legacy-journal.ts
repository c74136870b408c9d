// Bulk refunds before the ledger kept a journal per input: <state>/journals/refund-<hash>.ndjson,
// one line per event ({t:'intent'|'done'|'failed', row, id, …}). A batch begun under that version
// and run again under this one must not start over (a partial refund would be made twice), so
// its journal is read into the ledger once, then renamed so it is never read again.
import { readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import type { IntentState, Ledger, NewIntent } from '../../../ledger/ledger.js';

type Entry =
  | { t: 'intent'; row: number; id: string; cents: number; before: unknown }
  | { t: 'done'; row: number; id: string; refunded_cents: number }
  | { t: 'failed'; row: number; id: string; error: string; final: boolean };

export function legacyJournalPath(stateDir: string, digest: string): string {
  return path.join(stateDir, 'journals', `refund-${digest.slice(0, 24)}.ndjson`);
}

/** Imports the journal of this input, if an earlier version left one; returns how many rows it held. */
export function importLegacyJournal(stateDir: string, digest: string, ledger: Ledger, batch: string): number {
  const file = legacyJournalPath(stateDir, digest);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return 0;
  }
  const rows = new Map<number, { first?: Extract<Entry, { t: 'intent' }>; last: Entry }>();
  for (const line of text.split('\n')) {
    let entry: Entry;
    try {
      entry = JSON.parse(line) as Entry;
    } catch {
      continue; // a line cut short by a kill: the request it announced was never sent
    }
    if (typeof entry?.row !== 'number' || typeof entry.id !== 'string') continue;
    const known = rows.get(entry.row);
    rows.set(entry.row, { ...(known?.first ? { first: known.first } : entry.t === 'intent' ? { first: entry } : {}), last: entry });
  }
  // Only into a batch the ledger does not know yet: a second import would duplicate the rows.
  if (ledger.batchRows(batch).size === 0) {
    for (const [row, { first, last }] of rows) {
      // A row that never wrote an intent never sent anything: unless it was refused for good, it starts fresh.
      if (!first && !(last.t === 'failed' && last.final)) continue;
      const state: IntentState = last.t === 'done' ? 'applied' : last.t === 'failed' ? (last.final ? 'refused' : 'unknown') : 'pending';
      const intent: NewIntent = {
        key: `transaction:${last.id}`,
        operation: 'transactions.void',
        target: last.id,
        amount_cents: last.t === 'done' ? last.refunded_cents : (first?.cents ?? null),
        before: first ? JSON.stringify(first.before) : null,
        batch,
        row,
        state,
        detail: last.t === 'failed' ? last.error : 'imported from the journal of an earlier payctl',
        // Its request, if any, went out before this version ran: it can have landed by now.
        settle_until: Date.now(),
      };
      ledger.record(intent);
    }
  }
  renameSync(file, `${file}.imported`);
  return rows.size;
}
