import { invalidInvoiceStatus } from './invoices.js';
import { planCreateTransaction } from './transactions-create.js';
import { findTransaction, planVoid } from './transactions.js';
import { isoTimestamp } from './time.js';
import type { Invoice, SandboxState, StoredTransaction } from './types.js';

// Money for invoices moves through ordinary card transactions, made by the same code as
// POST /transactions, so every charge has its history, fees and receivables, and shows up in the
// transaction list like any sale. The invoice keeps the id of its last charge attempt.

/**
 * Charges the invoice to `card`, or to the customer's default card when `card` is null, and
 * records the outcome on the invoice. Throws, changing nothing, when there is nothing to charge
 * (no such card, no such customer, no card on file).
 */
export function chargeInvoice(state: SandboxState, invoice: Invoice, card: string | null, description: string, now: Date): StoredTransaction {
  const metadata: Record<string, string> = { invoice: invoice.id };
  if (invoice.subscription) metadata.subscription = invoice.subscription;
  const create = planCreateTransaction(
    {
      payment_type: 'credit',
      on_behalf_of: invoice.on_behalf_of,
      customer: invoice.customer,
      amount: invoice.amount,
      currency: invoice.currency,
      description,
      metadata,
      ...(card ? { source: { type: 'card', card: { id: card } } } : {}),
    },
    now,
  );
  const stored = create(state, now);
  const at = isoTimestamp(now);
  invoice.transaction = stored.txn.id;
  if (stored.txn.status === 'succeeded') {
    invoice.status = 'paid';
    invoice.paid_at = at;
  } else {
    invoice.status = 'failed';
    invoice.retries += 1;
  }
  invoice.updated_at = at;
  return stored;
}

/**
 * Pays an unpaid invoice now. A subscription's invoice is charged to the subscription's card (the
 * one the buyer agreed to be billed on), a one-off invoice to the customer's default card.
 */
export function approveInvoice(state: SandboxState, invoice: Invoice, now: Date): Invoice {
  if (invoice.status !== 'pending' && invoice.status !== 'over-due' && invoice.status !== 'failed') {
    throw invalidInvoiceStatus(invoice, 'approved', 'pending, over-due or failed');
  }
  const subscription = invoice.subscription ? state.subscriptions[invoice.subscription]?.sub : undefined;
  const card = subscription && state.cards[subscription.card] ? subscription.card : null;
  chargeInvoice(state, invoice, card, subscription ? `Subscription ${subscription.uuid}` : `Invoice ${invoice.id}`, now);
  return invoice;
}

/** Refunds a paid invoice: its card transaction is voided in full and the invoice canceled. */
export function voidInvoice(state: SandboxState, invoice: Invoice, now: Date): Invoice {
  if (invoice.status !== 'paid' || !invoice.transaction) throw invalidInvoiceStatus(invoice, 'refunded', 'paid');
  const stored = findTransaction(state, invoice.transaction);
  // Part or all of the charge may already have been voided through the transaction itself.
  if (stored.remaining_cents > 0) {
    planVoid({ on_behalf_of: stored.txn.on_behalf_of, amount: stored.remaining_cents })(stored, state, now);
  }
  const at = isoTimestamp(now);
  invoice.status = 'canceled';
  invoice.voided_at = at;
  invoice.updated_at = at;
  return invoice;
}
