import { WAIT_FLAGS } from '../shared/again.js';
import { amountFlags, CURRENCY_FLAG, CUSTOMER_FLAG, ON_BEHALF_OF_FLAG } from '../shared/common-flags.js';
import { BY_NEXT_DUE_DATE } from '../shared/list-flags.js';
import { resourceGroup } from '../shared/resource-group.js';
import { sellerFlags } from '../shared/seller-flag.js';
import { defineVerb, flag, type FlagValues } from '../verb.js';

/** What create and update share; `creating` names the defaults create fills in. */
function subscriptionFlags(creating: boolean) {
  return {
    plan: flag('--plan <plan-id>', 'the plan'),
    // The same two as plans/shared.ts's PAYMENT_METHODS, written out: this module loads at every start-up.
    paymentMethod: flag(
      '--payment-method <method>',
      `how each invoice is paid: charged to a card, or by a boleto issued for it; the plan must accept it${creating ? ' (default credit)' : ''}`,
      { choices: ['credit', 'boleto'] },
    ),
    card: flag('--card <card-id>', "the card to charge (default: the buyer's default card; none with --payment-method boleto)"),
    dueDate: flag('--due-date <YYYY-MM-DD>', 'first (next) due date'),
    expirationDate: flag('--expiration-date <YYYY-MM-DD>', 'last day of the subscription'),
    ...amountFlags('amount per cycle', "default: the plan's"),
    description: flag('--description <text>', `description${creating ? " (default: the plan's description, else its name)" : ''}`),
  };
}

export type ScheduleFlagValues = FlagValues<ReturnType<typeof subscriptionFlags>>;

export const subscriptions = resourceGroup('subscriptions', 'subscription', "Buyers' subscriptions to plans: find them, fix them, suspend and reactivate them", ['payctl subscriptions list --customer <buyer-id>', 'payctl subscriptions suspend <subscription-id>']);

export const create = defineVerb({
  name: 'create',
  description: 'Subscribe a buyer to a plan',
  flags: {
    ...subscriptionFlags(true),
    customer: CUSTOMER_FLAG,
    currency: CURRENCY_FLAG,
    onBehalfOf: ON_BEHALF_OF_FLAG,
  },
  required: ['plan', 'customer'],
  examples: [
    'payctl subscriptions create --plan <plan-id> --customer <buyer-id>',
    'payctl subscriptions create --plan <plan-id> --customer <buyer-id> --card <card-id> --due-date 2026-12-05 --expiration-date 2027-12-05 --amount 24.90',
    'payctl subscriptions create --plan <plan-id> --customer <buyer-id> --payment-method boleto   # a boleto per invoice',
  ],
});

export const list = subscriptions.list(
  'List subscriptions: customer, plan, amount, status, next due date',
  {
    customer: flag('--customer <buyer-id>', "only this buyer's"),
    plan: flag('--plan <plan-id>', "only this plan's"),
    status: flag('--status <status>', 'only this status', { choices: ['active', 'suspended', 'canceled', 'expired'] }),
    ...sellerFlags("only this seller's (the provider's …/sellers/{id}/subscriptions, which takes no other filter and no dates)"),
  },
  ['payctl subscriptions list --customer <buyer-id>', 'payctl subscriptions list --status active --from 2026-12-01 --to 2026-12-31 --all   # billing next in December', 'payctl subscriptions list --status suspended --all', 'payctl subscriptions list --seller <seller-id>'],
  undefined,
  BY_NEXT_DUE_DATE,
);

export const get = subscriptions.get('Show a subscription', '-o json | jq -r .due_date');

export const update = subscriptions.update('Change a subscription (only the flags given change)', subscriptionFlags(false), ['--card <card-id>', '--due-date 2026-12-10', '--payment-method boleto   # stop charging the card']);

export const remove = subscriptions.remove('Cancel a subscription (no more charges); asks for confirmation', { yesFirst: true, flags: WAIT_FLAGS });

export const suspend = subscriptions.byId('suspend', 'Suspend charging until reactivated (suspended periods are never billed); asks for confirmation', ['--yes']);

export const reactivate = defineVerb({
  name: 'reactivate <id>',
  noun: 'subscription',
  description: 'Resume a suspended subscription from its next due date',
  examples: ['payctl subscriptions reactivate <subscription-id>', "payctl subscriptions list --status suspended -o json | jq -r '.[].uuid' | xargs -n1 payctl subscriptions reactivate"],
});
