import * as z from 'zod/mini';
import { anyString, looseObject } from './shared.js';

/**
 * The provider's boleto cancellation service answers in a body of its own, not a transaction:
 * `{status: "Requested", message, transaction_id}` (see src/sandbox/boletos.ts).
 */
export const boletoCancellationSchema = looseObject({
  status: anyString,
  message: anyString,
  transaction_id: z.optional(anyString),
});
