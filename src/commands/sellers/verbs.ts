import { bindGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const sellers = bindGroup(verb.sellers, verb, {
  create: () => import('./create.js'),
  list: () => Promise.all([import('../shared/plain-list.js'), import('./shared.js')]).then(([m, s]) => ({ run: m.plainList('sellers.list', 'sellers', s.SELLER_COLUMNS, s.sellerRow) })),
  get: () => Promise.all([import('../shared/show.js'), import('./view.js')]).then(([m, v]) => ({ run: m.showWithView('sellers.get', 'seller id', v.SELLER_VIEW) })),
  update: () => import('./update.js'),
  remove: () => import('./remove.js'),
});
