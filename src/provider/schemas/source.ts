import * as z from 'zod/mini';
import { cardStrict, stringMetadata } from './cards.js';
import { anyString, bool, decimalAmount, freeForm, resourceId, status } from './shared.js';
import { oneOfWords, readAs, tolerant } from './tolerant.js';
import { installmentPlanStrict } from './transaction.js';

// The provider's payment source (SourceResponse), described once and strictly, in the order the
// sandbox sends its fields: the sandbox's record is its type and is stored in this order
// (sandbox/db/schema.ts); payctl reads it through its tolerant version.

/** Text, or null for none. */
const orNull = z.nullable(anyString);

/** A source's customer or token: which one, and how much of the sale it covers (in reais, as every answer's amounts). */
export const sourceRefStrict = z.strictObject({ id: anyString, amount: z.nullable(decimalAmount) });

/** A card, token or customer set up to be charged. */
export const sourceStrict = z.strictObject({
  id: resourceId,
  resource: z.literal('source'),
  status: oneOfWords(['pending', 'charged', 'deleted'], status),
  usage: z.enum(['single_use', 'reusable']),
  amount: z.nullable(decimalAmount),
  currency: anyString,
  description: orNull,
  type: z.literal('card'),
  capture: z.nullable(bool),
  on_behalf_of: orNull,
  reference_id: orNull,
  card: z.nullable(cardStrict),
  // Read as shown: the provider's file types their amounts as cents, and payctl takes a bare id too.
  customer: readAs(z.nullable(sourceRefStrict), freeForm),
  token: readAs(z.nullable(sourceRefStrict), freeForm),
  installment_plan: z.nullable(installmentPlanStrict),
  statement_descriptor: orNull,
  uri: anyString,
  metadata: stringMetadata,
  created_at: anyString,
  updated_at: anyString,
});

/** A source as payctl reads it: by its id. */
export const sourceSchema = tolerant(sourceStrict, ['id']);
