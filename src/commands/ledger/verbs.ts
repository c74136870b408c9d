import { defineGroup, lazy } from '../verb.js';
import { check, list, reset, show, unlock } from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const ledger = defineGroup({
  name: 'ledger',
  description: "The ledger of money moves (this machine's, or the team's shared one): what was sent, by whom, and what became of it",
  examples: ['payctl ledger list --state pending,unknown', 'payctl ledger show <transaction-id>'],
  verbs: [
    lazy(list, () => import('./list.js')),
    lazy(show, () => import('./show.js')),
    lazy(unlock, () => import('./unlock.js')),
    lazy(check, () => import('./check.js')),
    lazy(reset, () => import('./reset.js')),
  ],
});
