import type { Factory } from '../../factory.js';
import { pendingChanges, rulesOf } from './shared.js';
import { RULE_COLUMNS, changeView, ruleView, tableRow } from './views.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { list } from './flags.js';

/**
 * `payctl policy list`: the rules in force (removed ones too with --all), oldest first, then the
 * changes of them that wait for approval, beneath. One list, rows alike, in every format: a
 * change is told from a rule by its id (apr_…) and its state (pending). An agent may read them.
 */
export async function run(ctx: Factory, _args: ArgsOf<typeof list>, options: OptionsOf<typeof list>): Promise<void> {
  const { book, ledger } = await rulesOf(ctx, { reading: true });
  const allRules = await book.rules({ removed: true });
  const shown = options.all === true ? allRules : allRules.filter((rule) => rule.state === 'active');
  const pending = (await pendingChanges(book, ledger.now())).reverse();
  const rows = [...shown.map((rule) => ruleView(rule, ledger)), ...pending.map((request) => changeView(request, allRules, ledger))];
  await ctx.out.renderRows(rows, RULE_COLUMNS, tableRow);
  if (rows.length === 0) ctx.log.status(`no rules in the ledger ${ledger.where}: no move waits for approval or counts toward a limit (payctl help approvals)`);
  else if (pending.length > 0 && (await ctx.out.outputFormat()) === 'table') {
    ctx.log.status(`${pending.length} change${pending.length === 1 ? '' : 's'} of the rules wait${pending.length === 1 ? 's' : ''} for another operator's approval ('payctl approvals show <id>')`);
  }
}
