import { Option, type Command } from 'commander';
import type { ActionFactory } from '../verb.js';
import { examples } from '../shared/help.js';
import { addGroupBy } from '../shared/group-by-flag.js';
import { addListFlags } from '../shared/list-flags.js';

export function registerFutureEntries(program: Command, action: ActionFactory, withVerbs = true): void {
  const group = program
    .command('future-entries')
    .description('Money still to come: receivables not yet paid out, by expected date')
    .addHelpText('after', examples('payctl future-entries list --from 2026-12-01 --to 2026-12-31', 'payctl future-entries list --all -o csv > future.csv'));
  // Only the group the command line names needs its verbs (see buildProgram).
  if (!withVerbs) return;
  const list = group
    .command('list')
    .description("List the seller's future entries, soonest first (a table ends with count, gross, fees and net)")
    .option('--seller <seller-id>', "the seller (default: the profile's seller_id)")
    // The flag's first name, kept working; --seller is the one every list shares.
    .addOption(new Option('--on-behalf-of <seller-id>').hideHelp());
  addGroupBy(addListFlags(list, 'expected'))
    .addHelpText(
      'after',
      examples('payctl future-entries list --from 2026-12-01 --to 2026-12-31', 'payctl future-entries list --group-by day     # how much lands on which day', 'payctl future-entries list --all -o csv > future.csv', 'payctl future-entries list --seller <seller-id>'),
    )
    .action(action(() => import('./list.js')));
}
