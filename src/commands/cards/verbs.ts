import { bindGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const cards = bindGroup(verb.cards, verb, { tokenize: () => import('./tokenize.js'), associate: () => import('./associate.js'), get: () => import('./get.js'), remove: () => import('./remove.js') });
