import { bind, defineGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const receivables = defineGroup({
  name: 'receivables',
  description: 'What the seller will receive for a transaction, installment by installment',
  examples: ['payctl receivables list --transaction <transaction-id>', 'payctl receivables get <receivable-id>'],
  verbs: bind(verb, { get: () => import('./get.js'), list: () => import('./list.js') }),
});
