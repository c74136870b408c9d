import { bind, defineGroup, runs } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const invoices = defineGroup({
  name: 'invoices',
  description: 'What was billed: subscription and one-off invoices; approve, cancel or refund them',
  examples: ['payctl invoices list --subscription <subscription-id>', 'payctl invoices refund <invoice-id>'],
  verbs: bind(verb, {
    create: () => import('./create.js'),
    list: () => import('./list.js'),
    get: () => import('./get.js'),
    ...runs(() => import('./lifecycle.js'), { remove: 'runRemove', approve: 'runApprove', refund: 'runRefund' }),
  }),
});
