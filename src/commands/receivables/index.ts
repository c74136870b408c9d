import type { Command } from 'commander';
import type { ActionFactory } from '../verb.js';
import { examples } from '../shared/help.js';

export function registerReceivables(program: Command, action: ActionFactory, withVerbs = true): void {
  const group = program
    .command('receivables')
    .description('What the seller will receive for a transaction, installment by installment')
    .addHelpText('after', examples('payctl receivables list --transaction <transaction-id>', 'payctl receivables get <receivable-id>'));
  // Only the group the command line names needs its verbs (see buildProgram).
  if (!withVerbs) return;
  group
    .command('get <id>')
    .description('Show one receivable')
    .addHelpText('after', examples('payctl receivables get <receivable-id>', 'payctl receivables get <receivable-id> -o json | jq .expected_on'))
    .action(action(() => import('./get.js')));
  group
    .command('list')
    .description("List a transaction's or a seller's receivables: installment, expected date, gross, fee, net, status")
    .option('--transaction <transaction-id>', 'the transaction')
    .option('--seller <seller-id>', "the seller: all its receivables (the provider's …/sellers/{id}/receivables)")
    .option('--status <status>', 'with --seller: only this status, pending or paid')
    .option('--limit <n>', 'with --seller: at most this many (default 20)')
    .option('--all', 'with --seller: every page, streamed as it arrives')
    .option('--group-by <what>', 'with --seller: sum per group instead of listing: day, week, month (of the expected date) or status')
    .addHelpText(
      'after',
      examples('payctl receivables list --transaction <transaction-id>', 'payctl receivables list --transaction <id> -o csv', 'payctl receivables list --seller <seller-id> --status pending --all', 'payctl receivables list --seller <seller-id> --status pending --group-by week'),
    )
    .action(action(() => import('./list.js')));
}
