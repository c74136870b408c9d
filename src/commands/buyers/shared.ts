import type { Factory } from '../../factory.js';
import { ValidationError } from '../../errors.js';
import { CREATED_COLUMN, DOCUMENT_COLUMN, ID_COLUMN } from '../../output/columns.js';
import { buyerName } from '../../output/record-names.js';
import type { Column } from '../../output/render-options.js';
import { parseDate, parseMetadata, validateEmail, validateId, validatePhone } from '../../validate/index.js';
import { normalizeTaxpayerId, validateTaxpayerId } from '../../validate/taxpayer.js';
import { optionalString, setGiven, stringList } from '../shared/input.js';
import type { BuyerFlagValues } from './flags.js';

export interface Buyer {
  id: string;
  first_name?: string | null;
  last_name?: string | null;
  taxpayer_id?: string | null;
  email?: string | null;
  [key: string]: unknown;
}

export const BUYER_COLUMNS: Column[] = [
  ID_COLUMN,
  { key: 'name', header: 'NAME' },
  DOCUMENT_COLUMN,
  { key: 'email', header: 'EMAIL' },
  CREATED_COLUMN,
];

/**
 * A CPF or CNPJ with all but its last four digits hidden, in its usual punctuation, so a support
 * agent can match it against what a caller reads out without the screen showing the document.
 */
export function maskTaxpayerId(value: string | null | undefined): string {
  // Letters stay: an alphanumeric CNPJ (from July 2026) has them in its first 12 characters.
  const digits = normalizeTaxpayerId(value ?? '').replace(/[^0-9A-Z]/g, '');
  if (!digits) return '';
  const hidden = `${'*'.repeat(Math.max(0, digits.length - 4))}${digits.slice(-4)}`;
  if (digits.length === 11) return `${hidden.slice(0, 3)}.${hidden.slice(3, 6)}.${hidden.slice(6, 9)}-${hidden.slice(9)}`;
  if (digits.length === 14) return `${hidden.slice(0, 2)}.${hidden.slice(2, 5)}.${hidden.slice(5, 8)}/${hidden.slice(8, 12)}-${hidden.slice(12)}`;
  return hidden;
}

/** "Maria Silva", as every view and question names a buyer. */
export { buyerName };

/** Display fields for the buyer table; the API object itself is left as it is. */
export function buyerRow(buyer: Record<string, unknown>): Record<string, unknown> {
  return { ...buyer, name: buyerName(buyer as Buyer), document: maskTaxpayerId(buyer.taxpayer_id as string | undefined) };
}

export function buyerId(args: string[]): string {
  return validateId(args[0] ?? '', 'buyer id', '<id>');
}

const ADDRESS_FLAGS = {
  addressLine1: 'line1',
  addressLine2: 'line2',
  neighborhood: 'neighborhood',
  city: 'city',
  state: 'state',
  postalCode: 'postal_code',
} as const;

/** A day given by `flag` that must be before today (a birth date, the day a company opened). */
export function pastDate(value: string, flag: string): string {
  const date = parseDate(value, flag);
  if (date >= new Date().toISOString().slice(0, 10)) throw new ValidationError(flag, `${date} is not in the past`);
  return date;
}

/** The buyer body from whichever flags were given, each checked; shared by create and update. */
export function buyerBodyFromFlags(options: BuyerFlagValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const text = (key: Exclude<keyof BuyerFlagValues, 'metadata'>) => optionalString(options[key])?.trim();
  setGiven(body, 'first_name', text('firstName'));
  setGiven(body, 'last_name', text('lastName'));
  setGiven(body, 'email', text('email'), (email) => validateEmail(email, '--email'));
  setGiven(body, 'phone_number', text('phone'), (phone) => validatePhone(phone, '--phone'));
  setGiven(body, 'taxpayer_id', text('taxpayerId'), (taxpayer) => validateTaxpayerId(taxpayer, '--taxpayer-id'));
  setGiven(body, 'birthdate', text('birthdate'), (birthdate) => pastDate(birthdate, '--birthdate'));
  setGiven(body, 'description', text('description'));
  const address: Record<string, string> = {};
  for (const [flag, field] of Object.entries(ADDRESS_FLAGS)) {
    const value = text(flag as keyof typeof ADDRESS_FLAGS);
    if (value !== undefined) address[field] = value;
  }
  if (address.state !== undefined) {
    if (!/^[A-Za-z]{2}$/.test(address.state)) throw new ValidationError('--state', 'use the two-letter state code, e.g. SP');
    address.state = address.state.toUpperCase();
  }
  if (address.postal_code !== undefined) {
    const digits = address.postal_code.replace(/\D/g, '');
    if (digits.length !== 8 || /[^\d\s.-]/.test(address.postal_code)) throw new ValidationError('--postal-code', 'a CEP has 8 digits, e.g. 01310-100');
    address.postal_code = digits;
  }
  if (Object.keys(address).length > 0) body.address = { ...address, country_code: 'BR' };
  const metadata = stringList(options.metadata);
  if (metadata.length > 0) body.metadata = parseMetadata(metadata, '--metadata');
  return body;
}

export async function getBuyer(ctx: Factory, id: string): Promise<Buyer> {
  return (await ctx.api()).call('buyers.get', { params: { id } });
}
