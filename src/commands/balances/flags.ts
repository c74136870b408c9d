import { groupByFlags } from '../shared/group-by-flag.js';
import { listFlags } from '../shared/list-flags.js';
import { defineVerb, flag, groupHelp, requiring } from '../verb.js';

export const balances = groupHelp('balances', 'Account balances and the history of entries behind them', ['payctl balances get', 'payctl balances history --from 2026-11-01 --to 2026-11-30 -o csv > entries.csv']);

export const accounts = defineVerb({
  name: 'accounts',
  description: "List a buyer's balance accounts",
  ...requiring({ buyer: flag('--buyer <buyer-id>', 'the buyer') }),
  examples: ['payctl balances accounts --buyer <buyer-id>', 'payctl balances accounts --buyer <buyer-id> -o json | jq -r ".[0].id"'],
});

export const history = defineVerb({
  name: 'history',
  description: "Entries that moved a balance: one account's, a buyer's, a seller's, or every account's",
  flags: {
    account: flag('--account <account-id>', "only this account's entries"),
    buyer: flag('--buyer <buyer-id>', "only this buyer's accounts' entries"),
    seller: flag('--seller <seller-id>', "only this seller's account's entries (payctl's own …/sellers/{id}/balances/history)"),
    operation: flag('--operation <operation>', 'only these operations (comma-separated): sale, refund, chargeback, transfer'),
    ...listFlags(),
    ...groupByFlags(),
  },
  examples: [
    'payctl balances history --account <account-id> --limit 50',
    'payctl balances history --from 2026-11-01 --to 2026-11-30 --group-by month',
    'payctl balances history --all --from 2026-11-01 -o csv > entries.csv',
    'payctl balances history --operation refund',
    'payctl balances history --seller <seller-id> --operation sale',
  ],
});

/** Whose balance: get and current take the same two flags. */
const ACCOUNT_FLAGS = {
  account: flag('--account <account-id>', 'the account (default: the seller of the profile)'),
  seller: flag('--seller <seller-id>', "the seller's account (default: the seller of the profile)"),
};

export const get = defineVerb({
  name: 'get',
  description: "An account's balance: current, future (receivables to come) and total (default: the profile's seller)",
  flags: ACCOUNT_FLAGS,
  examples: ['payctl balances get', 'payctl balances get --account <account-id> -o json', 'payctl balances get --seller <seller-id>'],
});

export const current = defineVerb({
  name: 'current',
  description: "What is in an account now (default: the profile's seller)",
  flags: ACCOUNT_FLAGS,
  examples: ['payctl balances current', 'payctl balances current --account <account-id> -o json | jq -r .current_balance', 'payctl balances current --seller <seller-id>'],
});
