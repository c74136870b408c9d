import { defineGroup, lazy } from '../verb.js';
import { create, get, list, listen, remove } from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const webhooks = defineGroup({
  name: 'webhooks',
  description: 'Where events are delivered: register, list and remove webhooks, and watch events arrive',
  examples: ['payctl webhooks listen', 'payctl webhooks create --url https://shop.example.com/hooks --event transaction.succeeded --event invoice.paid'],
  verbs: [
    lazy(create, () => import('./create.js')),
    lazy(list, () => import('./list.js')),
    lazy(get, () => import('../shared/show.js').then((m) => ({ run: m.showById('webhooks.get', 'webhook id') }))),
    lazy(remove, () => import('./remove.js')),
    lazy(listen, () => import('./listen.js')),
  ],
});
