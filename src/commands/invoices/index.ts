import type { Command } from 'commander';
import type { ActionFactory } from '../verb.js';
import { addMoneyMoveFlags } from '../shared/again.js';
import { examples, requiredFirst } from '../shared/help.js';
import { addListFlags } from '../shared/list-flags.js';
import { addSellerFlag } from '../shared/seller-flag.js';

export function registerInvoices(program: Command, action: ActionFactory, withVerbs = true): void {
  const group = program
    .command('invoices')
    .description('What was billed: subscription and one-off invoices; approve, cancel or refund them')
    .addHelpText('after', examples('payctl invoices list --subscription <subscription-id>', 'payctl invoices refund <invoice-id>'));
  // Only the group the command line names needs its verbs (see buildProgram).
  if (!withVerbs) return;
  group
    .command('create')
    .description('Bill a buyer once (a one-off invoice)')
    .option('--customer <buyer-id>', 'the buyer')
    .option('--amount <amount>', 'amount in major units')
    .option('--amount-cents <cents>', 'amount in cents')
    .option('--due-date <YYYY-MM-DD>', 'due date (default: today)')
    .option('--expiration-date <YYYY-MM-DD>', 'last day it can be paid')
    .option('--description <text>', 'what it is for')
    .option('--currency <code>', 'three-letter currency (default: the profile currency)')
    .option('--on-behalf-of <seller-id>', "seller (default: the profile's seller_id)")
    .addHelpText('after', examples('payctl invoices create --customer <buyer-id> --amount 150 --due-date 2026-12-10 --description "Taxa de adesão"', 'payctl invoices create --customer <buyer-id> --amount-cents 4990'))
    .action(action(() => import('./create.js')));
  const list = group
    .command('list')
    .description('List invoices: due date, amount, status, paid date')
    .option('--subscription <subscription-id>', "only this subscription's")
    .option('--customer <buyer-id>', "only this buyer's")
    .option('--status <status>', 'only these statuses (comma-separated): pending, paid, over-due, canceled, failed');
  addSellerFlag(list, "only this seller's (the provider's …/sellers/{id}/invoices, which takes dates but no other filter)");
  addListFlags(list)
    .addHelpText(
      'after',
      examples('payctl invoices list --subscription <subscription-id> --all', 'payctl invoices list --status failed,over-due --from 2026-11-01', 'payctl invoices list --seller <seller-id> --from 2026-11-01'),
    )
    .action(action(() => import('./list.js')));
  group
    .command('get <id>')
    .description('Show an invoice')
    .addHelpText('after', examples('payctl invoices get <invoice-id>', 'payctl invoices get <invoice-id> -o json | jq .status'))
    .action(action(() => import('./get.js')));
  group
    .command('remove <id>')
    .description('Cancel a pending or over-due invoice; asks for confirmation')
    .addHelpText('after', examples('payctl invoices remove <invoice-id> --yes', 'payctl invoices remove <invoice-id>                # asks first'))
    .action(action(() => import('./lifecycle.js').then((m) => ({ run: m.runRemove }))));
  addMoneyMoveFlags(group.command('approve <id>').description("Pay a pending, over-due or failed invoice now, with the buyer's card; asks for confirmation"))
    .addHelpText('after', examples('payctl invoices approve <invoice-id>', 'payctl invoices approve <invoice-id> --yes -o json | jq .paid_at'))
    .action(action(() => import('./lifecycle.js').then((m) => ({ run: m.runApprove }))));
  addMoneyMoveFlags(group.command('refund <id>').description("Refund a paid invoice in full (the provider's invoice void); asks for confirmation"))
    .addHelpText('after', examples('payctl invoices refund <invoice-id>', 'payctl invoices refund <invoice-id> --yes'))
    .action(action(() => import('./lifecycle.js').then((m) => ({ run: m.runRefund }))));
  requiredFirst(group, { create: ['--customer', '--amount'] });
}
