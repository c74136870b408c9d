import { findCustomer } from './buyer-ops.js';
import { found, invalidParameters } from './errors.js';
import { requireSeller } from './sellers.js';
import type { Creation } from './route.js';
import { newId } from './ids.js';
import { listFiltered, type ListEnvelope } from './list.js';
import { dayOrInstantAt } from '../validate/date.js';
import { calendarDate, isoTimestamp } from './time.js';
import type { Buyer, Invoice, InvoiceCustomer, InvoiceStatus, SandboxState } from './types.js';
import { newMetadata } from './validate.js';
import type { RequestBody } from '../provider/schemas/requests.js';

// Invoices: what a customer owes, either one billing of a subscription or a one-off charge. Here:
// issuing the record, the one-off create, reading and listing. Charging an invoice (approve,
// refund) and removing one is invoice-charge.ts; a subscription's billing is billing.ts.

/** The sandbox makes one charge attempt per billing and never retries on its own: approve is the retry. */
const MAX_RETRIES = 0;

function invoiceCustomer(buyer: Buyer): InvoiceCustomer {
  return { uuid: buyer.id, first_name: buyer.first_name, last_name: buyer.last_name, taxpayer_id: buyer.taxpayer_id, email: buyer.email };
}

/** What an invoice is issued with: its buyer, and its own fields. */
type InvoiceSpec = Pick<Invoice, 'subscription' | 'on_behalf_of' | 'description' | 'payment_method' | 'due_date' | 'expiration_date'> &
  Pick<Invoice, 'amount' | 'currency' | 'metadata'> & { customer: Buyer };

export function issueInvoice(state: SandboxState, spec: InvoiceSpec, now: Date): Invoice {
  const at = isoTimestamp(now);
  const id = newId(state);
  const invoice: Invoice = {
    id,
    resource: 'invoice',
    subscription: spec.subscription,
    on_behalf_of: spec.on_behalf_of,
    customer: spec.customer.id,
    invoice_customer: invoiceCustomer(spec.customer),
    description: spec.description,
    payment_method: spec.payment_method,
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
  return found(state.invoices.get(id), 'invoice', id);
}

/** A one-off invoice for a customer, paid later through approve. `now` is the sandbox's time. */
export function planCreateInvoice(body: RequestBody<'invoices.create'>, now: Date): Creation<Invoice> {
  // The body has met the request schema: each field of its type and length, an expiration not
  // before the due date. What is left is the clock: a due date not already past.
  const today = calendarDate(now);
  const { customer: customerId, amount, currency, due_date: due, expiration_date: expiresAt, on_behalf_of: onBehalfOf, description = null } = body;
  if (due < today) throw invalidParameters([{ field: 'due_date', message: `must not be before today (${today})` }]);
  const expiration = typeof expiresAt === 'string' ? calendarDate(dayOrInstantAt(expiresAt) as Date) : null;
  const metadata = newMetadata(body.metadata);

  return (state, at) => {
    const customer = findCustomer(state, customerId);
    // An unknown seller is the same 404 as on a transaction.
    if (onBehalfOf !== undefined) requireSeller(state, onBehalfOf);
    return issueInvoice(
      state,
      {
        subscription: null,
        on_behalf_of: onBehalfOf ?? state.seller.id,
        customer,
        description,
        payment_method: 'credit',
        due_date: due,
        expiration_date: expiration,
        amount,
        currency: currency.toUpperCase(),
        metadata,
      },
      at,
    );
  };
}

const INVOICE_STATUSES: readonly InvoiceStatus[] = ['pending', 'paid', 'over-due', 'canceled', 'failed'];

/**
 * Every invoice, or (`seller`) only that seller's: sellers/{id}/invoices. Besides the provider's
 * date_range on creation, `due_date[gte]`… bound the due date as written (payctl's lists of
 * invoices are by due date).
 */
export function listInvoices(state: SandboxState, params: URLSearchParams, uri: string, seller?: string): ListEnvelope<Invoice> {
  const invoices = state.invoices.all().filter((invoice) => seller === undefined || invoice.on_behalf_of === seller);
  return listFiltered(uri, invoices, params, ['subscription', 'customer', 'status'], { status: INVOICE_STATUSES }, 'due_date');
}
