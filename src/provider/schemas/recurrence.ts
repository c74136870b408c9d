import * as z from 'zod/mini';
import { anyObject, integerCents, looseObject, metadata, optionalInt, resourceId, status, stringList, text } from './shared.js';

// Recurrence: plans, the subscriptions that follow them (seed 2.6) and the invoices they bill.
// The provider's recurrence API counts money in integer cents, and names plans and subscriptions
// by `uuid` where the rest of the API says `id`.

export const planSchema = looseObject({
  uuid: resourceId,
  resource: text,
  name: text,
  description: text,
  amount: integerCents,
  setup_amount: z.optional(z.nullable(integerCents)),
  currency: text,
  frequency: text,
  interval: optionalInt,
  payment_methods: stringList,
  duration: optionalInt,
  grace_period: optionalInt,
  tolerance_period: optionalInt,
  status,
  uri: text,
  metadata,
  created_at: text,
  updated_at: text,
});

export const subscriptionSchema = looseObject({
  uuid: resourceId,
  resource: text,
  plan: text,
  on_behalf_of: text,
  customer: text,
  description: text,
  payment_method: text,
  due_date: text,
  due_since_date: text,
  expiration_date: text,
  amount: integerCents,
  currency: text,
  status,
  suspended_at: text,
  card: text,
  uri: text,
  metadata,
  created_at: text,
  updated_at: text,
});

/** An invoice of a subscription or a one-off charge. Unlike a transaction's, its amount is integer cents. */
export const invoiceSchema = looseObject({
  id: resourceId,
  resource: text,
  subscription: text,
  on_behalf_of: text,
  customer: text,
  invoice_customer: anyObject,
  description: text,
  payment_method: text,
  due_date: text,
  expiration_date: text,
  amount: integerCents,
  currency: text,
  paid_at: text,
  voided_at: text,
  retries: optionalInt,
  max_retries: optionalInt,
  status,
  transaction: text,
  uri: text,
  metadata: z.optional(z.unknown()),
  created_at: text,
  updated_at: text,
});
