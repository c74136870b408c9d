import { bindGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const receivables = bindGroup(verb.receivables, verb, { get: () => import('./get.js'), list: () => import('./list.js') });
