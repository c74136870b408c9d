import * as z from 'zod/mini';
import { anyString, decimalString, looseObject, nonEmptyString } from './shared.js';

const historyEntry = looseObject({
  id: z.optional(anyString),
  operation_type: z.optional(anyString),
});

/**
 * A transaction, as create, get, void, capture and approve answer it. Only what payctl relies on
 * (the id to look it up again, the status it reports, the amount it prints and reconciles
 * refunds with, the history it reads to tell whether a refund was applied) is checked.
 */
export const transactionSchema = looseObject({
  id: nonEmptyString,
  status: anyString,
  amount: decimalString,
  history: z.optional(z.array(historyEntry, { error: 'an array' })),
});
