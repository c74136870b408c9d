import { defineGroup, lazy } from '../verb.js';
import { associate, get, remove, tokenize } from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const cards = defineGroup({
  name: 'cards',
  description: 'Tokenize cards, attach them to buyers, look them up and remove them',
  examples: ['payctl cards tokenize --card-file card.json', 'payctl cards associate --token <token-id> --customer <buyer-id>'],
  verbs: [lazy(tokenize, () => import('./tokenize.js')), lazy(associate, () => import('./associate.js')), lazy(get, () => import('./get.js')), lazy(remove, () => import('./remove.js'))],
});
