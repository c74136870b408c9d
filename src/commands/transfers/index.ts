import type { Command } from 'commander';
import type { ActionFactory } from '../verb.js';
import { examples } from '../shared/help.js';
import { addListFlags } from '../shared/list-flags.js';
import { addGroupBy } from '../shared/group-by-flag.js';

export function registerTransfers(program: Command, action: ActionFactory, withVerbs = true): void {
  const group = program
    .command('transfers')
    .description("Payouts to the seller's bank account, and the transactions each paid")
    .addHelpText('after', examples('payctl transfers list --from 2026-11-01 --to 2026-11-30', 'payctl transfers transactions <transfer-id>'));
  // Only the group the command line names needs its verbs (see buildProgram).
  if (!withVerbs) return;
  const list = group
    .command('list')
    .description('List transfers: date, amount, status (a table ends with count, gross, fees and net)')
    .option('--status <status>', 'only these statuses (comma-separated): pending, succeeded, failed, canceled')
    .option('--seller <seller-id>', "only the payouts to this seller (the provider publishes no transfer paths; payctl's own …/sellers/{id}/transfers)");
  addGroupBy(addListFlags(list), ['seller', 'status'])
    .addHelpText(
      'after',
      examples('payctl transfers list --status succeeded --from 2026-11-01', 'payctl transfers list --from 2026-11-01 --to 2026-11-30 --group-by week', 'payctl transfers list --all -o ndjson > transfers.ndjson', 'payctl transfers list --seller <seller-id>'),
    )
    .action(action(() => import('./list.js')));
  group
    .command('get <id>')
    .description('Show a transfer')
    .addHelpText('after', examples('payctl transfers get <transfer-id>', 'payctl transfers get <transfer-id> -o json | jq .bank_account'))
    .action(action(() => Promise.all([import('../shared/show.js'), import('./view.js')]).then(([m, v]) => ({ run: m.showWithView('transfers.get', 'transfer id', v.TRANSFER_VIEW) }))));
  group
    .command('transactions <id>')
    .description('List the transactions a transfer paid out')
    .addHelpText('after', examples('payctl transfers transactions <transfer-id>', 'payctl transfers transactions <transfer-id> -o csv'))
    .action(action(() => import('./transactions.js')));
  group
    .command('explain <id>')
    .description('Explain a transfer: the receivables it paid (gross, fee, refunds, net) and whether they add up to it (exit 12 when not)')
    .addHelpText(
      'after',
      examples('payctl transfers explain <transfer-id>', 'payctl transfers explain <transfer-id> -o json | jq .difference', 'payctl transfers explain <transfer-id> -o csv > items.csv'),
    )
    .action(action(() => import('./explain.js')));
}
