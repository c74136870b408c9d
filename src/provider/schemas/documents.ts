import * as z from 'zod/mini';
import { anyObject, anyString, looseObject, metadata, optionalAmount, resourceId, shown, status, text } from './shared.js';

// What a sale leaves on paper: boletos, receipts, and the short acknowledgements of sending them.

/**
 * What a boleto carries, as a record of its own and inside a boleto transaction (seed 2.2); a
 * bolepix adds its PIX code (and its QR image, `base64`) and the provider's names for dates and charges.
 */
export const boletoFields = {
  resource: text,
  description: text,
  reference_number: text,
  document_number: text,
  expiration_date: text,
  payment_limit_date: text,
  recipient: text,
  bank_code: text,
  customer: text,
  address: z.optional(z.unknown()),
  sequence: text,
  url: text,
  barcode: text,
  body_instructions: z.optional(z.unknown()),
  billing_instructions: z.optional(z.unknown()),
  digitable_line: text,
  emv: text,
  base64: text,
  due_at: shown,
  payment_limit_at: shown,
  interest: z.optional(z.unknown()),
  late_fee: z.optional(z.unknown()),
  discount: z.optional(z.unknown()),
  billing_message_list: z.optional(z.unknown()),
  status: z.optional(z.nullable(status)),
  paid_at: text,
};

/** A boleto record (GET /boletos/{id}). */
export const boletoSchema = looseObject({
  ...boletoFields,
  id: resourceId,
  service_boleto_id: shown,
  accepted: shown,
  printed: shown,
  downloaded: shown,
  transaction: shown,
  uri: text,
  metadata: z.optional(z.unknown()),
  created_at: shown,
  updated_at: shown,
});

/** A sale's receipt. */
export const receiptSchema = looseObject({
  id: resourceId,
  resource: text,
  status: text,
  amount: optionalAmount,
  sub_total: optionalAmount,
  currency: text,
  payment_type: text,
  business_name: text,
  description: text,
  taxpayer_id: text,
  card: anyObject,
  seller: text,
  buyer: text,
  auth_number: shown,
  receipt_number: text,
  auth_nsu: shown,
  installment_plan: z.optional(z.unknown()),
  business_address: z.optional(z.unknown()),
  transaction: text,
  uri: shown,
  metadata,
  created_at: text,
  updated_at: text,
});

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

/** What a DELETE answers: the id and that it is gone. A 204 with no body is accepted as well. */
export const removalSchema = looseObject({
  id: z.optional(resourceId),
  resource: text,
  deleted: z.optional(z.nullable(z.union([z.boolean(), z.string()], { error: 'true or false' }))),
  object: anyObject,
});
