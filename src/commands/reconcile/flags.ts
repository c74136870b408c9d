import { defineVerb, flag } from '../verb.js';

export const reconcileVerb = defineVerb({
  name: 'reconcile',
  description: "Reconcile a period's transfers: each explained, one line each, totals per seller, and what no transfer accounts for (exit 12 when something does not add up)",
  flags: {
    from: flag('--from <YYYY-MM-DD>', "the first day of the period: transfers dated (transfer_date) on or after it, the date as written (no time zone moves it)", { ask: 'First day of the period (YYYY-MM-DD)' }),
    to: flag('--to <YYYY-MM-DD>', 'the last day of the period: transfers dated on or before it', { ask: 'Last day of the period (YYYY-MM-DD)' }),
    seller: flag('--seller <seller-id>', "only this seller's transfers"),
    parquet: flag('--parquet <file>', 'also write the lines to this Parquet file (it appears only when complete)'),
  },
  required: ['from', 'to'],
  examples: [
    'payctl reconcile --from 2026-11-01 --to 2026-11-30',
    'payctl reconcile --from 2026-11-01 --to 2026-11-30 -o csv --csv-locale pt-BR > conciliacao-novembro.csv',
    'payctl reconcile --from 2026-11-01 --to 2026-11-30 -o json | jq .orphans',
    'payctl reconcile --from 2026-11-01 --to 2026-11-30 --parquet reconcile-2026-11.parquet -q',
  ],
  notes: `A table shows a line per transfer (matched, difference or unexplained), totals per seller, and the
receivables paid out that no transfer of the period lists, or whose sale is missing. JSON is all of
it; NDJSON, CSV and --parquet the lines. Exit 0 when every transfer adds up to the centavo and nothing
is left over; 12 when not (the differences are named). Nothing is printed until the last transfer
is explained: on a terminal a bar on stderr shows how far it has got. Answers that cannot be added
up (a receivable listed twice, an answer for another one, a list that does not end within the bound
one command reads: PAYCTL_MAX_LIST_ITEMS, payctl help environment) stop it with exit 8 naming them.
`,
});
