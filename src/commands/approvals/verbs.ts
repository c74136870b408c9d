import { bindGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const approvals = bindGroup(verb.approvals, verb, {
  list: () => import('./list.js'),
  show: () => import('./show.js'),
  status: () => import('./status.js'),
  approve: () => import('./approve.js'),
  deny: () => import('./deny.js'),
});
