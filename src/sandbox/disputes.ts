import { SandboxError } from './errors.js';
import { moveMoney, type TransactionChange } from './transactions.js';
import { recordChange } from './transaction-model.js';

// A cardholder who contests a card sale with their bank: the sale is in `dispute` while the bank
// looks into it, its money still the seller's (fees, receivables and balance as they were), and it
// ends either for the seller (back to `succeeded`, as it was) or for the cardholder (a chargeback:
// `charged_back`, all that remained of the sale taken back, as a full refund would, its
// receivables not yet paid out canceled and the seller's balance debited). Each step is a line of
// the sale's history. The provider opens disputes on its own; the sandbox's generated volume does.

function refused(id: string, why: string): SandboxError {
  return new SandboxError(400, 'dispute_transaction_error', `The transaction (id: ${id}) cannot be disputed: ${why}`);
}

/** The cardholder disputes a card sale that holds money. */
export const openDispute: TransactionChange = (stored, state, now) => {
  const { txn } = stored;
  if (txn.payment_type !== 'credit') throw refused(txn.id, `only a card sale can be, and this is a ${txn.payment_type} sale.`);
  if (txn.status !== 'succeeded' || stored.remaining_cents === 0) throw refused(txn.id, `its status is ${txn.status}${txn.status === 'succeeded' ? ' and all of it was refunded' : ''}.`);
  txn.status = 'dispute';
  recordChange(state, stored, { operation_type: 'dispute', status: 'pending', amount_cents: stored.remaining_cents, response_message: 'Disputed by the cardholder.' }, now);
};

function requireDispute(id: string, status: string): void {
  if (status !== 'dispute') throw new SandboxError(400, 'dispute_transaction_error', `The transaction (id: ${id}) has no open dispute: its status is ${status}.`);
}

/** The bank decides for the seller: the sale stands as it was. */
export const closeDisputeForSeller: TransactionChange = (stored, state, now) => {
  const { txn } = stored;
  requireDispute(txn.id, txn.status);
  txn.status = 'succeeded';
  recordChange(state, stored, { operation_type: 'dispute', status: 'failed', amount_cents: stored.remaining_cents, response_message: 'Dispute decided for the seller; the sale stands.' }, now);
};

/** The bank decides for the cardholder: what remained of the sale goes back to them. */
export const chargeBack: TransactionChange = (stored, state, now) => {
  const { txn } = stored;
  requireDispute(txn.id, txn.status);
  const cents = stored.remaining_cents;
  stored.remaining_cents = 0;
  txn.amount = '0.00';
  txn.status = 'charged_back';
  moveMoney(state, stored, { operation_type: 'chargeback', status: 'succeeded', amount_cents: cents, response_message: 'Charged back to the cardholder.', acquirer: true }, now);
};
