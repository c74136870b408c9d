import { arg, defineVerb, flag } from '../verb.js';

// Kept free of the resource table and the writers: this is loaded to build help and completion.
const RESOURCES = 'transactions, transfers, balance-history, receivables, future-entries';

export const exportVerb = defineVerb({
  name: 'export',
  description: 'Export a resource to NDJSON, CSV or Parquet; with --state, each run writes only what was created or changed since the last',
  args: [arg('<resource>', RESOURCES)],
  asks: { resource: { noun: 'resource' } },
  flags: {
    format: flag('--format <format>', 'ndjson (the API objects), csv or parquet (fixed, typed columns) (default ndjson)'),
    out: flag('--out <file|->', 'the file to write (appears only when complete; default -, stdout)'),
    since: flag('--since <date>', 'first run only: records created on or after this day (YYYY-MM-DD, in the time zone payctl shows) or ISO date-time; transfers: dated (transfer_date) on or after this day, as written'),
    until: flag('--until <date>', 'records created on or before this day (YYYY-MM-DD, to its end) or up to this ISO date-time; transfers: dated on or before this day'),
    state: flag('--state <file>', 'where the run starts and what it has seen; the next run exports only what is new or changed'),
    lookback: flag('--lookback <days>', 'days before the newest record seen that each run reads again, for rows changed since (default 3)'),
    overwrite: flag('--overwrite', 'with --state: replace an --out FILE that exists (refused otherwise)'),
  },
  examples: [
    'payctl export transactions --format parquet --out tx-$(date +%F).parquet --state tx.state.json',
    'payctl export transfers --format csv --out transfers-2026-11.csv --since 2026-11-01 --until 2026-11-30   # dated in November',
    'payctl export transactions --format csv --out nov.csv --since 2026-11-01 --until 2026-11-30   # a month, in local days',
    'payctl export balance-history --state history.state.json --out - | jq -c .',
    'payctl export receivables --format csv --out receivables-$(date +%F).csv --state receivables.state.json',
    'payctl export transfers --format csv --out transfers-new.csv --state transfers.state.json --overwrite',
  ],
  notes: `A run stopped (Ctrl-C, a crash, kill -9) leaves the state as it was and FILE.partial; run it again: it
writes the same records again, and FILE only appears complete. A run the disk refuses (full, read-only)
removes FILE.partial and its temporary files and names the file that failed (exit 2). With --state,
each run's FILE holds only that run's records: name one per run; a run into a FILE that exists stops
(exit 2) unless given --overwrite. A refund of a sale created more than --lookback days before the
newest one exported is not seen (the API lists by creation time only).
`,
});
