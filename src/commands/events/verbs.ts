import { bind, defineGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const events = defineGroup({
  name: 'events',
  description: 'What happened: every change of transactions, buyers, plans, subscriptions and invoices',
  examples: ['payctl events list --type transaction.succeeded', 'payctl events replay <event-id>'],
  verbs: bind(verb, {
    list: () => import('./list.js'),
    get: () => import('../shared/show.js').then((m) => ({ run: m.showById('events.get', 'event id') })),
    replay: () => import('./replay.js'),
  }),
});
