import { findBy, page } from './db/queries.js';
import { found, SandboxError } from './errors.js';
import { requireSeller } from './sellers.js';
import { pageEnvelope, parseListQuery, type ListEnvelope } from './list.js';
import { centsToDecimal, decimalToCents } from './money.js';
import { settleTransaction } from './settle.js';
import { expectedOn, recordChange, refreshFees, type HistoryDraft } from './transaction-model.js';
import { isoTimestamp } from './time.js';
import type { SandboxState, StoredTransaction, Transaction } from './types.js';
import { mergeMetadata } from './validate.js';
import type { RequestBody } from '../provider/schemas/requests.js';

// Everything that happens to a transaction after it is created. Each plan* function validates
// the body before the state is locked and returns the change to apply to the stored transaction;
// a change throws before touching anything when the transaction is not in a state that allows it.

export type TransactionChange = (stored: StoredTransaction, state: SandboxState, now: Date) => void;

export function findTransaction(state: SandboxState, id: string): StoredTransaction {
  return found(findBy<StoredTransaction>(state, 'transactions', 'id', id), 'transaction', id);
}

const LIST_FILTERS = ['reference_id', 'status', 'payment_type'] as const;

/**
 * The values the provider's transaction list filters take. Its payment_type filter has no bolepix
 * (payctl keeps bolepix sales itself, from the unfiltered list), and its statuses include some a
 * sandbox sale never reaches.
 */
const KNOWN_VALUES = {
  status: ['new', 'pending', 'pre_authorized', 'succeeded', 'failed', 'canceled', 'reversed', 'refunded', 'partial_refunded', 'dispute', 'charged_back'],
  payment_type: ['credit', 'boleto', 'pix'],
};

/** Every transaction, or (`seller`) only those made on behalf of that seller: sellers/{id}/transactions. */
export function listTransactions(state: SandboxState, params: URLSearchParams, uri: string, seller?: string): ListEnvelope<Transaction> {
  const query = parseListQuery(params, LIST_FILTERS, KNOWN_VALUES);
  const filters: Record<string, string[]> = seller === undefined ? {} : { on_behalf_of: [seller] };
  for (const [name, accepted] of query.filters) filters[name] = [...accepted];
  // Ascending is (created_at, insertion order); descending is exactly its reverse, so paging
  // through either order visits every item once even when timestamps collide.
  const found = page<StoredTransaction>(state, 'transactions', { time: 'created_ms', filters }, query);
  return pageEnvelope(uri, found.items.map((s) => s.txn), found.total, query);
}

/** Records a change that moved the sale's money, then what follows from it: fees, receivables, balances. */
export function moveMoney(state: SandboxState, stored: StoredTransaction, draft: HistoryDraft, now: Date): void {
  recordChange(state, stored, draft, now);
  refreshFees(stored);
  settleTransaction(state, stored, now);
}

/** The body has met the request schema, and holds only description and metadata (request-schemas.ts). */
export function planUpdate({ description, metadata }: RequestBody<'transactions.update'>): TransactionChange {

  return (stored, state, now) => {
    const { txn } = stored;
    if (description !== undefined) txn.description = description;
    mergeMetadata(txn.metadata, metadata);
    recordChange(state, stored, { operation_type: 'update', status: 'succeeded', amount_cents: decimalToCents(txn.amount) }, now);
  };
}

function cannotVoid(stored: StoredTransaction, why: string): SandboxError {
  return new SandboxError(400, 'void_transaction_error', `The transaction (id: ${stored.txn.id}) cannot be voided: ${why}`);
}

export function planVoid({ on_behalf_of: onBehalfOf, amount: cents }: RequestBody<'transactions.void'>): TransactionChange {
  return (stored, state, now) => {
    requireSeller(state, onBehalfOf);
    const { txn } = stored;
    if (txn.status === 'failed') throw cannotVoid(stored, 'it failed, so nothing was charged.');
    if (txn.status === 'pending') throw cannotVoid(stored, 'it is still pending payment, so nothing was charged yet.');
    if (txn.payment_type === 'boleto' || txn.payment_type === 'bolepix') {
      throw cannotVoid(stored, 'a paid boleto cannot be reversed through the gateway.');
    }
    if (stored.remaining_cents === 0 || cents > stored.remaining_cents) {
      // The provider's own status and wording for a void larger than what is left.
      throw new SandboxError(402, 'void_transaction_error', 'The transaction has not sufficient amount for the requested void operation');
    }
    stored.remaining_cents -= cents;
    txn.amount = centsToDecimal(stored.remaining_cents);
    const full = stored.remaining_cents === 0;
    if (full) {
      txn.status = 'canceled';
      txn.voided = true;
    }
    moveMoney(state, stored, {
      operation_type: 'void',
      status: 'succeeded',
      amount_cents: cents,
      response_message: full ? 'Transaction voided.' : 'Partial void applied.',
      acquirer: txn.payment_type === 'credit',
    }, now);
  };
}

export function planCapture({ on_behalf_of: onBehalfOf, amount: cents }: RequestBody<'transactions.capture'>): TransactionChange {
  return (stored, state, now) => {
    requireSeller(state, onBehalfOf);
    const { txn } = stored;
    if (txn.status !== 'pre_authorized') {
      throw new SandboxError(
        400,
        'capture_transaction_error',
        `The transaction (id: ${txn.id}) cannot be captured: its status is ${txn.status}; only pre_authorized transactions can be captured.`,
      );
    }
    if (cents > stored.remaining_cents) {
      throw new SandboxError(
        400,
        'capture_transaction_error',
        `The capture amount (${centsToDecimal(cents)}) exceeds the authorized amount (${centsToDecimal(stored.remaining_cents)}).`,
      );
    }
    stored.remaining_cents = cents;
    txn.amount = centsToDecimal(cents);
    txn.status = 'succeeded';
    txn.captured = true;
    txn.expected_on = expectedOn(txn.payment_type, now);
    moveMoney(state, stored, {
      operation_type: 'capture', status: 'succeeded', amount_cents: cents, response_message: 'Transaction captured.', acquirer: true,
    }, now);
  };
}

/** Sandbox-only: the buyer pays a pending boleto, bolepix or PIX. */
export const approve: TransactionChange = (stored, state, now) => {
  const { txn } = stored;
  const payable = txn.payment_type !== 'credit' && txn.status === 'pending';
  // The resource test is implied by payable; it also tells the compiler the method has a status.
  if (!payable || txn.payment_method.resource === 'card') {
    throw new SandboxError(
      400,
      'approve_transaction_error',
      `The transaction (id: ${txn.id}) cannot be paid: only a pending boleto, bolepix or PIX transaction can; this is a ${txn.payment_type} transaction with status ${txn.status}.`,
    );
  }
  const at = isoTimestamp(now);
  txn.payment_method.status = 'paid';
  txn.payment_method.paid_at = at;
  txn.payment_method.updated_at = at;
  txn.status = 'succeeded';
  txn.captured = true;
  txn.expected_on = expectedOn(txn.payment_type, now);
  moveMoney(state, stored, {
    operation_type: 'paid', status: 'succeeded', amount_cents: stored.remaining_cents, response_message: 'Payment received.',
  }, now);
};

/** Letters are served by the sandbox itself, like the provider's pre-signed links: no API key needed. */
export const LETTERS_PATH = '/files/cancelled-letters/';

export function cancellationLetter(stored: StoredTransaction, origin: string): { url: string } {
  const { txn } = stored;
  if (txn.status !== 'canceled' || !txn.voided) {
    throw new SandboxError(
      404,
      'resource_not_found',
      `There is no cancellation letter for the transaction (id: ${txn.id}): only a fully voided (canceled) transaction has one, and its status is ${txn.status}.`,
    );
  }
  return { url: `${origin}${LETTERS_PATH}Carta_Cancelamento_${txn.id}.pdf` };
}
