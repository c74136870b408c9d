import { bind, defineGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const plans = defineGroup({
  name: 'plans',
  description: 'Recurrence plans: what is charged, how often',
  examples: ['payctl plans create --name Mensal --amount 29.90 --frequency monthly', 'payctl plans list'],
  verbs: bind(verb, {
    create: () => import('./create.js'),
    list: () => import('./list.js'),
    get: () => import('./get.js'),
    update: () => import('./update.js'),
    remove: () => import('./remove.js'),
  }),
});
