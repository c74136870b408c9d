import * as z from 'zod/mini';
import { cardFields } from './cards.js';
import { boletoFields } from './documents.js';
import { anyObject, anyString, decimalAmount, flag, looseObject, metadata, optionalAmount, resourceId, shown, status, text } from './shared.js';

// A transaction (seed 2.1) with its payment methods (2.2 boleto, 2.3 card, the provider's bolepix
// and PIX) and history entries (2.4).

/** Seed 2.4. The amount is read to tell whether a refund was applied; the rest is shown. */
export const historyEntrySchema = looseObject({
  id: z.optional(z.nullable(z.string({ error: 'a string' }))),
  transaction: text,
  amount: optionalAmount,
  operation_type: text,
  status: text,
  response_code: text,
  response_message: text,
  authorization_code: text,
  authorizer_id: text,
  authorization_nsu: text,
  gatewayResponseTime: text,
  authorizer: text,
  created_at: text,
});

/** Seed 2.3. */
export const cardPaymentMethodSchema = looseObject({ ...cardFields, id: text });

/** Seed 2.2, and the provider's bolepix (boletoFields has what it adds). */
export const boletoPaymentMethodSchema = looseObject({
  ...boletoFields,
  id: text,
  service_boleto_id: text,
  created_at: text,
  updated_at: text,
});

/** The provider's PIX payment method: the code to pay is in qr_code.emv. */
export const pixPaymentMethodSchema = looseObject({
  id: text,
  resource: text,
  provider: shown,
  version: shown,
  type: text,
  reusable: shown,
  allow_update: shown,
  expiration_date: text,
  pix_link: text,
  qr_code: z.optional(z.nullable(looseObject({ emv: text }))),
  key: anyObject,
  paid_at: text,
  status: z.optional(z.nullable(status)),
});

/** Which payment method a transaction carries follows its payment_type; all are objects. */
const paymentMethodSchema = z.optional(
  z.nullable(z.union([cardPaymentMethodSchema, boletoPaymentMethodSchema, pixPaymentMethodSchema], { error: 'a payment method object' })),
);

/**
 * A transaction, as create, get, list, void, capture and approve answer it. Strict on what payctl
 * relies on: the id it looks the sale up by again, the status it reports, the amounts it prints and
 * reconciles refunds with, and the history it reads to tell whether a refund was applied.
 */
export const transactionSchema = looseObject({
  id: resourceId,
  resource: text,
  status,
  amount: decimalAmount,
  original_amount: optionalAmount,
  currency: text,
  description: text,
  payment_type: text,
  transaction_number: text,
  gateway_authorizer: text,
  app_transaction_uid: text,
  refunds: z.optional(z.unknown()),
  rewards: z.optional(z.unknown()),
  discounts: z.optional(z.unknown()),
  pre_authorization: z.optional(z.unknown()),
  sales_receipt: text,
  on_behalf_of: text,
  customer: text,
  statement_descriptor: text,
  payment_method: paymentMethodSchema,
  source: z.optional(z.unknown()),
  installment_plan: anyObject,
  refunded: flag,
  voided: flag,
  captured: flag,
  fees: optionalAmount,
  fee_details: z.optional(z.unknown()),
  uri: text,
  metadata,
  split_rules: shown,
  expected_on: text,
  created_at: text,
  updated_at: text,
  payment_authorization: z.optional(z.unknown()),
  history: z.optional(z.nullable(z.array(historyEntrySchema, { error: 'an array' }))),
  reference_id: text,
});

/** Another seller's part of a sale: a fixed amount or a percentage, and what it comes to now. */
export const splitRuleSchema = looseObject({
  id: resourceId,
  resource: text,
  transaction: text,
  recipient: z.string({ error: 'a seller id (a string)' }).check(z.minLength(1, 'a seller id')),
  liable: flag,
  charge_processing_fee: flag,
  charge_recipient_processing_fee: flag,
  percentage: z.optional(z.nullable(z.union([anyString, z.number()], { error: 'a percentage' }))),
  amount: z.optional(z.nullable(z.union([anyString, z.number()], { error: 'an amount' }))),
  receivable_amount: optionalAmount,
  receivable_gross_amount: optionalAmount,
  created_at: text,
  updated_at: text,
});

/** The cancellation letter of a card sale: where to download it. */
export const cancellationLetterSchema = looseObject({ url: z.string({ error: 'a link (a string)' }).check(z.minLength(1, 'a link')) });
