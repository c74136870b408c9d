import { defineGroup, lazy } from '../verb.js';
import { explain, get, list, transactions } from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const transfers = defineGroup({
  name: 'transfers',
  description: "Payouts to the seller's bank account, and the transactions each paid",
  examples: ['payctl transfers list --from 2026-11-01 --to 2026-11-30', 'payctl transfers transactions <transfer-id>'],
  verbs: [
    lazy(list, () => import('./list.js')),
    lazy(get, () => Promise.all([import('../shared/show.js'), import('./view.js')]).then(([m, v]) => ({ run: m.showWithView('transfers.get', 'transfer id', v.TRANSFER_VIEW) }))),
    lazy(transactions, () => import('./transactions.js')),
    lazy(explain, () => import('./explain.js')),
  ],
});
