import { bindGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const ledger = bindGroup(verb.ledger, verb, {
  list: () => import('./list.js'),
  show: () => import('./show.js'),
  unlock: () => import('./unlock.js'),
  check: () => import('./check.js'),
  reset: () => import('./reset.js'),
  exportTrail: () => import('./export.js'),
});
