import { bind, defineGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const webhooks = defineGroup({
  name: 'webhooks',
  description: 'Where events are delivered: register, list and remove webhooks, and watch events arrive',
  examples: ['payctl webhooks listen', 'payctl webhooks create --url https://shop.example.com/hooks --event transaction.succeeded --event invoice.paid'],
  verbs: bind(verb, {
    create: () => import('./create.js'),
    list: () => import('./list.js'),
    get: () => import('../shared/show.js').then((m) => ({ run: m.showById('webhooks.get', 'webhook id') })),
    remove: () => import('./remove.js'),
    listen: () => import('./listen.js'),
  }),
});
