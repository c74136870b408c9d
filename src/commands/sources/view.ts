// `sources get` and what `sources create` prints, on a terminal: how it is used, what it charges
// (the card as "MasterCard ••••4444", or the buyer by name) and on what terms, for which seller.
// See src/output/object-view.ts.
import { AMOUNT, CREATED, DESCRIPTION, METADATA, resourceView, SELLER } from '../../output/resource-view.js';
import { cardFields } from '../cards/view.js';

type Item = Record<string, unknown>;

/** The buyer a source charges: a bare id, or `{id, amount}` as the provider's answer has it. */
export function sourceCustomer(source: Item): string | undefined {
  const customer = source.customer;
  const id = customer && typeof customer === 'object' ? (customer as Item).id : customer;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

export const SOURCE_VIEW = resourceView(
  'Source',
  'id',
  [
    { label: 'Usage', at: 'usage' },
    ...cardFields('card'),
    { label: 'Customer', at: '_customer', kind: 'id', names: 'buyer' },
    { label: 'Token', at: 'token.id', kind: 'id' },
    AMOUNT,
    { label: 'Installments', at: 'installment_plan.number_installments' },
    { label: 'Capture', at: (source) => (source.capture === false ? 'no: pre-authorize only' : undefined) },
    SELLER,
    { label: 'Reference', at: 'reference_id' },
    DESCRIPTION,
    CREATED,
  ],
  [METADATA],
);

/** For the view: the buyer's id wherever the answer puts it (display only). */
export function sourceRow(source: Item): Item {
  const customer = sourceCustomer(source);
  return customer === undefined ? source : { ...source, _customer: customer };
}
