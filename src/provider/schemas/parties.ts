import * as z from 'zod/mini';
import { stringMetadata } from './cards.js';
import { anyString, bool, resourceId, shown } from './shared.js';
import { readAs, tolerant } from './tolerant.js';

// The people and companies on either side of a sale: buyers (customers) and sellers, each
// described once and strictly, in the order the sandbox sends their fields (the provider's file
// describes neither: they follow its other records). The sandbox's records are these types and
// are stored in this order (sandbox/db/schema.ts); payctl reads them through their tolerant versions.

/** Text, or null for none. */
const orNull = z.nullable(anyString);

/** A postal address: every line, each a text or null. */
export const addressStrict = z.strictObject({
  line1: orNull,
  line2: orNull,
  line3: orNull,
  neighborhood: orNull,
  city: orNull,
  state: orNull,
  postal_code: orNull,
  country_code: orNull,
});

/** A field the provider sends that payctl only shows. */
const shownAs = <S extends z.ZodMiniType>(schema: S) => readAs(schema, shown);

export const buyerStrict = z.strictObject({
  id: resourceId,
  resource: z.literal('buyer'),
  status: shownAs(z.literal('active')),
  first_name: anyString,
  last_name: orNull,
  email: orNull,
  phone_number: orNull,
  /** Digits only. */
  taxpayer_id: anyString,
  birthdate: orNull,
  description: orNull,
  /** Always sent, its lines null when unknown. */
  address: addressStrict,
  delinquent: shownAs(bool),
  /** The card charged when a transaction names only the customer. */
  default_credit: orNull,
  default_debit: shownAs(z.null()),
  default_receipt_delivery_method: shownAs(z.null()),
  uri: anyString,
  metadata: stringMetadata,
  created_at: anyString,
  updated_at: anyString,
});

/** A buyer as payctl reads it: by its id. */
export const buyerSchema = tolerant(buyerStrict, ['id']);

/** The owner of a company seller: the person who answers for it, named as a buyer is. */
export const sellerOwnerStrict = z.strictObject({ first_name: anyString, last_name: orNull, taxpayer_id: anyString, email: orNull });

/** A person (`individual`: name, CPF) or a company (`business`: business name, CNPJ, owner). */
export const sellerStrict = z.strictObject({
  id: resourceId,
  resource: z.literal('seller'),
  type: z.enum(['individual', 'business']),
  status: shownAs(z.literal('active')),
  first_name: orNull,
  last_name: orNull,
  email: orNull,
  phone_number: orNull,
  /** CPF of an individual, digits only. */
  taxpayer_id: orNull,
  birthdate: orNull,
  address: z.nullable(addressStrict),
  business_name: orNull,
  business_email: orNull,
  business_phone: orNull,
  /** CNPJ of a business, its characters only (letters upper-cased). */
  ein: orNull,
  business_opening_date: orNull,
  business_address: z.nullable(addressStrict),
  owner: z.nullable(sellerOwnerStrict),
  statement_descriptor: orNull,
  description: orNull,
  uri: anyString,
  metadata: stringMetadata,
  created_at: anyString,
  updated_at: anyString,
});

/** A seller as payctl reads it: by its id. */
export const sellerSchema = tolerant(sellerStrict, ['id']);
