// The shapes payctl relies on in the service's answers. Loaded by the client on the first answer
// that has one to meet (see answers.ts), never on start-up: zod is not needed by `--version`,
// `--help` or commands whose operations have no schema.
//
// zod/mini rather than zod's full build: the same checks at a sixth of the bundled size
// (≈15 KB against ≈85 KB), and payctl formats its own messages, so the full build's texts and
// methods would be dead weight.

import type * as z from 'zod/mini';
import type { Operation } from '../endpoints.js';
import type { CheckedOperation } from './answers.js';
import { boletoCancellationSchema } from './boleto-cancellation.js';
import { describeIssues } from './describe-issues.js';
import { invoiceSchema } from './invoice.js';
import { listPageSchema } from './list-page.js';
import { transactionSchema } from './transaction.js';

export { listPageSchema };
export type { ListPage } from './list-page.js';

export const responseSchemas = {
  'transactions.create': transactionSchema,
  'transactions.void': transactionSchema,
  'transactions.capture': transactionSchema,
  'transactions.get': transactionSchema,
  'transactions.approve': transactionSchema,
  'invoices.approve': invoiceSchema,
  'invoices.refund': invoiceSchema,
  'invoices.get': invoiceSchema,
  'boletos.cancel': boletoCancellationSchema,
} as const satisfies Record<CheckedOperation, z.ZodMiniType> satisfies Partial<Record<Operation, z.ZodMiniType>>;

/**
 * Why an answer does not have the shape, or undefined when it does. Only checks: the caller keeps
 * the answer as parsed, so fields payctl does not know, and their order, reach the output unchanged.
 */
export function findMismatch(schema: z.ZodMiniType, answer: unknown): string | undefined {
  const result = schema.safeParse(answer);
  return result.success ? undefined : describeIssues(result.error.issues, answer);
}
