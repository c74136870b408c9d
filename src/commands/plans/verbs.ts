import { bindGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const plans = bindGroup(verb.group, verb, {
  create: () => import('./create.js'),
  list: () => import('./list.js'),
  get: () => import('./get.js'),
  update: () => import('./update.js'),
  remove: () => import('./remove.js'),
});
