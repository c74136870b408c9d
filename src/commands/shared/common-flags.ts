import { flag } from '../verb.js';
import { collect } from './input.js';

// Flags that verbs of several groups declare alike, each written once so that its help reads the
// same wherever it is: whom something new bills, in what currency and for which seller, metadata.

/** The buyer a new invoice or subscription bills. */
export const CUSTOMER_FLAG = flag('--customer <buyer-id>', 'the buyer');

/** The currency of a new plan, invoice, subscription or source. */
export const CURRENCY_FLAG = flag('--currency <code>', 'three-letter currency (default: the profile currency)');

/** The seller a new invoice, subscription or source is for. */
export const ON_BEHALF_OF_FLAG = flag('--on-behalf-of <seller-id>', "seller (default: the profile's seller_id)");

export const METADATA_FLAG = flag('--metadata <key=value>', 'metadata entry (repeatable)', { parse: collect });
