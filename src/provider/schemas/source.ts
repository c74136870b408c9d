import * as z from 'zod/mini';
import { cardSchema } from './cards.js';
import { anyObject, flag, looseObject, metadata, optionalAmount, resourceId, text } from './shared.js';

/** The provider's payment source: a card, token or customer set up to be charged. */
export const sourceSchema = looseObject({
  id: resourceId,
  resource: text,
  status: text,
  usage: text,
  amount: optionalAmount,
  currency: text,
  description: text,
  type: text,
  capture: flag,
  on_behalf_of: text,
  reference_id: text,
  card: z.optional(z.nullable(cardSchema)),
  customer: z.optional(z.unknown()),
  token: z.optional(z.unknown()),
  installment_plan: anyObject,
  statement_descriptor: text,
  uri: text,
  metadata: z.optional(z.unknown()),
  created_at: text,
  updated_at: text,
});
