import * as z from 'zod/mini';
import { anyObject, anyString, bool, keyValues, looseObject, resourceId, text } from './shared.js';
import { readAs, tolerant } from './tolerant.js';

// Cards: the token a card number is exchanged for (seed 2.5) and the card on file it becomes.

/** Metadata as the provider keeps it: texts by name. */
export const stringMetadata = readAs(z.record(z.string(), z.string()), keyValues);

/**
 * What the provider shows of a card wherever one appears (seed 2.3), as a sale's payment method
 * and below: never the full number.
 */
export const cardPaymentMethodStrict = z.strictObject({
  id: anyString,
  resource: z.literal('card'),
  description: z.nullable(anyString),
  card_brand: anyString,
  first4_digits: anyString,
  last4_digits: anyString,
  expiration_month: anyString,
  expiration_year: anyString,
  holder_name: anyString,
  is_active: bool,
  is_valid: bool,
  is_verified: bool,
  customer: z.nullable(anyString),
  /** Random per card: a fingerprint derived from the PAN would let anyone with the file test guesses. */
  fingerprint: anyString,
  uri: anyString,
  metadata: stringMetadata,
  created_at: anyString,
  updated_at: anyString,
});

/** A card on file (GET /cards/{id}, and inside a token or source): the same, with the provider's checks of it. */
export const cardStrict = z.extend(cardPaymentMethodStrict, {
  id: resourceId,
  verification_checklist: readAs(z.strictObject({ postal_code_check: anyString, security_code_check: anyString, address_line1_check: anyString }), anyObject),
  address: z.null(),
});

export const cardSchema = tolerant(cardStrict, ['id']);

/** Seed 2.5. `used` is a string in the seed's sample and a boolean in the provider's answers. */
export const cardTokenSchema = looseObject({
  id: resourceId,
  resource: text,
  used: z.optional(z.nullable(z.union([z.boolean(), z.string()], { error: 'true or false' }))),
  type: text,
  card: z.optional(z.nullable(cardSchema)),
  uri: text,
  created_at: text,
  updated_at: text,
});
