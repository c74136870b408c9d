import { defineGroup, lazy } from '../verb.js';
import { get, list, replay } from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const events = defineGroup({
  name: 'events',
  description: 'What happened: every change of transactions, buyers, plans, subscriptions and invoices',
  examples: ['payctl events list --type transaction.succeeded', 'payctl events replay <event-id>'],
  verbs: [
    lazy(list, () => import('./list.js')),
    lazy(get, () => import('../shared/show.js').then((m) => ({ run: m.showById('events.get', 'event id') }))),
    lazy(replay, () => import('./replay.js')),
  ],
});
