import { findBy } from './db/queries.js';
import { found } from './errors.js';
import { newId } from './ids.js';
import { listEnvelope, parseListQuery, type ListEnvelope } from './list.js';
import { centsToDecimal, decimalToCents } from './money.js';
import { notePayoutDate } from './payouts.js';
import { expectedOn } from './transaction-model.js';
import { addMonths, isoTimestamp } from './time.js';
import { holdsMoney, partsOf, type Part } from './split-parts.js';
import { showParts } from './splits.js';
import type { Receivable, SandboxState, StoredTransaction } from './types.js';

// What the seller will be paid for a sale, and when: one receivable per installment. They follow
// the transaction: created when its money is collected, re-split when part of it is voided,
// canceled when all of it is or it is charged back.

/** Splits cents into `parts` as evenly as cents allow; the first parts take the remainder. */
export function splitCents(total: number, parts: number): number[] {
  const base = Math.floor(total / parts);
  const remainder = total - base * parts;
  return Array.from({ length: parts }, (_, i) => base + (i < remainder ? 1 : 0));
}

/** A transaction's receivables, through its index, in installment order. */
function receivablesOf(state: SandboxState, stored: StoredTransaction): Receivable[] {
  const found = stored.receivable_indexes.map((i) => state.receivables.at(i)).filter((r): r is Receivable => r !== undefined);
  return found.sort((a, b) => Number(a.installment) - Number(b.installment));
}

function sumCents(receivables: Receivable[], pick: (r: Receivable) => number): number {
  return receivables.reduce((total, r) => total + pick(r), 0);
}

/**
 * Brings the transaction's receivables in line with it; call after every change that moves money
 * (through settleTransaction). Each party of the sale (its seller and every split recipient,
 * splits.ts) has receivables of its own. Receivables already paid out stay as they were: a refund
 * after the payout is taken from that party's balance instead (ledger.ts).
 */
export function syncReceivables(state: SandboxState, stored: StoredTransaction, now: Date): void {
  const { txn } = stored;
  const existing = receivablesOf(state, stored);
  const at = isoTimestamp(now);
  const cancel = (receivables: Receivable[]) => {
    for (const receivable of receivables) {
      receivable.status = 'canceled';
      receivable.canceled_at = at;
    }
  };
  const open = (receivables: Receivable[]) => receivables.filter((r) => r.status === 'pending');
  const holds = holdsMoney(txn.status);
  if (txn.status === 'canceled' || txn.status === 'charged_back' || (holds && stored.remaining_cents === 0)) {
    cancel(open(existing));
    showParts(partsOf(stored), now);
    return;
  }
  if (!holds) return;

  const parts = partsOf(stored);
  showParts(parts, now);
  // A party's receivables are those of its rule (null: the sale's own seller). A recipient whose
  // rule was removed keeps what was paid out and loses what was not.
  const partyOf = (owner: string, rule: string | null) => `${owner} ${rule ?? ''}`;
  const parties = new Set(parts.map((p) => partyOf(p.owner, p.rule?.id ?? null)));
  cancel(open(existing.filter((r) => !parties.has(partyOf(r.recipient, r.split_rule)))));
  for (const part of parts) {
    const mine = existing.filter((r) => partyOf(r.recipient, r.split_rule) === partyOf(part.owner, part.rule?.id ?? null));
    if (mine.length > 0) resplit(mine, part);
    // Nothing to pay out, nothing to receive: a seller whose part does not cover the fees it pays
    // has only the debit in its balance (ledger.ts).
    else if (part.gross - part.fee > 0) addReceivables(state, stored, part, at, now);
  }
}

/** Spreads what a party has not been paid yet over its open receivables. */
function resplit(receivables: Receivable[], part: Part): void {
  const open = receivables.filter((r) => r.status === 'pending');
  if (open.length === 0) return;
  const paid = receivables.filter((r) => r.status === 'paid');
  const paidGross = sumCents(paid, (r) => decimalToCents(r.gross_amount));
  const paidFees = sumCents(paid, (r) => decimalToCents(r.gross_amount) - decimalToCents(r.amount));
  const gross = splitCents(Math.max(0, part.gross - paidGross), open.length);
  const fees = splitCents(Math.max(0, part.fee - paidFees), open.length);
  open.forEach((receivable, i) => {
    receivable.gross_amount = centsToDecimal(gross[i] ?? 0);
    receivable.amount = centsToDecimal(Math.max(0, (gross[i] ?? 0) - (fees[i] ?? 0)));
  });
}

function addReceivables(state: SandboxState, stored: StoredTransaction, part: Part, at: string, now: Date): void {
  const { txn } = stored;
  const count = txn.payment_type === 'credit' ? (txn.installment_plan?.number_installments ?? 1) : 1;
  const gross = splitCents(part.gross, count);
  // The fee comes off each installment in proportion, split the same way as the gross.
  const fees = splitCents(part.fee, count);
  // Installment 1 settles on the transaction's expected_on (D+30 for cards, D+1 for boleto and
  // PIX); each later one a calendar month after the one before.
  const first = new Date(txn.expected_on ?? expectedOn(txn.payment_type, now));
  const authorization = txn.history.find((h) => h.operation_type === 'authorization' && h.authorization_code !== '');
  for (let i = 0; i < count; i += 1) {
    const expected = isoTimestamp(addMonths(first, i));
    stored.receivable_indexes.push(state.receivables.length);
    notePayoutDate(state, expected);
    state.receivables.append({
      id: newId(state),
      resource: 'receivable',
      status: 'pending',
      recipient: part.owner,
      transaction: txn.id,
      split_rule: part.rule?.id ?? null,
      installment: String(i + 1),
      liable: part.rule && !part.rule.liable ? 'false' : 'true',
      amount: centsToDecimal((gross[i] ?? 0) - (fees[i] ?? 0)),
      gross_amount: centsToDecimal(gross[i] ?? 0),
      anticipation_fee: '0.00',
      paid_at: null,
      created_at: at,
      transaction_created_at: txn.created_at,
      canceled_at: null,
      expected_on: expected,
      authorization_code: authorization?.authorization_code ?? null,
      id_original_receivable: null,
      prepaid: 'false',
      transfer: null,
    });
  }
}

export function findReceivable(state: SandboxState, id: string): Receivable {
  return found(findBy<Receivable>(state, 'receivables', 'id', id), 'receivable', id);
}

/** The statuses a receivables list may be filtered by. */
export const RECEIVABLE_FILTER_VALUES = { status: ['pending', 'paid', 'canceled'] satisfies Receivable['status'][] };

/**
 * A transaction's receivables (the caller has checked it exists) in installment order, whatever
 * `sort` says: that is the order they settle in.
 */
export function listTransactionReceivables(state: SandboxState, stored: StoredTransaction, params: URLSearchParams, uri: string): ListEnvelope<Receivable> {
  const query = parseListQuery(params, ['status'], RECEIVABLE_FILTER_VALUES);
  const statuses = query.filters.get('status');
  const matching = receivablesOf(state, stored).filter(
    (r) => query.createdWithin(Date.parse(r.created_at)) && (!statuses || statuses.has(r.status)),
  );
  return listEnvelope(uri, matching, query);
}
