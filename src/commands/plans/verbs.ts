import { defineGroup, lazy } from '../verb.js';
import { create, get, list, remove, update } from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const plans = defineGroup({
  name: 'plans',
  description: 'Recurrence plans: what is charged, how often',
  examples: ['payctl plans create --name Mensal --amount 29.90 --frequency monthly', 'payctl plans list'],
  verbs: [
    lazy(create, () => import('./create.js')),
    lazy(list, () => import('./list.js')),
    lazy(get, () => import('./get.js')),
    lazy(update, () => import('./update.js')),
    lazy(remove, () => import('./remove.js')),
  ],
});
