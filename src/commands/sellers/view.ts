// `sellers get` on a terminal: who the seller is (a person or a company), how to reach them, the
// CPF/CNPJ masked as in the list, the address on one line, a company's owner. See
// src/output/object-view.ts.
import { CREATED, DESCRIPTION, resourceView } from '../../output/resource-view.js';
import { maskTaxpayerId } from '../buyers/shared.js';
import { addressLine } from '../buyers/view.js';
import { sellerDocument, sellerName } from './shared.js';

type Item = Record<string, unknown>;

const business = (item: Item) => item.type === 'business';
const either = (person: string, company: string) => (item: Item) => {
  const value = item[business(item) ? company : person];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

function owner(item: Item): string | undefined {
  const o = item.owner as Item | null | undefined;
  if (!o || typeof o !== 'object') return undefined;
  const name = [o.first_name, o.last_name].filter((p) => typeof p === 'string' && p !== '').join(' ');
  const document = typeof o.taxpayer_id === 'string' ? maskTaxpayerId(o.taxpayer_id) : '';
  const line = [name, document, typeof o.email === 'string' ? o.email : ''].filter(Boolean).join(', ');
  return line === '' ? undefined : line;
}

export const SELLER_VIEW = resourceView('Seller', 'id', [
  { label: 'Name', at: (item) => sellerName(item) || undefined },
  { label: 'Type', at: (item) => (business(item) ? 'company (business)' : item.type === 'individual' ? 'person (individual)' : undefined) },
  { label: 'CPF/CNPJ', at: (item) => maskTaxpayerId(sellerDocument(item)) || undefined },
  { label: 'E-mail', at: either('email', 'business_email') },
  { label: 'Phone', at: either('phone_number', 'business_phone') },
  { label: 'Born', at: 'birthdate', kind: 'date' },
  { label: 'Opened', at: 'business_opening_date', kind: 'date' },
  { label: 'Address', at: (item) => addressLine(item[business(item) ? 'business_address' : 'address']) },
  { label: 'Owner', at: owner },
  { label: 'Statement', at: 'statement_descriptor' },
  DESCRIPTION,
  CREATED,
]);
