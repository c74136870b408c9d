import { bind, defineGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const sources = defineGroup({
  name: 'sources',
  description: 'Payment sources: a card, a card token or a buyer, prepared for use in a transaction',
  examples: ['payctl sources create --card <card-id> --usage reusable', 'payctl sources get <source-id>'],
  verbs: bind(verb, { create: () => import('./create.js'), get: () => import('./get.js'), remove: () => import('./remove.js') }),
});
