import { Option, type Command } from 'commander';
import type { ActionFactory } from '../verb.js';
import { examples, requiredFirst } from '../shared/help.js';
import { addListFlags } from '../shared/list-flags.js';
import { addSellerFlag } from '../shared/seller-flag.js';

function addSubscriptionFlags(command: Command, creating: boolean): Command {
  return command
    .option('--plan <plan-id>', 'the plan')
    .addOption(
      // The same two as plans/shared.ts's PAYMENT_METHODS, written out: this module loads at every start-up.
      new Option('--payment-method <method>', `how each invoice is paid: charged to a card, or by a boleto issued for it; the plan must accept it${creating ? ' (default credit)' : ''}`).choices([
        'credit',
        'boleto',
      ]),
    )
    .option('--card <card-id>', "the card to charge (default: the buyer's default card; none with --payment-method boleto)")
    .option('--due-date <YYYY-MM-DD>', 'first (next) due date')
    .option('--expiration-date <YYYY-MM-DD>', 'last day of the subscription')
    .option('--amount <amount>', "amount per cycle in major units (default: the plan's)")
    .option('--amount-cents <cents>', 'amount per cycle in cents')
    .option('--description <text>', `description${creating ? " (default: the plan's description, else its name)" : ''}`);
}

export function registerSubscriptions(program: Command, action: ActionFactory, withVerbs = true): void {
  const group = program
    .command('subscriptions')
    .description("Buyers' subscriptions to plans: find them, fix them, suspend and reactivate them")
    .addHelpText('after', examples('payctl subscriptions list --customer <buyer-id>', 'payctl subscriptions suspend <subscription-id>'));
  // Only the group the command line names needs its verbs (see buildProgram).
  if (!withVerbs) return;
  addSubscriptionFlags(group.command('create').description('Subscribe a buyer to a plan'), true)
    .option('--customer <buyer-id>', 'the buyer')
    .option('--currency <code>', 'three-letter currency (default: the profile currency)')
    .option('--on-behalf-of <seller-id>', "seller (default: the profile's seller_id)")
    .addHelpText(
      'after',
      examples(
        'payctl subscriptions create --plan <plan-id> --customer <buyer-id>',
        'payctl subscriptions create --plan <plan-id> --customer <buyer-id> --card <card-id> --due-date 2026-12-05 --expiration-date 2027-12-05 --amount 24.90',
        'payctl subscriptions create --plan <plan-id> --customer <buyer-id> --payment-method boleto   # a boleto per invoice',
      ),
    )
    .action(action(() => import('./create.js')));
  const list = group
    .command('list')
    .description('List subscriptions: customer, plan, amount, status, next due date')
    .option('--customer <buyer-id>', "only this buyer's")
    .option('--plan <plan-id>', "only this plan's")
    .addOption(new Option('--status <status>', 'only this status').choices(['active', 'suspended', 'canceled', 'expired']));
  addSellerFlag(list, "only this seller's (the provider's …/sellers/{id}/subscriptions, which takes no other filter and no dates)");
  addListFlags(list)
    .addHelpText('after', examples('payctl subscriptions list --customer <buyer-id>', 'payctl subscriptions list --status suspended --all', 'payctl subscriptions list --seller <seller-id>'))
    .action(action(() => import('./list.js')));
  group
    .command('get <id>')
    .description('Show a subscription')
    .addHelpText('after', examples('payctl subscriptions get <subscription-id>', 'payctl subscriptions get <subscription-id> -o json | jq -r .due_date'))
    .action(action(() => import('./get.js')));
  addSubscriptionFlags(group.command('update <id>').description('Change a subscription (only the flags given change)'), false)
    .addHelpText(
      'after',
      examples(
        'payctl subscriptions update <subscription-id> --card <card-id>',
        'payctl subscriptions update <subscription-id> --due-date 2026-12-10',
        'payctl subscriptions update <subscription-id> --payment-method boleto   # stop charging the card',
      ),
    )
    .action(action(() => import('./update.js')));
  group
    .command('remove <id>')
    .description('Cancel a subscription (no more charges); asks for confirmation')
    .addHelpText('after', examples('payctl subscriptions remove <subscription-id> --yes', 'payctl subscriptions remove <subscription-id>                # asks first'))
    .action(action(() => import('./lifecycle.js').then((m) => ({ run: m.runRemove }))));
  group
    .command('suspend <id>')
    .description('Suspend charging until reactivated (suspended periods are never billed); asks for confirmation')
    .addHelpText('after', examples('payctl subscriptions suspend <subscription-id>', 'payctl subscriptions suspend <subscription-id> --yes'))
    .action(action(() => import('./lifecycle.js').then((m) => ({ run: m.runSuspend }))));
  group
    .command('reactivate <id>')
    .description('Resume a suspended subscription from its next due date')
    .addHelpText('after', examples('payctl subscriptions reactivate <subscription-id>', 'payctl subscriptions list --status suspended -o json | jq -r \'.[].uuid\' | xargs -n1 payctl subscriptions reactivate'))
    .action(action(() => import('./lifecycle.js').then((m) => ({ run: m.runReactivate }))));
  requiredFirst(group, { create: ['--plan', '--customer'] });
}
