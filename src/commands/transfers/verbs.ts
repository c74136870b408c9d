import { bindGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const transfers = bindGroup(verb.transfers, verb, {
  list: () => import('./list.js'),
  get: () => Promise.all([import('../shared/show.js'), import('./view.js')]).then(([m, v]) => ({ run: m.showWithView('transfers.get', 'transfer id', v.TRANSFER_VIEW) })),
  transactions: () => import('./transactions.js'),
  explain: () => import('./explain.js'),
});
