import { bind, defineGroup, runs } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const balances = defineGroup({
  name: 'balances',
  description: 'Account balances and the history of entries behind them',
  examples: ['payctl balances get', 'payctl balances history --from 2026-11-01 --to 2026-11-30 -o csv > entries.csv'],
  verbs: bind(verb, {
    accounts: () => import('./accounts.js'),
    history: () => import('./history.js'),
    ...runs(() => import('./show.js'), { get: 'runGet', current: 'runCurrent' }),
  }),
});
