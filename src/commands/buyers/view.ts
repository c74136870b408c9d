// `buyers get` on a terminal: who the buyer is and how to reach them, the CPF/CNPJ masked as in
// the list (support matches the last digits a caller reads out), the address on one line. See
// src/output/object-view.ts.
import { CREATED, DESCRIPTION, resourceView } from '../../output/resource-view.js';
import { buyerName, maskTaxpayerId, type Buyer } from './shared.js';

type Item = Record<string, unknown>;

/** An address object on one line, or undefined when it has no lines (a seller's too). */
export function addressLine(value: unknown): string | undefined {
  const a = value as Item | null | undefined;
  if (!a || typeof a !== 'object') return undefined;
  const part = (key: string) => (typeof a[key] === 'string' && a[key] !== '' ? (a[key] as string) : undefined);
  const cityState = [part('city'), part('state')].filter(Boolean).join(' - ');
  const parts = [part('line1'), part('line2'), part('line3'), part('neighborhood'), cityState, part('postal_code'), part('country_code')];
  const line = parts.filter((p) => p !== undefined && p !== '').join(', ');
  return line === '' ? undefined : line;
}

export const BUYER_VIEW = resourceView('Buyer', 'id', [
  { label: 'Name', at: (item) => buyerName(item as Buyer) || undefined },
  { label: 'CPF/CNPJ', at: (item) => (typeof item.taxpayer_id === 'string' && item.taxpayer_id !== '' ? maskTaxpayerId(item.taxpayer_id) : undefined) },
  { label: 'E-mail', at: 'email' },
  { label: 'Phone', at: 'phone_number' },
  { label: 'Born', at: 'birthdate', kind: 'date' },
  { label: 'Address', at: (item) => addressLine(item.address) },
  { label: 'Default card', at: 'default_credit', kind: 'id', names: 'card' },
  { label: 'Delinquent', at: (item) => (item.delinquent === true ? 'yes' : undefined) },
  DESCRIPTION,
  CREATED,
]);
