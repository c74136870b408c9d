import type { Factory } from '../../factory.js';
import { UsageError, ValidationError } from '../../errors.js';
import { CREATED_COLUMN, DOCUMENT_COLUMN, ID_COLUMN } from '../../output/columns.js';
import { sellerName } from '../../output/record-names.js';
import type { Column } from '../../output/render-options.js';
import { validateEmail, validateId } from '../../validate/index.js';
import { validateTaxpayerId } from '../../validate/taxpayer.js';
import { buyerBodyFromFlags, maskTaxpayerId, pastDate, type Buyer } from '../buyers/shared.js';
import { optionalString, setGiven } from '../shared/input.js';
import type { SellerFlagValues } from './flags.js';

// Sellers are people (`individual`: name and CPF) or companies (`business`: business name and
// CNPJ, the alphanumeric one included, and optionally the owner). Which one a command means is
// told by its flags; the shared ones (--email, --phone, the address) land in the fields of that kind.

export type SellerKind = 'individual' | 'business';

/** A person's fields are a buyer's (a name, the CPF, an e-mail); a company adds its own. */
export interface Seller extends Buyer {
  type?: string | null;
  business_name?: string | null;
  ein?: string | null;
  business_email?: string | null;
}

export const SELLER_COLUMNS: Column[] = [
  ID_COLUMN,
  { key: 'type', header: 'TYPE', kind: 'status' },
  { key: 'name', header: 'NAME' },
  DOCUMENT_COLUMN,
  { key: 'contact', header: 'EMAIL' },
  CREATED_COLUMN,
];

/** Flags only a person has, and flags only a company has (option keys as commander names them). */
const INDIVIDUAL_FLAGS: Record<string, string> = { firstName: '--first-name', lastName: '--last-name', taxpayerId: '--taxpayer-id', birthdate: '--birthdate' };
const BUSINESS_FLAGS: Record<string, string> = {
  businessName: '--business-name',
  ein: '--ein',
  openingDate: '--opening-date',
  ownerFirstName: '--owner-first-name',
  ownerLastName: '--owner-last-name',
  ownerTaxpayerId: '--owner-taxpayer-id',
  ownerEmail: '--owner-email',
};

const given = (options: SellerFlagValues, flags: Partial<Record<keyof SellerFlagValues, string>>): string[] =>
  (Object.entries(flags) as [keyof SellerFlagValues, string][])
    .filter(([key]) => optionalString(options[key]) !== undefined)
    .map(([, flag]) => flag);

/** The kind the flags describe, undefined when they name neither; both at once is a usage error. */
export function kindFromFlags(options: SellerFlagValues): SellerKind | undefined {
  const person = given(options, INDIVIDUAL_FLAGS);
  const company = given(options, BUSINESS_FLAGS);
  if (person.length > 0 && company.length > 0) {
    throw new UsageError(`${person[0]} is for a person (individual seller) and ${company[0]} for a company (business seller); a seller is one or the other`);
  }
  if (person.length > 0) return 'individual';
  return company.length > 0 ? 'business' : undefined;
}

/** The other kind's flags given to a seller of `kind` (update): a usage error naming the first. */
export function requireKindFlags(kind: SellerKind, options: SellerFlagValues, id: string): void {
  const wrong = given(options, kind === 'individual' ? BUSINESS_FLAGS : INDIVIDUAL_FLAGS);
  if (wrong.length > 0) {
    const what = kind === 'individual' ? 'a person (individual seller)' : 'a company (business seller)';
    throw new UsageError(`seller ${id} is ${what}: ${wrong[0]} does not apply to it`);
  }
}

export function cpfFlag(value: string, flag: string): string {
  const id = validateTaxpayerId(value, flag);
  if (id.length !== 11) throw new ValidationError(flag, `${JSON.stringify(value)} is a CNPJ; a person has a CPF (a company seller takes its CNPJ in --ein, with --business-name)`);
  return id;
}

export function cnpjFlag(value: string, flag: string): string {
  const id = validateTaxpayerId(value, flag);
  if (id.length !== 14) throw new ValidationError(flag, `${JSON.stringify(value)} is a CPF; a company has a CNPJ (a person seller takes a CPF in --taxpayer-id, with --first-name and --last-name)`);
  return id;
}

/**
 * The seller body of `kind` from whichever flags were given, each checked; shared by create and
 * update. The flags a buyer has too (names, e-mail, phone, birth date, address, metadata) are
 * checked as for a buyer and then put where a seller of that kind keeps them.
 */
export function sellerBodyFromFlags(kind: SellerKind, options: SellerFlagValues): Record<string, unknown> {
  // A buyer's checks, without the CPF/CNPJ: a seller's is checked below for its kind.
  const { taxpayer_id: _taxpayer, ...shared } = buyerBodyFromFlags({ ...options, taxpayerId: undefined });
  const text = (key: Exclude<keyof SellerFlagValues, 'metadata'>) => optionalString(options[key])?.trim();
  const body: Record<string, unknown> = {};
  if (kind === 'individual') {
    Object.assign(body, shared);
    setGiven(body, 'taxpayer_id', text('taxpayerId'), (cpf) => cpfFlag(cpf, '--taxpayer-id'));
  } else {
    const { email, phone_number: phone, address, description, metadata } = shared;
    setGiven(body, 'business_name', text('businessName'));
    setGiven(body, 'ein', text('ein'), (cnpj) => cnpjFlag(cnpj, '--ein'));
    setGiven(body, 'business_email', email);
    setGiven(body, 'business_phone', phone);
    setGiven(body, 'business_opening_date', text('openingDate'), (opened) => pastDate(opened, '--opening-date'));
    setGiven(body, 'business_address', address);
    setGiven(body, 'description', description);
    setGiven(body, 'metadata', metadata);
    const owner: Record<string, unknown> = {};
    setGiven(owner, 'first_name', text('ownerFirstName'));
    setGiven(owner, 'last_name', text('ownerLastName'));
    setGiven(owner, 'taxpayer_id', text('ownerTaxpayerId'), (cpf) => cpfFlag(cpf, '--owner-taxpayer-id'));
    setGiven(owner, 'email', text('ownerEmail'), (email) => validateEmail(email, '--owner-email'));
    if (Object.keys(owner).length > 0) body.owner = owner;
  }
  const descriptor = text('statementDescriptor');
  if (descriptor !== undefined) {
    if (descriptor.length > 22) throw new ValidationError('--statement-descriptor', `is ${descriptor.length} characters; a card statement shows at most 22`);
    body.statement_descriptor = descriptor;
  }
  return body;
}

/** What create needs of each kind, as flags, for the message when some are missing. */
export const REQUIRED_FLAGS: Record<SellerKind, Array<[string, string]>> = {
  individual: [
    ['first_name', '--first-name'],
    ['last_name', '--last-name'],
    ['taxpayer_id', '--taxpayer-id'],
    ['email', '--email'],
  ],
  business: [
    ['business_name', '--business-name'],
    ['ein', '--ein'],
    ['business_email', '--email'],
  ],
};

/** A company's business name, else the person's name, as every view and question names a seller. */
export { sellerName };

/** The seller's CPF (a person) or CNPJ (a company). */
export function sellerDocument(seller: Record<string, unknown>): string | undefined {
  const value = seller.type === 'business' ? seller.ein : seller.taxpayer_id;
  const either = typeof value === 'string' && value !== '' ? value : seller.ein ?? seller.taxpayer_id;
  return typeof either === 'string' && either !== '' ? either : undefined;
}

/** Display fields for the seller table; the API object itself is left as it is. */
export function sellerRow(seller: Record<string, unknown>): Record<string, unknown> {
  const contact = seller.type === 'business' ? seller.business_email : seller.email;
  return { ...seller, name: sellerName(seller), document: maskTaxpayerId(sellerDocument(seller)), contact: contact ?? seller.email ?? seller.business_email };
}

export function sellerId(args: string[]): string {
  return validateId(args[0] ?? '', 'seller id', '<id>');
}

export async function getSeller(ctx: Factory, id: string): Promise<Seller> {
  return (await ctx.api()).call('sellers.get', { params: { id } });
}
