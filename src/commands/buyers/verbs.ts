import { bindGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const buyers = bindGroup(verb.buyers, verb, {
  create: () => import('./create.js'),
  list: () => Promise.all([import('../shared/plain-list.js'), import('./shared.js')]).then(([m, s]) => ({ run: m.plainList('buyers.list', 'buyers', s.BUYER_COLUMNS, s.buyerRow) })),
  find: () => import('./find.js'),
  get: () => import('./get.js'),
  update: () => import('./update.js'),
  remove: () => import('./remove.js'),
  search: () => import('./search.js'),
});
