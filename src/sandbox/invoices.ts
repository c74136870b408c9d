import { notFound, SandboxError } from './errors.js';
import { requireSeller } from './sellers.js';
import type { JsonObject } from './http.js';
import { newId } from './ids.js';
import { listByCreation, parseListQuery, type ListEnvelope } from './list.js';
import { calendarDate, isoTimestamp, parseCalendarDate, parseDateOrDateTime } from './time.js';
import type { Buyer, Invoice, InvoiceCustomer, InvoiceStatus, RecurrencePaymentMethod, SandboxState } from './types.js';
import { Checker } from './validate.js';

// Invoices: what a customer owes, either one billing of a subscription or a one-off charge. Here:
// issuing the record, the one-off create, reading, listing and canceling. Charging an invoice
// (approve, refund) is invoice-charge.ts; a subscription's billing is billing.ts.

/** The sandbox makes one charge attempt per billing and never retries on its own: approve is the retry. */
const MAX_RETRIES = 0;

function invoiceCustomer(buyer: Buyer): InvoiceCustomer {
  return { uuid: buyer.id, first_name: buyer.first_name, last_name: buyer.last_name, taxpayer_id: buyer.taxpayer_id, email: buyer.email };
}

export interface InvoiceSpec {
  subscription: string | null;
  /** The seller it bills for: the subscription's, or the one named; the seeded seller by default. */
  on_behalf_of?: string;
  customer: Buyer;
  description: string | null;
  /** Charged to a card unless said otherwise (a boleto subscription's invoices). */
  payment_method?: RecurrencePaymentMethod;
  due_date: string;
  expiration_date: string | null;
  amount: number;
  currency: string;
  metadata: Record<string, string>;
}

/** A new pending invoice, stored. */
export function issueInvoice(state: SandboxState, spec: InvoiceSpec, now: Date): Invoice {
  const at = isoTimestamp(now);
  const id = newId();
  const invoice: Invoice = {
    id,
    resource: 'invoice',
    subscription: spec.subscription,
    on_behalf_of: spec.on_behalf_of ?? state.seller.id,
    customer: spec.customer.id,
    invoice_customer: invoiceCustomer(spec.customer),
    description: spec.description,
    payment_method: spec.payment_method ?? 'credit',
    due_date: spec.due_date,
    expiration_date: spec.expiration_date,
    amount: spec.amount,
    currency: spec.currency,
    paid_at: null,
    voided_at: null,
    retries: 0,
    max_retries: MAX_RETRIES,
    status: 'pending',
    transaction: null,
    uri: `/v1/marketplaces/${state.marketplace_id}/invoices/${id}`,
    metadata: spec.metadata,
    created_at: at,
    updated_at: at,
  };
  state.invoices.put(id, invoice);
  return invoice;
}

export function findInvoice(state: SandboxState, id: string): Invoice {
  const invoice = state.invoices.get(id);
  if (!invoice) throw notFound('invoice', id);
  return invoice;
}

export function invalidInvoiceStatus(invoice: Invoice, action: string, allowed: string): SandboxError {
  return new SandboxError(
    400,
    'invalid_invoice_status',
    `The invoice (id: ${invoice.id}) cannot be ${action}: its status is ${invoice.status}; only ${allowed} invoices can be.`,
  );
}

export type InvoiceCreation = (state: SandboxState, now: Date) => Invoice;

/** A one-off invoice for a customer, paid later through approve. `now` is the sandbox's time. */
export function planCreateInvoice(body: JsonObject, now: Date): InvoiceCreation {
  const check = new Checker();
  const today = calendarDate(now);
  const customerId = check.requiredString(body.customer, 'customer');
  const amount = check.positiveCents(body.amount, 'amount');
  const currency = check.currency(body.currency, 'currency');
  const onBehalfOf = check.optionalString(body.on_behalf_of, 'on_behalf_of') ?? undefined;
  const description = check.optionalString(body.description, 'description', 500) ?? null;
  if (body.payment_method !== undefined && body.payment_method !== 'credit') check.add('payment_method', 'must be "credit"');
  if (body.subscription !== undefined && body.subscription !== null) {
    check.add('subscription', "is set by a subscription's own billing; a one-off invoice names none");
  }
  let due: string | undefined;
  if (body.due_date === undefined || body.due_date === null) check.add('due_date', 'is required (YYYY-MM-DD)');
  else if (typeof body.due_date !== 'string' || !parseCalendarDate(body.due_date)) check.add('due_date', 'must be a date (YYYY-MM-DD)');
  else if (body.due_date < today) check.add('due_date', `must not be before today (${today})`);
  else due = body.due_date;
  let expiration: string | null = null;
  if (body.expiration_date !== undefined && body.expiration_date !== null) {
    const parsed = typeof body.expiration_date === 'string' ? parseDateOrDateTime(body.expiration_date) : undefined;
    if (!parsed) check.add('expiration_date', 'must be a date (YYYY-MM-DD)');
    else if (due && calendarDate(parsed) < due) check.add('expiration_date', `must not be before the due date (${due})`);
    else expiration = calendarDate(parsed);
  }
  const metadata = check.metadata(body.metadata, 'metadata') ?? {};
  check.throwIfAny();

  return (state, at) => {
    const customer = state.buyers.get(customerId as string);
    if (!customer) throw notFound('customer', customerId as string);
    // An unknown seller is the same 404 as on a transaction.
    if (onBehalfOf !== undefined) requireSeller(state, onBehalfOf);
    return issueInvoice(
      state,
      {
        subscription: null,
        ...(onBehalfOf === undefined ? {} : { on_behalf_of: onBehalfOf }),
        customer,
        description,
        due_date: due as string,
        expiration_date: expiration,
        amount: amount as number,
        currency: currency as string,
        metadata: Object.fromEntries(Object.entries(metadata).filter((e): e is [string, string] => e[1] !== null)),
      },
      at,
    );
  };
}

/**
 * Removing an unpaid invoice cancels it; nothing was charged, so nothing is voided (a boleto
 * issued for it is withdrawn first, by invoice-charge.ts's removeInvoice).
 */
export function cancelInvoice(invoice: Invoice, now: Date): Invoice {
  if (invoice.status !== 'pending' && invoice.status !== 'over-due') throw invalidInvoiceStatus(invoice, 'removed', 'pending or over-due');
  invoice.status = 'canceled';
  invoice.updated_at = isoTimestamp(now);
  return invoice;
}

const LIST_FILTERS = ['subscription', 'customer', 'status'] as const;
const INVOICE_STATUSES: readonly InvoiceStatus[] = ['pending', 'paid', 'over-due', 'canceled', 'failed'];

/** Every invoice, or (`seller`) only that seller's: sellers/{id}/invoices. */
export function listInvoices(state: SandboxState, params: URLSearchParams, uri: string, seller?: string): ListEnvelope<Invoice> {
  const query = parseListQuery(params, LIST_FILTERS, { status: INVOICE_STATUSES });
  const matching = state.invoices.all().filter((invoice) =>
    (seller === undefined || invoice.on_behalf_of === seller) &&
    LIST_FILTERS.every((name) => {
      const accepted = query.filters.get(name);
      const value = invoice[name];
      return !accepted || (value !== null && accepted.has(value));
    }),
  );
  return listByCreation(uri, matching, query);
}
