import { bindGroup, runs } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const subscriptions = bindGroup(verb.subscriptions, verb, {
  create: () => import('./create.js'),
  list: () => import('./list.js'),
  get: () => Promise.all([import('../shared/show.js'), import('./view.js'), import('./shared.js')]).then(([m, v, s]) => ({ run: m.showWithView('subscriptions.get', 'subscription id', v.SUBSCRIPTION_VIEW, s.subscriptionRow) })),
  update: () => import('./update.js'),
  ...runs(() => import('./lifecycle.js'), { remove: 'runRemove', suspend: 'runSuspend', reactivate: 'runReactivate' }),
});
