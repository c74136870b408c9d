import * as z from 'zod/mini';
import { anyString, decimalAmount, freeForm, looseObject, optionalAmount, resourceId, shown, status, stringList, text } from './shared.js';
import { oneOfWords, readAs, tolerant } from './tolerant.js';

// Where the money goes after a sale: receivables, balance accounts and their history, transfers
// (payouts) and future entries. Amounts here are what finance adds up, so every one is checked.

/** Text, or null for none. */
const textOrNull = z.nullable(anyString);

/** The provider's receivable: one per installment of a collected sale, each field as it sends it. */
export const receivableStrict = z.strictObject({
  id: resourceId,
  resource: z.literal('receivable'),
  /** pending until its expected date, then paid out to the seller's bank account by a transfer. */
  status: oneOfWords(['pending', 'paid', 'canceled'], status),
  recipient: anyString,
  transaction: anyString,
  /** The split rule this receivable pays, or null for the sale's own seller. */
  split_rule: readAs(textOrNull, freeForm),
  installment: readAs(anyString, z.union([z.string(), z.number()], { error: 'an installment number' })),
  liable: readAs(z.enum(['true', 'false']), freeForm),
  amount: decimalAmount,
  gross_amount: decimalAmount,
  anticipation_fee: decimalAmount,
  paid_at: textOrNull,
  created_at: anyString,
  transaction_created_at: anyString,
  canceled_at: textOrNull,
  expected_on: anyString,
  authorization_code: textOrNull,
  id_original_receivable: readAs(z.null(), shown),
  prepaid: readAs(z.literal('false'), freeForm),
  /** The transfer that paid it out; null until then. */
  transfer: textOrNull,
});

export const receivableSchema = tolerant(receivableStrict, ['id', 'status', 'amount']);

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
export const balanceEntryStrict = z.strictObject({
  id: resourceId,
  resource: z.literal('balance_history'),
  account: anyString,
  operation: z.enum(['sale', 'refund', 'chargeback', 'transfer']),
  type: z.enum(['credit', 'debit']),
  /** Signed: negative for a debit. */
  amount: decimalAmount,
  /** The account's current balance right after this entry. */
  balance: decimalAmount,
  currency: anyString,
  description: anyString,
  transaction: textOrNull,
  transfer: textOrNull,
  created_at: anyString,
});

export const balanceEntrySchema = tolerant(balanceEntryStrict, ['id', 'amount']);

/** A payout of receivables to the seller's bank account. */
export const transferStrict = z.strictObject({
  id: resourceId,
  resource: z.literal('transfer'),
  status: oneOfWords(['pending', 'succeeded', 'failed', 'canceled'], status),
  type: z.literal('automatic'),
  amount: decimalAmount,
  currency: anyString,
  description: anyString,
  on_behalf_of: anyString,
  account: anyString,
  bank_account: readAs(z.strictObject({ bank_code: anyString, routing_number: anyString, account_number: anyString, holder_name: anyString }), freeForm),
  /** The transactions whose receivables it paid. */
  transactions: readAs(z.array(anyString), stringList),
  receivables: readAs(z.array(anyString), stringList),
  transfer_date: anyString,
  fees: decimalAmount,
  uri: anyString,
  created_at: anyString,
  updated_at: anyString,
});

export const transferSchema = tolerant(transferStrict, ['id', 'status', 'amount']);

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
