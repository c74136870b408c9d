import type { Command } from 'commander';
import type { ActionFactory } from '../verb.js';
import { examples, requiredFirst } from '../shared/help.js';
import { addGroupBy } from '../shared/group-by-flag.js';
import { addListFlags } from '../shared/list-flags.js';

export function registerBalances(program: Command, action: ActionFactory, withVerbs = true): void {
  const group = program
    .command('balances')
    .description('Account balances and the history of entries behind them')
    .addHelpText('after', examples('payctl balances get', 'payctl balances history --from 2026-11-01 --to 2026-11-30 -o csv > entries.csv'));
  // Only the group the command line names needs its verbs (see buildProgram).
  if (!withVerbs) return;
  group
    .command('accounts')
    .description("List a buyer's balance accounts")
    .option('--buyer <buyer-id>', 'the buyer')
    .addHelpText('after', examples('payctl balances accounts --buyer <buyer-id>', 'payctl balances accounts --buyer <buyer-id> -o json | jq -r ".[0].id"'))
    .action(action(() => import('./accounts.js')));
  const history = group
    .command('history')
    .description("Entries that moved a balance: one account's, a buyer's, a seller's, or every account's")
    .option('--account <account-id>', "only this account's entries")
    .option('--buyer <buyer-id>', "only this buyer's accounts' entries")
    .option('--seller <seller-id>', "only this seller's account's entries (payctl's own …/sellers/{id}/balances/history)")
    .option('--operation <operation>', 'only these operations (comma-separated): sale, refund, transfer');
  addGroupBy(addListFlags(history))
    .addHelpText(
      'after',
      examples(
        'payctl balances history --account <account-id> --limit 50',
        'payctl balances history --from 2026-11-01 --to 2026-11-30 --group-by month',
        'payctl balances history --all --from 2026-11-01 -o csv > entries.csv',
        'payctl balances history --operation refund',
        'payctl balances history --seller <seller-id> --operation sale',
      ),
    )
    .action(action(() => import('./history.js')));
  group
    .command('get')
    .description("An account's balance: current, future (receivables to come) and total (default: the profile's seller)")
    .option('--account <account-id>', 'the account (default: the seller of the profile)')
    .option('--seller <seller-id>', "the seller's account (default: the seller of the profile)")
    .addHelpText('after', examples('payctl balances get', 'payctl balances get --account <account-id> -o json', 'payctl balances get --seller <seller-id>'))
    .action(action(() => import('./show.js').then((m) => ({ run: m.runGet }))));
  group
    .command('current')
    .description("What is in an account now (default: the profile's seller)")
    .option('--account <account-id>', 'the account (default: the seller of the profile)')
    .option('--seller <seller-id>', "the seller's account (default: the seller of the profile)")
    .addHelpText(
      'after',
      examples('payctl balances current', 'payctl balances current --account <account-id> -o json | jq -r .current_balance', 'payctl balances current --seller <seller-id>'),
    )
    .action(action(() => import('./show.js').then((m) => ({ run: m.runCurrent }))));
  requiredFirst(group, { accounts: ['--buyer'] });
}
