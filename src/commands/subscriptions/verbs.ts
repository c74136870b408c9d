import { defineGroup, lazy } from '../verb.js';
import { create, get, list, reactivate, remove, suspend, update } from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const subscriptions = defineGroup({
  name: 'subscriptions',
  description: "Buyers' subscriptions to plans: find them, fix them, suspend and reactivate them",
  examples: ['payctl subscriptions list --customer <buyer-id>', 'payctl subscriptions suspend <subscription-id>'],
  verbs: [
    lazy(create, () => import('./create.js')),
    lazy(list, () => import('./list.js')),
    lazy(get, () => import('./get.js')),
    lazy(update, () => import('./update.js')),
    lazy(remove, () => import('./lifecycle.js').then((m) => ({ run: m.runRemove }))),
    lazy(suspend, () => import('./lifecycle.js').then((m) => ({ run: m.runSuspend }))),
    lazy(reactivate, () => import('./lifecycle.js').then((m) => ({ run: m.runReactivate }))),
  ],
});
