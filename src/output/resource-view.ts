// What the views of most resources share (see object-view.ts): a title of noun, id and status, a
// description and a creation date ending the summary, and the metadata as the last section; and
// the fields several of them show alike (an amount, the buyer, the seller, the sale). The buyer
// and the seller are shown by name on a terminal (object-view.ts), their ids beside it.
// Types only from object-view.ts: a view is declared without loading what draws it.
import type { ObjectView, ViewField, ViewSection } from './object-view.js';

export const DESCRIPTION: ViewField = { label: 'Description', at: 'description' };
export const CREATED: ViewField = { label: 'Created', at: 'created_at', kind: 'date' };
export const AMOUNT: ViewField = { label: 'Amount', at: 'amount', kind: 'money' };
export const CUSTOMER: ViewField = { label: 'Customer', at: 'customer', kind: 'id', names: 'buyer' };
/** The seller a sale (or what bills one) is made on behalf of. */
export const SELLER: ViewField = { label: 'Seller', at: 'on_behalf_of', kind: 'id', names: 'seller' };
export const TRANSACTION: ViewField = { label: 'Transaction', at: 'transaction', kind: 'id' };
export const PAID_BY: ViewField = { label: 'Paid by', at: 'payment_method' };
/** The free-form metadata, key by key. */
export const METADATA: ViewSection = { title: 'Metadata', entries: 'metadata' };

/** A resource's view, titled "<noun> <id>  <status>" from its `id` field and its `status`. */
export function resourceView(noun: string, id: string, summary: ViewField[], sections: ViewSection[] = [METADATA]): ObjectView {
  return { noun, id, status: 'status', summary, sections };
}
