import { cancelBoleto } from './boletos.js';
import { invalidStatus, SandboxError } from './errors.js';
import type { JsonObject } from './http.js';
import { planCreateTransaction } from './transactions-create.js';
import { approve, findTransaction, planVoid, type TransactionChange } from './transactions.js';
import { calendarDate, isoTimestamp } from './time.js';
import type { Invoice, InvoiceStatus, SandboxState, StoredTransaction } from './types.js';

// Money for invoices moves through ordinary transactions, made by the same code as
// POST /transactions, so every charge has its history, fees and receivables, and shows up in the
// transaction list like any sale. A card invoice is charged at once and keeps the id of its last
// charge attempt; a boleto invoice gets a pending boleto and is paid when the buyer pays it.

/**
 * Makes the transaction that pays the invoice, of the given payment type, and names it on the
 * invoice. Its metadata ties the transaction to the invoice, which is read back when an invoice's
 * boleto is paid. Throws, changing nothing, when it cannot be made.
 */
function payInvoiceWith(state: SandboxState, invoice: Invoice, description: string, variant: JsonObject, now: Date): StoredTransaction {
  const metadata: Record<string, string> = { invoice: invoice.id };
  if (invoice.subscription) metadata.subscription = invoice.subscription;
  const { on_behalf_of: onBehalfOf, customer, amount, currency } = invoice;
  const body = { on_behalf_of: onBehalfOf, customer, amount, currency, description, metadata, ...variant };
  const stored = planCreateTransaction(body, now)(state, now);
  invoice.transaction = stored.txn.id;
  invoice.updated_at = isoTimestamp(now);
  return stored;
}

/**
 * Charges the invoice to `card`, or to the customer's default card when `card` is null, and
 * records the outcome on the invoice. Throws, changing nothing, when there is nothing to charge
 * (no such card, no such customer, no card on file).
 */
export function chargeInvoice(state: SandboxState, invoice: Invoice, card: string | null, description: string, now: Date): StoredTransaction {
  const source = card ? { source: { type: 'card', card: { id: card } } } : {};
  const stored = payInvoiceWith(state, invoice, description, { payment_type: 'credit', ...source }, now);
  if (stored.txn.status === 'succeeded') {
    invoice.status = 'paid';
    invoice.paid_at = invoice.updated_at;
  } else {
    invoice.status = 'failed';
    invoice.retries += 1;
  }
  return stored;
}

/**
 * Issues the boleto that pays a boleto invoice: a pending boleto transaction due on the invoice's
 * due date (never before the day it is issued). The invoice names it and stays pending until the
 * buyer pays it (payBoleto). Throws, changing nothing, when it cannot be issued.
 */
export function issueInvoiceBoleto(state: SandboxState, invoice: Invoice, description: string, now: Date): StoredTransaction {
  const today = calendarDate(now);
  const expiration = invoice.due_date < today ? today : invoice.due_date;
  return payInvoiceWith(state, invoice, description, { payment_type: 'boleto', payment_method: { expiration_date: expiration } }, now);
}

/** Unpaid and not failed: what can still be removed, or paid by its boleto. */
const OPEN: readonly InvoiceStatus[] = ['pending', 'over-due'];

function invalidInvoiceStatus(invoice: Invoice, action: string, allowed: string): SandboxError {
  return invalidStatus('invoice', invoice.id, invoice.status, action, allowed);
}

function paidByBoleto(invoice: Invoice, action: string, why: string): SandboxError {
  return new SandboxError(
    400,
    'invoice_paid_by_boleto',
    `The invoice (id: ${invoice.id}) cannot be ${action}: it is paid by its boleto (transaction ${invoice.transaction ?? 'none'}), not charged to a card; ${why}`,
  );
}

/**
 * Pays an unpaid invoice now. A subscription's invoice is charged to the subscription's card (the
 * one the buyer agreed to be billed on), a one-off invoice to the customer's default card. A
 * boleto invoice is refused: only paying its boleto pays it.
 */
export function approveInvoice(state: SandboxState, invoice: Invoice, now: Date): Invoice {
  if (!OPEN.includes(invoice.status) && invoice.status !== 'failed') {
    throw invalidInvoiceStatus(invoice, 'approved', 'pending, over-due or failed');
  }
  if (invoice.payment_method === 'boleto') {
    throw paidByBoleto(invoice, 'approved', 'it becomes paid when the buyer pays that boleto (in the sandbox: POST /transactions/{id}/approve).');
  }
  const subscription = invoice.subscription ? state.subscriptions.get(invoice.subscription)?.sub : undefined;
  const card = subscription?.card && state.cards.get(subscription.card) ? subscription.card : null;
  chargeInvoice(state, invoice, card, subscription ? `Subscription ${subscription.uuid}` : `Invoice ${invoice.id}`, now);
  return invoice;
}

/** Refunds a paid card invoice: its card transaction is voided in full and the invoice canceled. */
export function voidInvoice(state: SandboxState, invoice: Invoice, now: Date): Invoice {
  if (invoice.status !== 'paid' || !invoice.transaction) throw invalidInvoiceStatus(invoice, 'refunded', 'paid');
  if (invoice.payment_method === 'boleto') {
    throw paidByBoleto(invoice, 'refunded', 'a paid boleto cannot be reversed through the gateway, so return the money to the buyer another way.');
  }
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

/**
 * Removing an unpaid invoice cancels it; nothing was charged, so nothing is voided. A boleto issued
 * for it and not yet paid is withdrawn with it.
 */
export function removeInvoice(state: SandboxState, invoice: Invoice, now: Date): Invoice {
  if (!OPEN.includes(invoice.status)) throw invalidInvoiceStatus(invoice, 'removed', 'pending or over-due');
  invoice.status = 'canceled';
  invoice.updated_at = isoTimestamp(now);
  if (invoice.payment_method === 'boleto' && invoice.transaction) {
    const boleto = findTransaction(state, invoice.transaction);
    if (boleto.txn.status === 'pending') cancelBoleto(state, boleto.txn.id, now);
  }
  return invoice;
}

/**
 * Sandbox-only: the buyer pays a pending boleto, bolepix or PIX (transactions.ts's approve). When
 * it is the boleto of an unpaid invoice, the invoice is paid in the same state write, so it is
 * paid exactly once, whichever way the payment is retried.
 */
export const payBoleto: TransactionChange = (stored, state, now) => {
  approve(stored, state, now);
  const { txn } = stored;
  const invoiceId = txn.metadata?.invoice;
  const invoice = invoiceId ? state.invoices.get(invoiceId) : undefined;
  // The metadata can be edited; the invoice's own record of its boleto is what counts.
  if (!invoice || invoice.transaction !== txn.id || invoice.payment_method !== 'boleto') return;
  if (!OPEN.includes(invoice.status)) return;
  const at = isoTimestamp(now);
  invoice.status = 'paid';
  invoice.paid_at = at;
  invoice.updated_at = at;
};
