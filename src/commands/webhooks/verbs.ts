import { bindGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const webhooks = bindGroup(verb.webhooks, verb, {
  create: () => import('./create.js'),
  list: () => Promise.all([import('../shared/plain-list.js'), import('./shared.js')]).then(([m, s]) => ({ run: m.plainList('webhooks.list', 'webhooks', s.WEBHOOK_COLUMNS, s.webhookRow) })),
  get: () => Promise.all([import('../shared/show.js'), import('./view.js')]).then(([m, v]) => ({ run: m.showWithView('webhooks.get', 'webhook id', v.WEBHOOK_VIEW) })),
  remove: () => import('./remove.js'),
  listen: () => import('./listen.js'),
});
