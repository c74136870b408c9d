import { bind, defineGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const buyers = defineGroup({
  name: 'buyers',
  description: 'Create, find, change and remove buyers (customers)',
  examples: ['payctl buyers find maria@example.com', 'payctl buyers search --taxpayer-id 529.982.247-25', 'payctl buyers list --limit 10'],
  verbs: bind(verb, {
    create: () => import('./create.js'),
    list: () => import('./list.js'),
    find: () => import('./find.js'),
    get: () => import('./get.js'),
    update: () => import('./update.js'),
    remove: () => import('./remove.js'),
    search: () => import('./search.js'),
  }),
});
