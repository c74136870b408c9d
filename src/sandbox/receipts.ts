import { findBy } from './db/queries.js';
import { recordDelivery } from './deliveries.js';
import { found, SandboxError } from './errors.js';
import type { Receipt, SandboxState, StoredTransaction } from './types.js';
import { sellerOnDocuments } from './sellers.js';

// A sale's receipt. It is not stored: the transaction names it (`sales_receipt`): a card sale once
// approved, a boleto or PIX from creation. Every field is read from the transaction, its card and
// the seller, so the receipt always agrees with them, its status included.

/**
 * `pending` while the buyer has not paid, `canceled` once the sale is (a withdrawn boleto, a
 * voided card sale), `approved` otherwise: the money was authorized or paid.
 */
type ReceiptStatus = Receipt['status'];

export function findReceipt(state: SandboxState, id: string): StoredTransaction {
  return found(findBy<StoredTransaction>(state, 'transactions', 'sales_receipt', id), 'receipt', id);
}

export function receiptView(state: SandboxState, stored: StoredTransaction): Receipt {
  const { txn } = stored;
  const method = txn.payment_method;
  const authorization = txn.history.find((h) => h.operation_type === 'authorization' && h.authorization_code !== '');
  // The receipt dates from the moment the money was secured: the card authorization or the payment.
  const issued = txn.history.find((h) => h.operation_type === 'paid') ?? authorization;
  const seller = sellerOnDocuments(state, txn.on_behalf_of);
  const { line3: _line3, ...address } = seller.address;
  const status: ReceiptStatus = txn.status === 'pending' || txn.status === 'canceled' ? txn.status : 'approved';
  return {
    id: txn.sales_receipt as string,
    resource: 'receipt',
    status,
    amount: txn.amount,
    sub_total: txn.original_amount,
    currency: txn.currency,
    payment_type: txn.payment_type,
    business_name: seller.name,
    description: txn.description,
    taxpayer_id: seller.taxpayer_id,
    card:
      method.resource === 'card'
        ? {
            card_brand: method.card_brand,
            first4_digits: method.first4_digits,
            // Only what the card record kept: a card removed since has none.
            first6_digits: (stored.card_id ? state.cards.get(stored.card_id)?.first6 : undefined) ?? null,
          }
        : null,
    seller: txn.on_behalf_of,
    buyer: txn.customer,
    auth_number: authorization?.authorization_code ?? null,
    // Sequential like the provider's, and stable because the transaction's sequence number is.
    receipt_number: String(stored.seq).padStart(9, '0'),
    auth_nsu: authorization?.authorization_nsu ?? null,
    installment_plan: txn.installment_plan,
    business_address: address,
    uri: `/v1/marketplaces/${state.marketplace_id}/receipts/${txn.sales_receipt}`,
    metadata: {},
    created_at: issued?.created_at ?? txn.created_at,
    updated_at: txn.updated_at,
    transaction: txn.id,
  };
}

export function sendReceipt(state: SandboxState, id: string, method: 'email' | 'sms', target: string, now: Date) {
  const { txn } = findReceipt(state, id);
  // Sent to the buyer, a receipt reads as proof of payment: not before there was one.
  if (txn.status === 'pending') {
    throw new SandboxError(
      400,
      'receipt_not_approved',
      `The receipt (id: ${id}) cannot be sent yet: its ${txn.payment_type} transaction (id: ${txn.id}) is still pending payment; send it once paid.`,
    );
  }
  recordDelivery(state, { kind: 'receipt', resource_id: id, method, target }, now);
  return { message: 'success', delivery_method: method };
}
