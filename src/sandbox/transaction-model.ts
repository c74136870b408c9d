import { randomInt } from 'node:crypto';
import { newId, randomDigits } from './ids.js';
import { centsToDecimal } from './money.js';
import { addDays, isoTimestamp, startOfDay } from './time.js';
import { sellerOnDocuments } from './sellers.js';
import { newSplitRule } from './splits.js';
import { collectedCents, type SplitRuleSpec } from './split-parts.js';
import type {
  HistoryEntry,
  InstallmentPlan,
  PaymentMethod,
  PaymentType,
  SandboxState,
  StoredTransaction,
  TransactionStatus,
} from './types.js';

// Building and changing transaction objects. Every change goes through here so that each one
// appends its history entry and bumps updated_at; handlers only decide what changes.

export const GATEWAY = 'sandbox';

export interface HistoryDraft {
  operation_type: 'created' | 'authorization' | 'capture' | 'void' | 'paid' | 'update' | 'cancellation' | 'dispute' | 'chargeback';
  status: 'succeeded' | 'failed' | 'pre_authorized' | 'pending';
  amount_cents: number;
  response_code?: string;
  response_message?: string;
  /** Card operations carry the acquirer's authorization fields; other operations leave them empty. */
  acquirer?: boolean;
}

function historyEntry(state: SandboxState, transactionId: string, draft: HistoryDraft, now: Date): HistoryEntry {
  return {
    id: newId(state),
    transaction: transactionId,
    amount: centsToDecimal(draft.amount_cents),
    operation_type: draft.operation_type,
    status: draft.status,
    response_code: draft.response_code ?? '00',
    response_message: draft.response_message ?? 'Success',
    authorization_code: draft.acquirer ? randomDigits(6) : '',
    authorizer_id: draft.acquirer ? randomDigits(9) : '',
    authorization_nsu: draft.acquirer ? randomDigits(9) : '',
    gatewayResponseTime: draft.acquirer ? String(randomInt(20, 200)) : '0',
    authorizer: draft.acquirer ? GATEWAY : '',
    created_at: isoTimestamp(now),
  };
}

export function recordChange(state: SandboxState, stored: StoredTransaction, draft: HistoryDraft, now: Date): void {
  stored.txn.history.push(historyEntry(state, stored.txn.id, draft, now));
  stored.txn.updated_at = isoTimestamp(now);
}

// Nominal sandbox rates: enough for fees to look and move like real ones, not a price list.
const FEE_RATES: Record<PaymentType, { basisPoints: number; fixedCents: number; label: string }> = {
  credit: { basisPoints: 299, fixedCents: 0, label: 'Sandbox credit card fee' },
  pix: { basisPoints: 99, fixedCents: 0, label: 'Sandbox PIX fee' },
  boleto: { basisPoints: 0, fixedCents: 250, label: 'Sandbox boleto fee' },
  bolepix: { basisPoints: 0, fixedCents: 250, label: 'Sandbox boleto fee' },
};

/** Fees apply to money actually collected: none while pending, authorized only, failed, canceled or charged back. */
export function refreshFees(stored: StoredTransaction): void {
  const { txn } = stored;
  const collected = collectedCents(stored);
  const rate = FEE_RATES[txn.payment_type];
  txn.fees = centsToDecimal(Math.min(collected, Math.round((collected * rate.basisPoints) / 10_000) + rate.fixedCents));
  const type = `sandbox_${txn.payment_type}_fee`;
  txn.fee_details = collected > 0 ? { amount: txn.fees, prepaid: false, currency: txn.currency, type, description: rate.label } : {};
}

/** When the seller receives the money: D+30 for card sales, D+1 for boleto and PIX. */
export function expectedOn(paymentType: PaymentType, from: Date): string {
  return isoTimestamp(addDays(startOfDay(from), paymentType === 'credit' ? 30 : 1));
}

/** What a sale's request gives whatever its payment type (transactions-create.ts). */
export interface SaleTerms {
  onBehalfOf: string;
  referenceId: string | null;
  description: string | null;
  metadata: Record<string, string>;
  cents: number;
  currency: string;
  /** Other sellers' parts (splits.ts), recipients already checked. */
  splitRules: SplitRuleSpec[];
}

/** How the sale was made. A card sale (credit) names its card; a sale is captured once it has succeeded. */
export interface NewTransaction {
  payment_type: PaymentType;
  status: TransactionStatus;
  customer: string | null;
  payment_method: PaymentMethod;
  installment_plan?: InstallmentPlan | null;
  card_id?: string;
  /** The day a pending sale is due (a boleto's expiration date): its expected_on counts from it. */
  due?: Date;
}

export function addTransaction(state: SandboxState, terms: SaleTerms, spec: NewTransaction, history: HistoryDraft[], now: Date): StoredTransaction {
  const id = newId(state);
  const at = isoTimestamp(now);
  state.counters.seq += 1;
  const approved = spec.status === 'succeeded' || spec.status === 'pre_authorized';
  // A card sale gets its sales receipt only once approved (a declined one has none); any other
  // sale gets it at once, pending like the sale until paid (receipts.ts).
  const cardSale = spec.payment_type === 'credit';
  // Every sale is numbered, card or not, from one counter.
  state.counters.transaction_number += 1;
  // expected_on counts from now for a paid sale; for a pending one from its due day, when the seller
  // would be paid if the buyer paid then (paying sets it again: approve).
  const paidFrom = spec.status === 'succeeded' ? now : spec.status === 'pending' ? spec.due : undefined;
  const stored: StoredTransaction = {
    seq: state.counters.seq,
    created_ms: now.getTime(),
    // What a void may still take back (or a capture may still take): nothing after a decline.
    remaining_cents: spec.status === 'failed' ? 0 : terms.cents,
    card_id: spec.card_id ?? null,
    txn: {
      id,
      resource: 'transaction',
      status: spec.status,
      amount: centsToDecimal(terms.cents),
      original_amount: centsToDecimal(terms.cents),
      currency: terms.currency,
      description: terms.description,
      payment_type: spec.payment_type,
      transaction_number: String(state.counters.transaction_number),
      gateway_authorizer: GATEWAY,
      app_transaction_uid: null,
      refunds: null,
      rewards: null,
      discounts: null,
      pre_authorization: null,
      sales_receipt: approved || !cardSale ? newId(state) : null,
      on_behalf_of: terms.onBehalfOf,
      customer: spec.customer,
      statement_descriptor: sellerOnDocuments(state, terms.onBehalfOf).statement_descriptor,
      payment_method: spec.payment_method,
      source: null,
      installment_plan: spec.installment_plan ?? null,
      refunded: false,
      voided: false,
      captured: spec.status === 'succeeded',
      fees: '0.00',
      fee_details: {},
      uri: `/v1/marketplaces/${state.marketplace_id}/transactions/${id}`,
      metadata: terms.metadata,
      expected_on: paidFrom ? expectedOn(spec.payment_type, paidFrom) : null,
      created_at: at,
      updated_at: at,
      payment_authorization: null,
      history: [],
      reference_id: terms.referenceId,
      split_rules: terms.splitRules.map((rule) => newSplitRule(state, rule, id, at)),
    },
    receivable_indexes: [],
    credited_cents: 0,
  };
  for (const draft of history) recordChange(state, stored, draft, now);
  refreshFees(stored);
  state.transactions.append(stored);
  return stored;
}
