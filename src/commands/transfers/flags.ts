import { groupByFlags } from '../shared/group-by-flag.js';
import { BY_TRANSFER_DATE } from '../shared/list-flags.js';
import { resourceGroup } from '../shared/resource-group.js';
import { flag } from '../verb.js';

export const transfers = resourceGroup('transfers', 'transfer', "Payouts to the seller's bank account, and the transactions each paid", ['payctl transfers list --from 2026-11-01 --to 2026-11-30', 'payctl transfers transactions <transfer-id>']);

export const list = transfers.list(
  'List transfers: date, amount, status (a table ends with count, gross, fees and net)',
  {
    status: flag('--status <status>', 'only these statuses (comma-separated): pending, succeeded, failed, canceled'),
    seller: flag('--seller <seller-id>', "only the payouts to this seller (the provider publishes no transfer paths; payctl's own …/sellers/{id}/transfers)"),
  },
  [
    'payctl transfers list --status succeeded --from 2026-11-01',
    'payctl transfers list --from 2026-11-01 --to 2026-11-30 --group-by week',
    'payctl transfers list --all -o ndjson > transfers.ndjson',
    'payctl transfers list --seller <seller-id>',
  ],
  groupByFlags(['seller', 'status'], BY_TRANSFER_DATE),
  BY_TRANSFER_DATE,
);

export const get = transfers.get('Show a transfer', '-o json | jq .bank_account');

export const transactions = transfers.byId('transactions', 'List the transactions a transfer paid out', ['-o csv']);

export const explain = transfers.byId('explain', 'Explain a transfer: the receivables it paid (gross, fee, refunds, net) and whether they add up to it (exit 12 when not)', ['-o json | jq .difference', '-o csv > items.csv']);
