import * as z from 'zod/mini';
import { stringMetadata } from './cards.js';
import { anyString, freeForm, integerCents, resourceId, status } from './shared.js';
import { oneOfWords, readAs, tolerant } from './tolerant.js';

// Recurrence: plans, the subscriptions that follow them (seed 2.6) and the invoices they bill,
// each described once and strictly: every field, in the order the sandbox sends them, with its
// exact type. The sandbox's records are these types and are stored in this order
// (sandbox/db/schema.ts); payctl reads the service through their tolerant versions (tolerant.ts).
// The provider's recurrence API counts money in integer cents, and names plans and subscriptions
// by `uuid` where the rest says `id`. Beyond the provider's file, as the sandbox serves them:
// boleto as a recurrence payment method (the file lists credit only), metadata on each, a plan's
// grace and tolerance periods, an invoice's transaction, and its payment_method, which the file
// calls payment_methods though it holds one. payctl relies on none of these: read tolerantly, an
// answer without them is read alike.

/** Text, or null for none. */
const textOrNull = z.nullable(anyString);

const whole = z.int({ error: 'a whole number' });

/** How a subscription's invoices are paid: charged to its card, or by a boleto issued for each. */
const recurrenceMethod = z.enum(['credit', 'boleto']);

/** How each of them ends: where it is served, the client's metadata, when it was made and last changed. */
const served = { uri: anyString, metadata: stringMetadata, created_at: anyString, updated_at: anyString };

export const planStrict = z.strictObject({
  uuid: resourceId,
  resource: z.literal('plan'),
  name: anyString,
  description: textOrNull,
  amount: integerCents,
  setup_amount: integerCents,
  currency: anyString,
  frequency: z.enum(['daily', 'weekly', 'monthly', 'annually']),
  interval: whole,
  payment_methods: z.array(recurrenceMethod),
  /** How many cycles a subscription runs; null for no limit. */
  duration: z.nullable(whole),
  grace_period: z.nullable(whole),
  tolerance_period: z.nullable(whole),
  status: oneOfWords(['active', 'canceled'], status),
  ...served,
});

/** A plan as payctl reads it: by its uuid, for its price and whether it is still active. */
export const planSchema = tolerant(planStrict, ['uuid', 'amount', 'status']);

/** Seed 2.6, every field, plus metadata. */
export const subscriptionStrict = z.strictObject({
  uuid: resourceId,
  resource: z.literal('subscription'),
  plan: anyString,
  on_behalf_of: anyString,
  customer: anyString,
  description: textOrNull,
  payment_method: recurrenceMethod,
  /** YYYY-MM-DD: the next due date. */
  due_date: anyString,
  /**
   * The due date of the cycle the subscription is in: the last due date billed, or before the
   * first billing the first due date.
   */
  due_since_date: textOrNull,
  expiration_date: textOrNull,
  amount: integerCents,
  currency: anyString,
  status: oneOfWords(['active', 'suspended', 'canceled', 'expired'], status),
  suspended_at: textOrNull,
  /** The card charged; null for a boleto subscription, which has none. */
  card: textOrNull,
  ...served,
});

export const subscriptionSchema = tolerant(subscriptionStrict, ['uuid', 'amount', 'status']);

/** The buyer an invoice bills, as it was when the invoice was issued. */
export const invoiceCustomerStrict = z.strictObject({
  uuid: anyString,
  first_name: textOrNull,
  last_name: textOrNull,
  taxpayer_id: textOrNull,
  email: textOrNull,
});

/** An invoice of a subscription or a one-off charge. Unlike a transaction's, its amount is integer cents. */
export const invoiceStrict = z.strictObject({
  id: resourceId,
  resource: z.literal('invoice'),
  subscription: textOrNull,
  on_behalf_of: anyString,
  customer: anyString,
  invoice_customer: invoiceCustomerStrict,
  description: textOrNull,
  payment_method: recurrenceMethod,
  due_date: anyString,
  expiration_date: textOrNull,
  amount: integerCents,
  currency: anyString,
  paid_at: textOrNull,
  voided_at: textOrNull,
  /** Charge attempts that were declined. */
  retries: whole,
  max_retries: whole,
  status: oneOfWords(['pending', 'paid', 'over-due', 'canceled', 'failed'], status),
  /** The card transaction of the last charge attempt, or the boleto transaction issued for it. */
  transaction: textOrNull,
  ...served,
  // In its place after uri. The provider's file lists an invoice's metadata as an array of
  // objects: payctl reads whatever comes.
  metadata: readAs(z.record(z.string(), z.string()), freeForm),
});

export const invoiceSchema = tolerant(invoiceStrict, ['id', 'amount', 'status']);
