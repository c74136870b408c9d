import { resourceGroup } from '../shared/resource-group.js';
import { BY_EXPECTED_DATE, dateFlags, WINDOW_FLAG } from '../shared/list-flags.js';
import { defineVerb, flag } from '../verb.js';

export const receivables = resourceGroup('receivables', 'receivable', 'What the seller will receive for a transaction, installment by installment', ['payctl receivables list --transaction <transaction-id>', 'payctl receivables get <receivable-id>']);

export const get = receivables.get('Show one receivable', '-o json | jq .expected_on');

export const list = defineVerb({
  name: 'list',
  description: "List a transaction's or a seller's receivables: installment, expected date, gross, fee, net, status",
  flags: {
    transaction: flag('--transaction <transaction-id>', 'the transaction'),
    seller: flag('--seller <seller-id>', "the seller: all its receivables (the provider's …/sellers/{id}/receivables)"),
    status: flag('--status <status>', 'with --seller: only this status, pending or paid'),
    limit: flag('--limit <n>', 'with --seller: at most this many (default 20)'),
    all: flag('--all', 'with --seller: every page, streamed as it arrives'),
    ...dateFlags(BY_EXPECTED_DATE, 'with --seller: '),
    groupBy: flag('--group-by <what>', 'with --seller: sum per group instead of listing: day, week, month (of the expected date) or status'),
    ...WINDOW_FLAG,
  },
  examples: [
    'payctl receivables list --transaction <transaction-id>',
    'payctl receivables list --transaction <id> -o csv',
    'payctl receivables list --seller <seller-id> --status pending --all',
    'payctl receivables list --seller <seller-id> --status pending --group-by week',
    'payctl receivables list --seller <seller-id> --status paid --from 2026-11-01 --to 2026-11-30 --all',
  ],
});
