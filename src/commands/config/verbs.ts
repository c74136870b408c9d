import { bindGroup, runs } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const config = bindGroup(verb.config, verb, {
  ...runs(() => import('./config.js'), { get: 'runGet', set: 'runSet', unset: 'runUnset', list: 'runList' }),
});
