import { bind, defineGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const transfers = defineGroup({
  name: 'transfers',
  description: "Payouts to the seller's bank account, and the transactions each paid",
  examples: ['payctl transfers list --from 2026-11-01 --to 2026-11-30', 'payctl transfers transactions <transfer-id>'],
  verbs: bind(verb, {
    list: () => import('./list.js'),
    get: () => Promise.all([import('../shared/show.js'), import('./view.js')]).then(([m, v]) => ({ run: m.showWithView('transfers.get', 'transfer id', v.TRANSFER_VIEW) })),
    transactions: () => import('./transactions.js'),
    explain: () => import('./explain.js'),
  }),
});
