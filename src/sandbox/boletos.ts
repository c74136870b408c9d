import { findBy } from './db/queries.js';
import { recordDelivery } from './deliveries.js';
import { bareError, SandboxError } from './errors.js';
import { recordChange } from './transaction-model.js';
import { isoTimestamp } from './time.js';
import type { BolepixPaymentMethod, BoletoPaymentMethod, BoletoRecord, SandboxState, StoredTransaction, Transaction } from './types.js';

// A boleto is the payment method of a boleto or bolepix transaction, addressed by its own id.
// Here: reading it, e-mailing it to the payer, and the provider's cancellation request.

type BoletoMethod = BoletoPaymentMethod | BolepixPaymentMethod;
type StoredBoleto = StoredTransaction & { txn: Transaction & { payment_method: BoletoMethod } };

function isBoleto(stored: StoredTransaction): stored is StoredBoleto {
  const { resource } = stored.txn.payment_method;
  return resource === 'boleto' || resource === 'bolepix';
}

export function findBoleto(state: SandboxState, id: string): StoredBoleto {
  const stored = findBy<StoredTransaction>(state, 'transactions', 'boleto_id', id);
  if (!stored || !isBoleto(stored)) {
    // The provider's wording for this resource names no id.
    throw new SandboxError(404, 'resource_not_found', 'Sorry, the boleto you are trying to use does not exist or has been deleted.');
  }
  return stored;
}

export function boletoView(stored: StoredBoleto, marketplaceId: string): BoletoRecord {
  const method = stored.txn.payment_method;
  return {
    ...method,
    // The provider's flags are text; the sandbox never hands a boleto to a printer.
    accepted: 'false',
    printed: 'false',
    downloaded: 'false',
    uri: `/v1/marketplaces/${marketplaceId}/boletos/${method.id}`,
    metadata: {},
    transaction: stored.txn.id,
  };
}

/** E-mails the boleto to its buyer's address on file: the provider's operation names no address. */
export function emailBoleto(state: SandboxState, id: string, now: Date) {
  const stored = findBoleto(state, id);
  const customer = stored.txn.customer ? state.buyers.get(stored.txn.customer) : undefined;
  const target = customer?.email ?? undefined;
  if (!target) {
    throw new SandboxError(
      400,
      'missing_email',
      `The boleto (id: ${id}) cannot be e-mailed: its buyer has no e-mail address on file; add one to the buyer first.`,
    );
  }
  recordDelivery(state, { kind: 'boleto', resource_id: id, method: 'email', target }, now);
  return { message: 'success', delivery_method: 'email', to: target };
}

/**
 * The provider's cancellation service answers in its own `{status, message}` body, with 422 for
 * anything it will not cancel. Only a boleto still awaiting payment can be withdrawn; asking again
 * for one already canceled is acknowledged, not refused.
 */
export function cancelBoleto(state: SandboxState, transactionId: string, now: Date) {
  const stored = findBy<StoredTransaction>(state, 'transactions', 'id', transactionId);
  if (!stored) throw bareError(422, 'ERROR', 'Transaction not found');
  if (!isBoleto(stored)) throw bareError(422, 'REFUSED', 'Transaction status is invalid');
  const { txn } = stored;
  // A boleto is canceled only through this request (void refuses boletos), so canceled means asked before.
  if (txn.status === 'canceled') {
    return { status: 'Requested', message: 'Cancellation already requested successfully', transaction_id: txn.id };
  }
  if (txn.status !== 'pending') throw bareError(422, 'REFUSED', 'Transaction status is invalid');
  const at = isoTimestamp(now);
  txn.status = 'canceled';
  // It will never be paid, so no payment is expected (it counted from the due date).
  txn.expected_on = null;
  txn.payment_method.status = 'canceled';
  txn.payment_method.updated_at = at;
  recordChange(
    state,
    stored,
    { operation_type: 'cancellation', status: 'succeeded', amount_cents: stored.remaining_cents, response_message: 'Boleto canceled at the request of the seller.' },
    now,
  );
  return { status: 'Requested', message: 'Cancellation request created successfully', transaction_id: txn.id };
}
