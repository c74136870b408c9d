import { bindGroup, runs } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const invoices = bindGroup(verb.invoices, verb, {
  create: () => import('./create.js'),
  list: () => import('./list.js'),
  get: () => Promise.all([import('../shared/show.js'), import('./view.js'), import('./shared.js')]).then(([m, v, s]) => ({ run: m.showWithView('invoices.get', 'invoice id', v.INVOICE_VIEW, s.invoiceRow) })),
  ...runs(() => import('./lifecycle.js'), { remove: 'runRemove', approve: 'runApprove', refund: 'runRefund' }),
});
