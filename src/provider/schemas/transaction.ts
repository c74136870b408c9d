import * as z from 'zod/mini';
import { cardPaymentMethodStrict, stringMetadata } from './cards.js';
import { anyObject, anyString, bool, decimalAmount, freeForm, looseObject, resourceId, shown, status } from './shared.js';
import { oneOfWords, readAs, tolerant } from './tolerant.js';

// A transaction (seed 2.1) with its payment methods (2.2 boleto, 2.3 card, the provider's bolepix
// and PIX), history entries (2.4) and split rules, each described once and strictly: every field,
// in the order the provider sends them, with its exact type. The sandbox's records are these types
// and are stored in this order (sandbox/db/schema.ts); payctl reads the service through their
// tolerant versions (tolerant.ts), `transactionSchema` and `splitRuleSchema`.

/** Text, or null for none. */
const orNull = <S extends z.ZodMiniType>(schema: S) => z.nullable(schema);

/** An object of the provider's own that payctl only shows (its fields may change). */
const shownObject = <S extends z.ZodMiniType>(schema: S) => readAs(schema, anyObject);

/** Seed 2.4. The amount is read to tell whether a refund was applied; the rest is shown. */
export const historyEntryStrict = z.strictObject({
  id: anyString,
  transaction: anyString,
  amount: decimalAmount,
  operation_type: anyString,
  status: anyString,
  response_code: anyString,
  response_message: anyString,
  authorization_code: anyString,
  authorizer_id: anyString,
  authorization_nsu: anyString,
  gatewayResponseTime: anyString,
  authorizer: anyString,
  created_at: anyString,
});

/** Seed 2.2's fields, the same for a boleto and a bolepix (after their id and resource). */
const boletoShape = {
  service_boleto_id: anyString,
  description: anyString,
  reference_number: anyString,
  document_number: anyString,
  expiration_date: anyString,
  payment_limit_date: anyString,
  recipient: anyString,
  bank_code: anyString,
  customer: orNull(anyString),
  address: readAs(orNull(anyString), freeForm),
  sequence: anyString,
  url: anyString,
  barcode: anyString,
  paid_at: orNull(anyString),
  created_at: anyString,
  updated_at: anyString,
  /** `canceled` once a cancellation request went through (boleto and bolepix only). */
  status: oneOfWords(['not_paid', 'paid', 'canceled'], status),
};

/** Seed 2.2: what every boleto carries, plain or with PIX. */
export const boletoBaseStrict = z.strictObject({ id: anyString, ...boletoShape });

/** An option of a boleto as it was sent (instructions, interest, a late fee), or null. */
const sentOption = readAs(orNull(z.record(z.string(), z.unknown())), freeForm);

/** Seed 2.2, plus what the complete variant echoes. */
export const boletoPaymentMethodStrict = z.strictObject({
  id: anyString,
  resource: z.literal('boleto'),
  ...boletoShape,
  body_instructions: readAs(z.array(z.string()), freeForm),
  billing_instructions: sentOption,
});

/**
 * The provider's bolepix payment method: a boleto that also carries a PIX copy-and-paste code
 * (`emv`) and its QR code (`base64`, a PNG), with the provider's own names for its dates and charges.
 */
export const bolepixPaymentMethodStrict = z.strictObject({
  id: anyString,
  resource: z.literal('bolepix'),
  ...boletoShape,
  customer: anyString,
  due_at: readAs(anyString, shown),
  payment_limit_at: readAs(anyString, shown),
  digitable_line: anyString,
  emv: anyString,
  base64: anyString,
  interest: sentOption,
  late_fee: sentOption,
  discount: sentOption,
  billing_message_list: sentOption,
});

/** The provider's PIX payment method: the code to pay is in qr_code.emv. */
export const pixPaymentMethodStrict = z.strictObject({
  id: anyString,
  resource: z.literal('pix'),
  provider: readAs(anyString, shown),
  version: readAs(anyString, shown),
  type: z.literal('DYNAMIC'),
  reusable: readAs(bool, shown),
  allow_update: readAs(bool, shown),
  expiration_date: anyString,
  key: shownObject(z.strictObject({ type: anyString, value: anyString })),
  pix_link: anyString,
  qr_code: z.strictObject({ emv: anyString }),
  paid_at: orNull(anyString),
  created_at: anyString,
  updated_at: anyString,
  status: oneOfWords(['not_paid', 'paid'], status),
});

/** Which payment method a transaction carries follows its payment_type. */
const paymentMethodStrict = z.union([cardPaymentMethodStrict, boletoPaymentMethodStrict, bolepixPaymentMethodStrict, pixPaymentMethodStrict], {
  error: 'a payment method object',
});

/** A card sale's instalments; null without. */
export const installmentPlanStrict = z.strictObject({ mode: z.literal('interest_free'), number_installments: z.int() });

/** What a collected sale paid in fees; `{}` while none. */
export const feeDetailsStrict = z.strictObject({
  amount: z.optional(decimalAmount),
  prepaid: z.optional(bool),
  currency: z.optional(anyString),
  type: z.optional(anyString),
  description: z.optional(anyString),
});

/** Another seller's part of a sale: a fixed amount or a percentage, and what it comes to now. */
export const splitRuleStrict = z.strictObject({
  id: resourceId,
  resource: z.literal('split_rule'),
  transaction: anyString,
  recipient: z.string({ error: 'a seller id (a string)' }).check(z.minLength(1, 'a seller id')),
  liable: bool,
  charge_processing_fee: bool,
  charge_recipient_processing_fee: bool,
  /** "70.00" for 70%; null when the part is an amount. */
  percentage: readAs(orNull(anyString), z.union([anyString, z.number()], { error: 'a percentage' })),
  /** In reais, "7.50"; null when the part is a percentage. */
  amount: readAs(orNull(decimalAmount), z.union([anyString, z.number()], { error: 'an amount' })),
  is_gross_amount: bool,
  /** What the recipient gets of the sale as it stands: net of its fees, and gross. */
  receivable_amount: decimalAmount,
  receivable_gross_amount: decimalAmount,
  created_at: anyString,
  updated_at: anyString,
});

/** The statuses a sale may have; `dispute` and `charged_back` are a contested card sale's. */
export const TRANSACTION_STATUSES = [
  'succeeded',
  'failed',
  'canceled',
  'pre_authorized',
  'reversed',
  'refunded',
  'pending',
  'new',
  'partial_refunded',
  'dispute',
  'charged_back',
] as const;

/** Seed 2.1, every field, plus reference_id and the sale's split rules. */
export const transactionStrict = z.strictObject({
  id: resourceId,
  resource: z.literal('transaction'),
  status: oneOfWords(TRANSACTION_STATUSES, status),
  amount: decimalAmount,
  original_amount: decimalAmount,
  currency: anyString,
  description: orNull(anyString),
  payment_type: z.enum(['credit', 'boleto', 'bolepix', 'pix']),
  transaction_number: orNull(anyString),
  gateway_authorizer: orNull(anyString),
  app_transaction_uid: orNull(anyString),
  refunds: z.null(),
  rewards: z.null(),
  discounts: z.null(),
  pre_authorization: z.null(),
  sales_receipt: orNull(anyString),
  on_behalf_of: anyString,
  customer: orNull(anyString),
  statement_descriptor: anyString,
  payment_method: paymentMethodStrict,
  source: z.null(),
  installment_plan: shownObject(orNull(installmentPlanStrict)),
  refunded: bool,
  voided: bool,
  captured: bool,
  fees: decimalAmount,
  fee_details: readAs(feeDetailsStrict, freeForm),
  uri: anyString,
  metadata: stringMetadata,
  expected_on: orNull(anyString),
  created_at: anyString,
  updated_at: anyString,
  payment_authorization: z.null(),
  history: z.array(historyEntryStrict, { error: 'an array' }),
  reference_id: orNull(anyString),
  /** Other sellers' parts of the sale. */
  split_rules: readAs(z.array(splitRuleStrict), shown),
});

/**
 * A transaction, as create, get, list, void, capture and approve answer it. Strict on what payctl
 * relies on: the id it looks the sale up by again, the status it reports, the amounts it prints and
 * reconciles refunds with, and the history it reads to tell whether a refund was applied.
 */
export const transactionSchema = tolerant(transactionStrict, ['id', 'status', 'amount']);

/** A split rule as payctl reads it: by its id, for its recipient. */
export const splitRuleSchema = tolerant(splitRuleStrict, ['id', 'recipient']);

/** The cancellation letter of a card sale: where to download it. */
export const cancellationLetterSchema = looseObject({ url: z.string({ error: 'a link (a string)' }).check(z.minLength(1, 'a link')) });
