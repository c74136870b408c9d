import type { Command } from 'commander';
import type { ActionFactory } from '../verb.js';
import { examples } from '../shared/help.js';

export function registerLedger(program: Command, action: ActionFactory, withVerbs = true): void {
  const group = program
    .command('ledger')
    .description("The ledger of money moves (this machine's, or the team's shared one): what was sent, by whom, and what became of it")
    .addHelpText('after', examples('payctl ledger list --state pending,unknown', 'payctl ledger show <transaction-id>'));
  // Only the group the command line names needs its verbs (see buildProgram).
  if (!withVerbs) return;
  group
    .command('list')
    .description('Recent money moves of this account, newest first: when, who, what, amount, state')
    .option('--state <states>', 'only these states (comma-separated): pending, applied, refused, not_applied, unknown')
    .option('--since <date>', 'only moves from this day (YYYY-MM-DD) or this long ago (30m, 12h, 7d) on')
    .option('--transaction <id>', 'only the moves of this transaction')
    .option('--limit <n>', 'at most this many (default 50)')
    .addHelpText(
      'after',
      examples('payctl ledger list', 'payctl ledger list --state pending,unknown        # moves whose outcome is still open', 'payctl ledger list --since 24h -o json | jq ".[] | select(.holder | startswith(\\"ana@\\"))"'),
    )
    .action(action(() => import('./list.js')));
  group
    .command('show <transaction-or-reference>')
    .description('Every move payctl made on one transaction (or invoice), or under one reference_id, and who holds it now')
    .addHelpText('after', examples('payctl ledger show <transaction-id>', 'payctl ledger show order-7002'))
    .action(action(() => import('./show.js')));
  group
    .command('unlock <key>')
    .description("Take away a lock whose holder you know is gone (its machine died and you cannot wait for its lease); says who held it")
    .option('--force', 'required: a lock held by a live payctl protects a move in flight')
    .addHelpText('after', examples('payctl ledger unlock transaction:<id> --force', 'payctl ledger unlock <transaction-id> --force'))
    .action(action(() => import('./unlock.js')));
  group
    .command('check')
    .description("Check the ledger: SQLite's integrity check (a shared ledger: that it answers), its open outcomes and locks")
    .addHelpText('after', examples('payctl ledger check', 'payctl ledger check -o json'))
    .action(action(() => import('./check.js')));
  group
    .command('reset')
    .description('Start a new ledger when the one this machine used is lost (deleted, emptied, damaged); needs --yes')
    .addHelpText('after', examples('payctl ledger check                  # first: is the ledger there, and sound?', 'payctl ledger reset --yes        # earlier moves are then known only from the sales\' own history'))
    .action(action(() => import('./reset.js')));
}
