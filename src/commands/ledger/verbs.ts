import { bind, defineGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const ledger = defineGroup({
  name: 'ledger',
  description: "The ledger of money moves (this machine's, or the team's shared one): what was sent, by whom, and what became of it",
  examples: ['payctl ledger list --state pending,unknown', 'payctl ledger show <transaction-id>'],
  verbs: bind(verb, {
    list: () => import('./list.js'),
    show: () => import('./show.js'),
    unlock: () => import('./unlock.js'),
    check: () => import('./check.js'),
    reset: () => import('./reset.js'),
  }),
});
