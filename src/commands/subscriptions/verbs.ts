import { bind, defineGroup, runs } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const subscriptions = defineGroup({
  name: 'subscriptions',
  description: "Buyers' subscriptions to plans: find them, fix them, suspend and reactivate them",
  examples: ['payctl subscriptions list --customer <buyer-id>', 'payctl subscriptions suspend <subscription-id>'],
  verbs: bind(verb, {
    create: () => import('./create.js'),
    list: () => import('./list.js'),
    get: () => import('./get.js'),
    update: () => import('./update.js'),
    ...runs(() => import('./lifecycle.js'), { remove: 'runRemove', suspend: 'runSuspend', reactivate: 'runReactivate' }),
  }),
});
