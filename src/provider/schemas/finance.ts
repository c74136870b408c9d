import * as z from 'zod/mini';
import { decimalAmount, looseObject, optionalAmount, resourceId, shown, status, stringList, text } from './shared.js';

// Where the money goes after a sale: receivables, balance accounts and their history, transfers
// (payouts) and future entries. Amounts here are what finance adds up, so every one is checked.

export const receivableSchema = looseObject({
  id: resourceId,
  resource: text,
  status,
  recipient: text,
  transaction: text,
  split_rule: z.optional(z.unknown()),
  installment: z.optional(z.nullable(z.union([z.string(), z.number()], { error: 'an installment number' }))),
  liable: z.optional(z.unknown()),
  amount: decimalAmount,
  gross_amount: optionalAmount,
  anticipation_fee: optionalAmount,
  paid_at: text,
  created_at: text,
  transaction_created_at: text,
  canceled_at: text,
  expected_on: text,
  authorization_code: text,
  prepaid: z.optional(z.unknown()),
  transfer: text,
  id_original_receivable: shown,
});

/**
 * A balance account (seller or buyer) with what it holds: `balances get` adds the future entries and
 * the available part, `balances current` only the current balance; a buyer's accounts list carries
 * the account's own id.
 */
export const balanceSchema = looseObject({
  id: z.optional(resourceId),
  account: z.optional(resourceId),
  resource: text,
  type: text,
  owner: text,
  currency: text,
  current_balance: decimalAmount,
  future_entries: optionalAmount,
  available_balance: optionalAmount,
  current_blocked_balance: optionalAmount,
  as_of: text,
  uri: text,
  created_at: text,
  updated_at: text,
});

/** One line of an account's history: what moved, by how much, and the balance after it. */
export const balanceEntrySchema = looseObject({
  id: resourceId,
  resource: text,
  account: text,
  operation: text,
  type: text,
  amount: decimalAmount,
  balance: optionalAmount,
  currency: text,
  description: text,
  transaction: text,
  transfer: text,
  created_at: text,
});

/** A payout of receivables to a bank account. */
export const transferSchema = looseObject({
  id: resourceId,
  resource: text,
  status,
  type: text,
  amount: decimalAmount,
  currency: text,
  description: text,
  on_behalf_of: text,
  account: text,
  bank_account: z.optional(z.unknown()),
  transactions: stringList,
  receivables: stringList,
  transfer_date: text,
  fees: optionalAmount,
  uri: text,
  created_at: text,
  updated_at: text,
});

/** A receivable not yet paid out, as the seller's future entries list shows it. */
export const futureEntrySchema = looseObject({
  id: resourceId,
  resource: text,
  on_behalf_of: text,
  transaction: text,
  receivable: text,
  installment: z.optional(z.nullable(z.union([z.string(), z.number()], { error: 'an installment number' }))),
  gross_amount: optionalAmount,
  fee: optionalAmount,
  amount: decimalAmount,
  currency: text,
  expected_on: text,
  created_at: text,
});
