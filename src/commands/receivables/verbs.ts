import { defineGroup, lazy } from '../verb.js';
import { get, list } from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const receivables = defineGroup({
  name: 'receivables',
  description: 'What the seller will receive for a transaction, installment by installment',
  examples: ['payctl receivables list --transaction <transaction-id>', 'payctl receivables get <receivable-id>'],
  verbs: [lazy(get, () => import('./get.js')), lazy(list, () => import('./list.js'))],
});
