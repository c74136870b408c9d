import { MONEY_MOVE_FLAGS } from '../shared/again.js';
import { amountFlags, CURRENCY_FLAG, CUSTOMER_FLAG, ON_BEHALF_OF_FLAG } from '../shared/common-flags.js';
import { BY_DUE_DATE } from '../shared/list-flags.js';
import { resourceGroup } from '../shared/resource-group.js';
import { sellerFlags } from '../shared/seller-flag.js';
import { defineVerb, flag } from '../verb.js';

export const invoices = resourceGroup('invoices', 'invoice', 'What was billed: subscription and one-off invoices; approve, cancel or refund them', ['payctl invoices list --subscription <subscription-id>', 'payctl invoices refund <invoice-id>']);

export const create = defineVerb({
  name: 'create',
  description: 'Bill a buyer once (a one-off invoice)',
  flags: {
    customer: CUSTOMER_FLAG,
    ...amountFlags('amount'),
    dueDate: flag('--due-date <YYYY-MM-DD>', 'due date (default: today)'),
    expirationDate: flag('--expiration-date <YYYY-MM-DD>', 'last day it can be paid'),
    description: flag('--description <text>', 'what it is for'),
    currency: CURRENCY_FLAG,
    onBehalfOf: ON_BEHALF_OF_FLAG,
  },
  required: ['customer', 'amount'],
  examples: ['payctl invoices create --customer <buyer-id> --amount 150 --due-date 2026-12-10 --description "Taxa de adesão"', 'payctl invoices create --customer <buyer-id> --amount-cents 4990'],
});

export const list = invoices.list(
  'List invoices: due date, amount, status, paid date',
  {
    subscription: flag('--subscription <subscription-id>', "only this subscription's"),
    customer: flag('--customer <buyer-id>', "only this buyer's"),
    status: flag('--status <status>', 'only these statuses (comma-separated): pending, paid, over-due, canceled, failed'),
    ...sellerFlags("only this seller's (the provider's …/sellers/{id}/invoices, which takes dates but no other filter)"),
  },
  ['payctl invoices list --subscription <subscription-id> --all', 'payctl invoices list --status failed,over-due --from 2026-11-01', 'payctl invoices list --from 2026-12-01 --to 2026-12-31 --all   # due in December', 'payctl invoices list --seller <seller-id> --from 2026-11-01'],
  undefined,
  BY_DUE_DATE,
);

export const get = invoices.get('Show an invoice', '-o json | jq .status');

export const remove = invoices.remove('Cancel a pending or over-due invoice; asks for confirmation', { yesFirst: true });

export const approve = invoices.byId('approve', "Pay a pending, over-due or failed invoice now, with the buyer's card; asks for confirmation", ['--yes -o json | jq .paid_at'], MONEY_MOVE_FLAGS);

export const refund = invoices.byId('refund', "Refund a paid invoice in full (the provider's invoice void); asks for confirmation", ['--yes'], MONEY_MOVE_FLAGS);
