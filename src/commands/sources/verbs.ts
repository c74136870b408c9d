import { bindGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const sources = bindGroup(verb.sources, verb, { create: () => import('./create.js'), get: () => import('./get.js'), remove: () => import('./remove.js') });
