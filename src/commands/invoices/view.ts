// `invoices get` on a terminal: amount, due and paid dates, retries and the transaction that paid
// it; the buyer and the subscription by name. See src/output/object-view.ts. Amounts are shown after invoiceRow has turned cents into a decimal.
import { AMOUNT, CREATED, CUSTOMER, DESCRIPTION, PAID_BY, TRANSACTION, resourceView } from '../../output/resource-view.js';

function retries(item: Record<string, unknown>): string | undefined {
  const done = item.retries;
  const most = item.max_retries;
  if (typeof done !== 'number') return undefined;
  return typeof most === 'number' ? `${done} of ${most}` : String(done);
}

export const INVOICE_VIEW = resourceView('Invoice', 'id', [
  AMOUNT,
  { label: 'Subscription', at: 'subscription', kind: 'id', names: 'subscription' },
  CUSTOMER,
  PAID_BY,
  { label: 'Due', at: 'due_date', kind: 'date' },
  { label: 'Expires', at: 'expiration_date', kind: 'date' },
  { label: 'Paid', at: 'paid_at', kind: 'date' },
  { label: 'Voided', at: 'voided_at', kind: 'date' },
  { label: 'Retries', at: retries },
  TRANSACTION,
  DESCRIPTION,
  CREATED,
]);
