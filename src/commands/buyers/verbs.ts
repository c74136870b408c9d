import { defineGroup, lazy } from '../verb.js';
import { create, find, get, list, remove, search, update } from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const buyers = defineGroup({
  name: 'buyers',
  description: 'Create, find, change and remove buyers (customers)',
  examples: ['payctl buyers find maria@example.com', 'payctl buyers search --taxpayer-id 529.982.247-25', 'payctl buyers list --limit 10'],
  verbs: [
    lazy(create, () => import('./create.js')),
    lazy(list, () => import('./list.js')),
    lazy(find, () => import('./find.js')),
    lazy(get, () => import('./get.js')),
    lazy(update, () => import('./update.js')),
    lazy(remove, () => import('./remove.js')),
    lazy(search, () => import('./search.js')),
  ],
});
