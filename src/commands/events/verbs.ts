import { bindGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const events = bindGroup(verb.events, verb, {
  list: () => import('./list.js'),
  get: () => import('../shared/show.js').then((m) => ({ run: m.showById('events.get', 'event id') })),
  replay: () => import('./replay.js'),
});
