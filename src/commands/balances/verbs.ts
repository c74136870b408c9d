import { bindGroup, runs } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const balances = bindGroup(verb.balances, verb, {
  accounts: () => import('./accounts.js'),
  history: () => import('./history.js'),
  ...runs(() => import('./show.js'), { get: 'runGet', current: 'runCurrent' }),
});
