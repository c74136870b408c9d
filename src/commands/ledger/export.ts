import { basename, resolve } from 'node:path';
import type { Factory } from '../../factory.js';
import { UsageError, ValidationError } from '../../errors.js';
import type { Ledger } from '../../ledger/ledger.js';
import { isoTime } from '../../ledger/time.js';
import type { Intent } from '../../ledger/types.js';
import { counted } from '../../platform/plural.js';
import { noteUntil } from '../../platform/interrupt.js';
import { centsToDecimalString } from '../../validate/index.js';
import { didYouMean } from '../../validate/closest.js';
import { FileStepError, Leftovers, localFailure, localReason } from '../export/failure.js';
import { recordWriter } from '../export/formats.js';
import type { ExportRecord } from '../export/record.js';
import type { ExportColumn } from '../export/resources.js';
import { PartialFile, streamSink } from '../export/sink.js';
import { optionalString } from '../shared/input.js';
import { parseSince } from './list.js';
import { readLedger } from './shared.js';
import type { OptionsOf } from '../verb.js';
import type { exportTrail } from './flags.js';

// `payctl ledger export`: the ledger's trail for an auditor, every record of the account, oldest
// first. It is read a page at a time (by id, so a page is found by the index, however far in) and
// written as it is read: memory stays flat for a ledger of any size.
//
// Every record has a `kind` and the same columns, so the trail can grow other kinds of record (an
// approval request, a rule's change) without changing the shape of what scripts and spreadsheets
// already read: a new kind adds its source to TRAIL and fills the columns that mean something for it.

const FORMATS = ['ndjson', 'csv'] as const;
type TrailFormat = (typeof FORMATS)[number];

/** Records read, and written, at a time. */
const PAGE = 200;

/** The trail's columns, in order, typed as the export writers read them (a pt-BR CSV writes decimals and times its own way). */
export const TRAIL_COLUMNS: ExportColumn[] = [
  { path: 'kind', type: 'string' },
  { path: 'id', type: 'integer' },
  { path: 'created_at', type: 'timestamp' },
  { path: 'updated_at', type: 'timestamp' },
  { path: 'operation', type: 'string' },
  { path: 'target', type: 'string' },
  { path: 'key', type: 'string' },
  { path: 'requested_cents', type: 'integer' },
  { path: 'requested', type: 'decimal' },
  { path: 'amount_cents', type: 'integer' },
  { path: 'amount', type: 'decimal' },
  { path: 'state', type: 'string' },
  { path: 'detail', type: 'string' },
  { path: 'proof', type: 'string' },
  { path: 'batch', type: 'string' },
  { path: 'batch_name', type: 'string' },
  { path: 'row', type: 'integer' },
  { path: 'holder', type: 'string' },
  { path: 'operator_name', type: 'string' },
  { path: 'pid', type: 'integer' },
  { path: 'agent', type: 'string' },
  { path: 'session', type: 'string' },
];

/** A record of the trail: one value for each of TRAIL_COLUMNS (null where it has none). */
export type TrailRecord = Record<(typeof TRAIL_COLUMNS)[number]['path'], string | number | null>;

const decimal = (cents: number | null) => (cents === null ? null : centsToDecimalString(cents));

/** An intent as the trail writes it: its times as ISO on this machine's clock, its amounts in cents and as decimals. */
export function intentRecord(intent: Intent, ledger: Ledger): TrailRecord {
  return {
    kind: 'intent',
    id: intent.id,
    created_at: isoTime(ledger.local(intent.created_at)),
    updated_at: isoTime(ledger.local(intent.updated_at)),
    operation: intent.operation,
    target: intent.target,
    key: intent.key,
    requested_cents: intent.requested_cents,
    requested: decimal(intent.requested_cents),
    amount_cents: intent.amount_cents,
    amount: decimal(intent.amount_cents),
    state: intent.state,
    detail: intent.detail,
    proof: intent.proof,
    batch: intent.batch,
    batch_name: intent.batch_name,
    row: intent.row,
    holder: intent.holder,
    operator_name: intent.operator_name,
    pid: intent.pid,
    agent: intent.agent,
    session: intent.session,
  };
}

/** Where the trail's records come from, kind after kind: each yields pages of records, oldest first. */
const TRAIL: Array<(ledger: Ledger, since: number | undefined) => AsyncIterable<TrailRecord[]>> = [
  async function* intents(ledger, since) {
    for await (const page of ledger.pages(since, PAGE)) yield page.map((intent) => intentRecord(intent, ledger));
  },
];

function parseFormat(value: string | undefined): TrailFormat {
  const format = value ?? 'ndjson';
  if ((FORMATS as readonly string[]).includes(format)) return format as TrailFormat;
  throw new ValidationError('--format', `"${format}" is not a format of the ledger's export${didYouMean(format, FORMATS)}; use ndjson or csv`);
}

export async function run(ctx: Factory, _args: unknown, options: OptionsOf<typeof exportTrail>): Promise<void> {
  const format = parseFormat(optionalString(options.format));
  const since = optionalString(options.since);
  const outArg = optionalString(options.out) ?? '-';
  const out = outArg === '-' ? undefined : resolve(outArg);
  if (ctx.globals.fields) throw new UsageError("--fields: the ledger's export writes the same columns every time (see payctl ledger export --help); it takes no --fields");
  // Read before the ledger is opened, as `ledger list --since` reads it; then on the ledger's clock.
  const sinceMs = since === undefined ? undefined : parseSince(since);
  // A lost ledger is still read (reads keep working): what is there now, after the warning.
  await readLedger(ctx, async (ledger) => {
    if (ledger) await exportFrom(ledger);
  });

  async function exportFrom(ledger: Ledger): Promise<void> {
    const from = sinceMs === undefined ? undefined : sinceMs + ledger.store.clockOffset;

    const file = out === undefined ? undefined : await PartialFile.open(out);
    const name = out === undefined ? 'stdout' : basename(out);
    // Ctrl-C before the file takes its name removes the partial file (sink.ts): the line says so.
    const endNote = file ? noteUntil(`${basename(file.partial)} removed; ${name} is as it was. Run the same command again`) : () => undefined;
    const leftovers = new Leftovers();
    let written = 0;
    try {
      const writer = await recordWriter(format, TRAIL_COLUMNS, file ?? streamSink(ctx.io.stdout), {
        csvRaw: ctx.globals.csvRaw,
        ...(format === 'csv' ? { csvLocale: await ctx.out.csvLocale() } : {}),
      });
      for (const source of TRAIL) {
        for await (const page of source(ledger, from)) {
          await writer.write(page.map((item): ExportRecord => ({ item, json: JSON.stringify(item) })));
          written += page.length;
        }
      }
      await writer.end();
      if (file) {
        await file.finish();
        file.commit();
      }
      endNote();
    } catch (err) {
      endNote();
      await file?.abandon(leftovers);
      if (err instanceof FileStepError) {
        leftovers.add(err.leftovers);
        if (localReason(err) !== undefined) throw localFailure(err, "writing the ledger's export", leftovers, `${name} is as it was`);
        throw err.cause;
      }
      throw err;
    }
    ctx.log.status(`exported ${counted(written, 'record', 'records')} of the ledger ${ledger.where} to ${out ?? 'stdout'}`);
  }
}
