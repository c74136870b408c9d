import { bindGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const policy = bindGroup(verb.policy, verb, {
  list: () => import('./list.js'),
  add: () => import('./add.js'),
  remove: () => import('./remove.js'),
});
