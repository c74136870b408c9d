import * as z from 'zod/mini';
import { stringMetadata } from './cards.js';
import { anyObject, anyString, decimalAmount, freeForm, looseObject, resourceId, shown, text } from './shared.js';
import { oneOfWords, readAs, tolerant } from './tolerant.js';
import { bolepixPaymentMethodStrict, boletoPaymentMethodStrict, installmentPlanStrict } from './transaction.js';

// What a sale leaves on paper: boletos, receipts, and the short acknowledgements of sending them.

/** Text, or null for none. */
const orNull = z.nullable(anyString);

/** What a boleto record adds to its sale's payment method: the provider's flags (text), where it is, its sale. */
const boletoRecordShape = {
  accepted: readAs(z.enum(['true', 'false']), shown),
  printed: readAs(z.enum(['true', 'false']), shown),
  downloaded: readAs(z.enum(['true', 'false']), shown),
  uri: anyString,
  metadata: stringMetadata,
  transaction: readAs(anyString, shown),
};

/** A boleto record (GET /boletos/{id}): a boleto or bolepix sale's payment method, as it is, with the record's own fields. */
export const boletoRecordStrict = z.union(
  [z.extend(boletoPaymentMethodStrict, boletoRecordShape), z.extend(bolepixPaymentMethodStrict, boletoRecordShape)],
  { error: 'a boleto record' },
);

/** A boleto record as payctl reads it, by its id: the fields of either kind (a bolepix adds its PIX code and its own names). */
export const boletoSchema = tolerant(z.extend(z.extend(boletoPaymentMethodStrict, bolepixPaymentMethodStrict.shape), boletoRecordShape), ['id']);

/** A sale's receipt, every field read from its transaction, its card and its seller. */
export const receiptStrict = z.strictObject({
  id: resourceId,
  resource: z.literal('receipt'),
  /** `pending` while the buyer has not paid, `canceled` once the sale is, `approved` otherwise. */
  status: oneOfWords(['pending', 'approved', 'canceled'], anyString),
  amount: decimalAmount,
  sub_total: decimalAmount,
  currency: anyString,
  payment_type: z.enum(['credit', 'boleto', 'bolepix', 'pix']),
  business_name: anyString,
  description: orNull,
  taxpayer_id: anyString,
  card: readAs(z.nullable(z.strictObject({ card_brand: anyString, first4_digits: anyString, first6_digits: orNull })), anyObject),
  seller: anyString,
  buyer: orNull,
  auth_number: readAs(orNull, shown),
  receipt_number: anyString,
  auth_nsu: readAs(orNull, shown),
  installment_plan: readAs(z.nullable(installmentPlanStrict), freeForm),
  business_address: readAs(z.strictObject({ line1: orNull, line2: orNull, neighborhood: orNull, city: orNull, state: orNull, postal_code: orNull, country_code: orNull }), freeForm),
  uri: readAs(anyString, shown),
  metadata: stringMetadata,
  created_at: anyString,
  updated_at: anyString,
  transaction: anyString,
});

/** A receipt as payctl reads it: by its id. */
export const receiptSchema = tolerant(receiptStrict, ['id']);

/** "Sent": what the service answers to e-mailing a boleto or receipt, or texting a receipt. */
export const acknowledgementSchema = looseObject({
  message: z.optional(z.nullable(anyString)),
  status: text,
  delivery_method: text,
  to: shown,
});

/**
 * The provider's boleto cancellation service answers in a body of its own, not a transaction:
 * `{status: "Requested", message, transaction_id}` (see src/sandbox/boletos.ts).
 */
export const boletoCancellationSchema = looseObject({
  status: anyString,
  message: anyString,
  transaction_id: z.optional(anyString),
});

/** What a DELETE answers: the id and that it is gone. */
export const removalStrict = z.strictObject({
  id: resourceId,
  resource: anyString,
  /** The provider's file types it as text ("true") for a card. */
  deleted: readAs(z.literal(true), z.union([z.boolean(), z.string()], { error: 'true or false' })),
});

/** A removal as payctl reads it; a 204 with no body is accepted as well. */
export const removalSchema = z.extend(tolerant(removalStrict), { object: anyObject });
