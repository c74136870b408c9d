// The schemas of every resource payctl reads or writes. Loaded by the client once the first
// answer arrives (see answers.ts), never on start-up: zod is not needed by `--version`, `--help`
// or a `--dry-run`.
//
// zod/mini rather than zod's full build: the same checks at a sixth of the bundled size
// (≈15 KB against ≈85 KB), and payctl formats its own messages, so the full build's texts and
// methods would be dead weight.

import * as z from 'zod/mini';
import type { AnswerShape, Resource } from './answers.js';
import { cardSchema, cardTokenSchema } from './cards.js';
import { describeIssues } from './describe-issues.js';
import { acknowledgementSchema, boletoCancellationSchema, boletoSchema, receiptSchema, removalSchema } from './documents.js';
import { eventSchema, replaySchema, webhookSchema } from './events.js';
import { balanceEntrySchema, balanceSchema, futureEntrySchema, receivableSchema, transferSchema } from './finance.js';
import { listPageSchema } from './list-page.js';
import { buyerSchema, sellerSchema } from './parties.js';
import { invoiceSchema, planSchema, subscriptionSchema } from './recurrence.js';
import { looseObject, text } from './shared.js';
import { sourceSchema } from './source.js';
import { cancellationLetterSchema, splitRuleSchema, transactionSchema } from './transaction.js';

export { listPageSchema };
export type { ListPage } from './list-page.js';
import type { ListPage } from './list-page.js';

export const resourceSchemas = {
  transaction: transactionSchema,
  'split rule': splitRuleSchema,
  'cancellation letter': cancellationLetterSchema,
  'card token': cardTokenSchema,
  card: cardSchema,
  buyer: buyerSchema,
  seller: sellerSchema,
  source: sourceSchema,
  boleto: boletoSchema,
  'boleto cancellation': boletoCancellationSchema,
  receipt: receiptSchema,
  acknowledgement: acknowledgementSchema,
  receivable: receivableSchema,
  plan: planSchema,
  subscription: subscriptionSchema,
  invoice: invoiceSchema,
  balance: balanceSchema,
  'balance history entry': balanceEntrySchema,
  transfer: transferSchema,
  'future entry': futureEntrySchema,
  webhook: webhookSchema,
  event: eventSchema,
  'event replay': replaySchema,
  removal: removalSchema,
  'sandbox clock': looseObject({ now: z.string({ error: 'a timestamp (a string)' }), offset_seconds: z.optional(z.number({ error: 'a number' })) }),
  'sandbox volume report': looseObject({ now: text }),
} as const satisfies Record<Resource, z.ZodMiniType>;

/**
 * Why an answer does not have the shape, or undefined when it does. Only checks: the caller keeps
 * the answer as parsed, so fields payctl does not know, and their order, reach the output unchanged.
 */
export function findMismatch(schema: z.ZodMiniType, answer: unknown): string | undefined {
  const result = schema.safeParse(answer);
  return result.success ? undefined : describeIssues(result.error.issues, answer);
}

/** The first item of a page that is not the resource, as "items[3].amount: expected …". */
export function findItemMismatch(schema: z.ZodMiniType, items: readonly unknown[]): string | undefined {
  for (let i = 0; i < items.length; i++) {
    const result = schema.safeParse(items[i]);
    if (!result.success) return describeIssues(result.error.issues.map((issue) => ({ ...issue, path: ['items', i, ...issue.path] })), { items });
  }
  return undefined;
}

/**
 * Why a parsed answer is not what the operation gives (a resource, or a list page of them, items
 * included), or undefined when it is.
 */
export function findAnswerMismatch(expected: AnswerShape, body: unknown): string | undefined {
  const schema = resourceSchemas[expected.resource];
  if (expected.shape !== 'list') return findMismatch(schema, body);
  return findMismatch(listPageSchema, body) ?? findItemMismatch(schema, (body as ListPage).items);
}
