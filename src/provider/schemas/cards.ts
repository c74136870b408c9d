import * as z from 'zod/mini';
import { anyObject, flag, looseObject, metadata, resourceId, text } from './shared.js';

// Cards: the token a card number is exchanged for (seed 2.5) and the card on file it becomes.

/** What the provider shows of a card wherever one appears (seed 2.3): never the full number. */
export const cardFields = {
  resource: text,
  description: text,
  card_brand: text,
  first4_digits: text,
  last4_digits: text,
  expiration_month: text,
  expiration_year: text,
  holder_name: text,
  is_active: flag,
  is_valid: flag,
  is_verified: flag,
  customer: text,
  fingerprint: text,
  uri: text,
  metadata,
  created_at: text,
  updated_at: text,
};

/** A card on file, on its own or inside a token or source. */
export const cardSchema = looseObject({
  ...cardFields,
  id: resourceId,
  address: z.optional(z.unknown()),
  verification_checklist: anyObject,
});

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
