// How a transaction shows that a refund or a capture went through, compared with a snapshot
// taken before the request: used whenever an answer was lost and the ledger must tell.
import type { Intent } from '../../ledger/ledger.js';
import { decimalStringToCents } from '../../validate/index.js';
import type { Transaction } from './shared.js';

/** What the ledger keeps of a transaction before moving its money: no card data. */
export interface Snapshot {
  amount?: string;
  status?: string;
  on_behalf_of?: string;
  /** Only what tells a new void from an old one: a batch of 10,000 rows keeps 10,000 of these. */
  history?: Array<{ id?: string; operation_type?: string }>;
}

export function snapshotOf(tx: Snapshot): Snapshot {
  return { amount: tx.amount ?? '0', status: tx.status ?? '', history: (tx.history ?? []).map((h) => ({ id: h.id, operation_type: h.operation_type })) };
}

/** A new void in the history, the amount gone down by at least ours, or the transaction newly canceled. */
export function refundApplied(before: Snapshot, now: Transaction, cents: number): boolean {
  const seen = new Set((before.history ?? []).map((h) => h.id));
  const newVoid = (now.history ?? []).some((h) => !seen.has(h.id) && h.operation_type === 'void');
  const dropped = decimalStringToCents(before.amount ?? '0') - decimalStringToCents(now.amount ?? '0');
  return newVoid || dropped >= cents || (now.status === 'canceled' && before.status !== 'canceled');
}

/** Captured: no longer waiting for a capture. */
export function captureApplied(before: Snapshot, now: Transaction): boolean {
  return before.status === 'pre_authorized' && now.status !== 'pre_authorized';
}

/**
 * Whether `now` shows the move `intent` stands for applied, by the intent's own operation: a
 * capture run after a refund whose answer was lost must judge that refund as a refund.
 */
export function transactionMoveApplied(intent: Pick<Intent, 'operation' | 'before' | 'amount_cents'>, now: Transaction): boolean {
  const before = JSON.parse(intent.before ?? '{}') as Snapshot;
  switch (intent.operation) {
    case 'transactions.void':
      return refundApplied(before, now, intent.amount_cents ?? 0);
    case 'transactions.capture':
      return captureApplied(before, now);
    case 'boletos.cancel':
      return now.status === 'canceled' && before.status !== 'canceled';
    default:
      return false;
  }
}
