import { bindGroup, runs } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const sandbox = bindGroup(verb.sandbox, verb, {
  serve: () => import('./serve.js'),
  reset: () => import('./reset.js'),
  pay: () => import('./pay.js'),
  ...runs(() => import('./clock.js'), { clock: 'runClock', advance: 'runAdvance', generate: 'runGenerate' }),
});
