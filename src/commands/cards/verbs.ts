import { bind, defineGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const cards = defineGroup({
  name: 'cards',
  description: 'Tokenize cards, attach them to buyers, look them up and remove them',
  examples: ['payctl cards tokenize --card-file card.json', 'payctl cards associate --token <token-id> --customer <buyer-id>'],
  verbs: bind(verb, { tokenize: () => import('./tokenize.js'), associate: () => import('./associate.js'), get: () => import('./get.js'), remove: () => import('./remove.js') }),
});
