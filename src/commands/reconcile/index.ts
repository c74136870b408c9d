import type { Command } from 'commander';
import type { ActionFactory } from '../verb.js';
import { examples } from '../shared/help.js';

export function registerReconcile(program: Command, action: ActionFactory, withVerbs = true): void {
  const command = program
    .command('reconcile')
    .description("Reconcile a period's transfers: each explained, one line each, totals per seller, and what no transfer accounts for (exit 12 when something does not add up)")
    .option('--from <YYYY-MM-DD>', 'the first day of the period (transfers made from 00:00 there, in the time zone payctl shows)')
    .option('--to <YYYY-MM-DD>', 'the last day of the period (to its end)')
    .option('--seller <seller-id>', "only this seller's transfers")
    .option('--parquet <file>', 'also write the lines to this Parquet file (it appears only when complete)')
    .addHelpText(
      'after',
      `${examples(
        'payctl reconcile --from 2026-11-01 --to 2026-11-30',
        'payctl reconcile --from 2026-11-01 --to 2026-11-30 -o csv --csv-locale pt-BR > conciliacao-novembro.csv',
        'payctl reconcile --from 2026-11-01 --to 2026-11-30 -o json | jq .orphans',
        'payctl reconcile --from 2026-11-01 --to 2026-11-30 --parquet reconcile-2026-11.parquet -q',
      )}
A table shows a line per transfer (matched, difference or unexplained), totals per seller, and the
receivables paid out that no transfer of the period lists, or whose sale is missing. JSON is all of
it; NDJSON, CSV and --parquet the lines. Exit 0 when every transfer adds up to the centavo and nothing
is left over; 12 when not (the differences are named).
`,
    );
  if (!withVerbs) return;
  command.action(action(() => import('./run.js')));
}
