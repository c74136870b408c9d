import { flag } from '../verb.js';
import { collect } from './input.js';

// Flags that verbs of several groups declare alike, each written once so that its help reads the
// same wherever it is: an amount, whom something new bills, in what currency and for which
// seller, metadata.

/**
 * --amount and --amount-cents, one amount in major units or in cents (amount.ts reads them
 * together): `what` it is ("amount to refund"), and `note`, what --amount's help adds in brackets.
 */
export function amountFlags(what: string, note?: string) {
  return {
    amount: flag('--amount <amount>', `${what} in major units${note === undefined ? '' : ` (${note})`}`, { ask: `${what} (e.g. 10,50)`, alternative: 'amountCents' }),
    amountCents: flag('--amount-cents <cents>', `${what} in cents`),
  };
}

/** The buyer a new invoice or subscription bills. */
export const CUSTOMER_FLAG = flag('--customer <buyer-id>', 'the buyer');

/** The currency of a new plan, invoice, subscription or source. */
export const CURRENCY_FLAG = flag('--currency <code>', 'three-letter currency (default: the profile currency)');

/** The seller a new invoice, subscription or source is for. */
export const ON_BEHALF_OF_FLAG = flag('--on-behalf-of <seller-id>', "seller (default: the profile's seller_id)");

export const METADATA_FLAG = flag('--metadata <key=value>', 'metadata entry (repeatable)', { parse: collect });
