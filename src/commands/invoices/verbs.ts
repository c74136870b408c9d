import { defineGroup, lazy } from '../verb.js';
import { approve, create, get, list, refund, remove } from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const invoices = defineGroup({
  name: 'invoices',
  description: 'What was billed: subscription and one-off invoices; approve, cancel or refund them',
  examples: ['payctl invoices list --subscription <subscription-id>', 'payctl invoices refund <invoice-id>'],
  verbs: [
    lazy(create, () => import('./create.js')),
    lazy(list, () => import('./list.js')),
    lazy(get, () => import('./get.js')),
    lazy(remove, () => import('./lifecycle.js').then((m) => ({ run: m.runRemove }))),
    lazy(approve, () => import('./lifecycle.js').then((m) => ({ run: m.runApprove }))),
    lazy(refund, () => import('./lifecycle.js').then((m) => ({ run: m.runRefund }))),
  ],
});
