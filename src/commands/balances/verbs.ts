import { defineGroup, lazy } from '../verb.js';
import { accounts, current, get, history } from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const balances = defineGroup({
  name: 'balances',
  description: 'Account balances and the history of entries behind them',
  examples: ['payctl balances get', 'payctl balances history --from 2026-11-01 --to 2026-11-30 -o csv > entries.csv'],
  verbs: [
    lazy(accounts, () => import('./accounts.js')),
    lazy(history, () => import('./history.js')),
    lazy(get, () => import('./show.js').then((m) => ({ run: m.runGet }))),
    lazy(current, () => import('./show.js').then((m) => ({ run: m.runCurrent }))),
  ],
});
