import type { ArgsOf, OptionsOf } from '../verb.js';
import type { exportVerb } from './flags.js';
import { statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { counted, singular } from '../../platform/plural.js';
import { recordWriter } from './formats.js';
import type { ExportRecord } from './record.js';
import { DAY_MS, DEFAULT_LOOKBACK_DAYS, parseExportOptions, type ExportOptions } from './options.js';
import { lockState } from './lock.js';
import { PartialFile, streamSink } from './sink.js';
import { noteUntil } from '../../platform/interrupt.js';
import { FileStepError, Leftovers, localFailure, localReason } from './failure.js';
import { checkStateWritable, readState, saveState, settleStaged, stagedPath, stageState, type ExportState, type NewState } from './state.js';
import { fingerprint, printOf, Window } from './window.js';
import { writtenDay, writtenDayWithin } from '../../validate/index.js';
import { dayQuery, leftOutLine } from '../shared/list.js';

// `payctl export <resource>`: every record the first time, then what was created or changed since.
//
// How a change is found: the provider's lists filter and sort by creation time only (no
// updated_at filter, and its events cover transactions but not transfers or balances). So each
// run re-reads from the newest created_at it has seen less a lookback window, and writes a
// re-read record again only if it differs from when it was last read (a fingerprint of its JSON
// kept in the state file for the window's records). A record that changes after it has left the
// window (a refund of a sale older than the lookback) is not seen: docs/finance-and-exports.md says so.
//
// Crash safety, for --out FILE: the records go to FILE.partial; once complete it is synced, the
// new state is staged beside the state file naming FILE.partial's inode, FILE.partial is renamed
// to FILE, then the state is saved. A run stopped anywhere before the rename leaves the old state,
// so the next run writes the same records again into a fresh FILE.partial; one stopped between the
// rename and the save is recognised by the inode (state.ts) and its state saved then.
//
// A run the local machine refuses (a full disk, a quota, a read-only file system, no permission,
// an I/O error: failure.ts) removes FILE.partial and its temporary files, and stops with one line
// naming the file that failed and what is as it was (exit 2). Only a run killed by a signal leaves
// FILE.partial, which the next run replaces. An incremental run writes only what is new or changed,
// so it does not replace a FILE that exists unless given --overwrite.

export async function run(ctx: Factory, args: ArgsOf<typeof exportVerb>, options: OptionsOf<typeof exportVerb>): Promise<void> {
  const opts = parseExportOptions(args, options);
  if (ctx.globals.fields) throw new UsageError('--fields: an export writes the same columns on every run (see payctl export --help); it takes no --fields');
  if (opts.format === 'parquet' && opts.out === undefined && ctx.io.stdoutIsTTY) {
    throw new UsageError('--format parquet is binary: give --out <file>, or pipe it');
  }
  await ctx.service.requireApiKey();
  const params = opts.resource.perSeller ? { id: await sellerOf(ctx) } : undefined;
  if (ctx.globals.dryRun) {
    // The first request is printed and nothing is sent, read, or written.
    for await (const _ of (await ctx.api()).pages(opts.resource.operation, { query: { sort: 'time-ascending' }, ...(params ? { params } : {}) }, { limit: 1, all: false }));
    return;
  }
  let release: (() => void) | undefined;
  if (opts.state !== undefined) {
    checkStateWritable(opts.state);
    release = lockState(opts.state);
  }
  try {
    await exportUnderLock(ctx, opts, params);
  } finally {
    release?.();
  }
}

async function exportUnderLock(ctx: Factory, opts: ExportOptions, params: Record<string, string> | undefined): Promise<void> {
  if (opts.state !== undefined) {
    const settled = settleLastRun(opts.state);
    if (settled !== undefined) {
      ctx.log.status(`the last run had written ${settled} whole before it stopped; its state is saved now`);
      // That file is the last run's output: this run must not replace it before it is read.
      if (settled === opts.out) return;
    }
  }
  const state = opts.state === undefined ? undefined : readState(opts.state, opts.resource.name, opts.format);
  if (state !== undefined && (opts.since !== undefined || opts.days?.from !== undefined)) {
    throw new UsageError(`--since: ${opts.state} says where this run starts (after ${state.cursor ?? 'nothing yet'}); --since is for a first run`);
  }
  refuseToReplace(opts, state);
  await exportRun(ctx, opts, state, params);
}

/** settleStaged, saying what a failure to save that state left as it was. */
function settleLastRun(state: string): string | undefined {
  try {
    return settleStaged(state);
  } catch (err) {
    if (!(err instanceof FileStepError) || localReason(err) === undefined) throw err;
    const leftovers = new Leftovers();
    leftovers.add(err.leftovers);
    throw localFailure(err, "saving the state of the last run", leftovers, `${basename(state)} and ${basename(stagedPath(state))} are as they were; nothing was read or written`);
  }
}

/**
 * A run that starts from a saved state writes only the records new or changed since: written over
 * a FILE that exists (most likely the last run's, not yet loaded), it would lose what that holds.
 */
function refuseToReplace(opts: ExportOptions, state: ExportState | undefined): void {
  if (opts.out === undefined || state === undefined || opts.overwrite) return;
  if (state.cursor === null && state.seen.length === 0) return; // nothing seen yet: this run writes everything
  let existing: ReturnType<typeof statSync> | undefined;
  try {
    existing = statSync(opts.out);
  } catch {
    return;
  }
  if (existing.isDirectory()) return; // said as it always was, by PartialFile.open
  const ext = extname(opts.outArg);
  const perRun = `${opts.outArg.slice(0, opts.outArg.length - ext.length)}-$(date +%F-%H%M)${ext}`;
  throw new UsageError(
    `--out: ${opts.out} exists, and this run, starting from ${opts.state}, would replace it with only what is new or changed since the last run; nothing was read or written. Give each run its own file (--out ${perRun}), or add --overwrite to replace it`,
  );
}

async function sellerOf(ctx: Factory): Promise<string> {
  const seller = (await ctx.config.profile()).sellerId;
  if (!seller) throw new UsageError("future entries are a seller's: set the profile's seller_id ('payctl config set seller_id <id>') or PAYCTL_SELLER_ID");
  return seller;
}

/**
 * Where the run reads from: the first run's --since, or the cursor less the lookback, never before
 * that --since. A --since of a resource dated by a calendar date bounds that date, not creation.
 */
function startMs(state: ExportState | undefined, opts: ExportOptions, lookbackMs: number): number | undefined {
  const since = opts.resource.dated ? undefined : state ? (state.since === null ? undefined : Date.parse(state.since)) : opts.since;
  if (!state?.cursor) return since;
  const from = Date.parse(state.cursor) - lookbackMs;
  return since === undefined ? from : Math.max(from, since);
}

async function exportRun(ctx: Factory, opts: ExportOptions, state: ExportState | undefined, params: Record<string, string> | undefined): Promise<void> {
  const { resource, format } = opts;
  const lookbackDays = opts.lookbackDays ?? state?.lookback_days ?? DEFAULT_LOOKBACK_DAYS;
  const lookbackMs = lookbackDays * DAY_MS;
  const from = resource.window === 'created' ? startMs(state, opts, lookbackMs) : undefined;
  const query: Record<string, string | number> = { sort: 'time-ascending' };
  if (from !== undefined) query['date_range[gte]'] = Math.floor(from / 1000);
  const until = resource.window === 'created' ? opts.until : undefined;
  if (until !== undefined) query['date_range[lt]'] = Math.ceil(until / 1000);
  // The days of a calendar date (a transfer's date), the first run's --since kept in the state.
  const asked = datesOf(state, opts);
  const days = resource.dated && (asked.from !== undefined || asked.to !== undefined) ? { dated: resource.dated, ...asked } : undefined;
  const inDays = (item: Record<string, unknown>) => !days || writtenDayWithin(item[days.dated.field], days.from, days.to);
  if (days) Object.assign(query, dayQuery(days));

  // Opened before anything is read: an --out that cannot be written is said at once (exit 2).
  const outExisted = opts.out !== undefined && exists(opts.out);
  const file = opts.out === undefined ? undefined : await PartialFile.open(opts.out);
  // What a failed run removed (its partial and temporary files), and how it says what is as it was.
  const leftovers = new Leftovers();
  const name = opts.out === undefined ? 'stdout' : basename(opts.out);
  const asItWas =
    opts.state === undefined
      ? outExisted ? `${name} is as it was` : `${name} was not written`
      : state === undefined
        ? `${outExisted ? `${name} is as it was` : `${name} was not written`} and no state was saved`
        : outExisted ? `${name} and its state are as they were` : `${name} was not written and its state is as it was`;
  // Until the file takes its name, Ctrl-C leaves everything as it was: the partial file is removed
  // on the way out (sink.ts), and the line says so.
  const endNote = file
    ? noteUntil(`${basename(file.partial)} removed; ${asItWas}. Run the same command again`)
    : opts.state !== undefined
      ? noteUntil(`${basename(opts.state)} is as it was: the next run writes these records again`)
      : () => undefined;
  const sink = file ?? streamSink(ctx.io.stdout);
  ctx.service.expectLongRun();
  const progress = ctx.io.stderrIsTTY && !ctx.globals.quiet ? (await import('../../output/progress.js')).pageProgress(ctx.io.stderr, resource.noun) : undefined;

  const failed = (err: unknown, doing: string, outcome: string): unknown => {
    if (err instanceof FileStepError) {
      leftovers.add(err.leftovers);
      if (localReason(err) !== undefined) return localFailure(err, doing, leftovers, outcome);
    }
    // Any other error says itself; only a file that could not be removed is added.
    for (const { path, why } of leftovers.left) ctx.log.warn(`could not remove ${path} (${why}): delete it`);
    return err instanceof FileStepError ? err.cause : err;
  };

  const before = new Map(state?.seen.map(([id, , print]) => [id, printOf(print)]));
  const window = new Window();
  let cursor = state?.cursor ?? null;
  let newest = cursor === null ? Number.NEGATIVE_INFINITY : Date.parse(cursor);
  let read = 0;
  let written = 0;
  let leftOut = 0;
  try {
    const writer = await recordWriter(format, resource.columns, sink, { csvRaw: ctx.globals.csvRaw, ...(format === 'csv' ? { csvLocale: await ctx.out.csvLocale() } : {}) });
    const api = await ctx.api();
    const pages = api.pages(resource.operation, { query, ...(params ? { params } : {}) }, { limit: 100, all: true, ...(progress ? { onPage: progress.page } : {}) });
    for await (const page of pages) {
      const records: ExportRecord[] = [];
      for (const raw of page) {
        const item = raw as Record<string, unknown>;
        // Of another day than asked for: the service should not have answered it.
        if (!inDays(item)) {
          leftOut += 1;
          continue;
        }
        const json = JSON.stringify(item);
        read += 1;
        const id = typeof item.id === 'string' ? item.id : undefined;
        // Without an id a record cannot be recognised again: it is always written. (A record met
        // twice in one run, the list shifting as it is read, is dropped by ApiClient.pages.)
        if (id === undefined) {
          records.push({ item, json });
          continue;
        }
        const print = fingerprint(json);
        const created = typeof item.created_at === 'string' ? item.created_at : '';
        const createdMs = Date.parse(created);
        // The list filters by whole seconds; the start is kept to the millisecond here.
        if ((from !== undefined && createdMs < from) || (until !== undefined && createdMs >= until)) continue;
        if (createdMs > newest) {
          newest = createdMs;
          cursor = created;
        }
        window.add(id, createdMs, print);
        if (before.get(id) !== print) records.push({ item, json });
      }
      if (resource.window === 'created') window.forgetOlderThan(newest - lookbackMs);
      written += records.length;
      if (records.length > 0) await writer.write(records);
    }
    progress?.stop();
    await writer.end();
  } catch (err) {
    progress?.stop();
    endNote();
    await file?.abandon(leftovers);
    throw failed(err, 'writing the export', asItWas);
  }

  const next: NewState = {
    payctl_export: 1,
    resource: resource.name,
    format,
    since: state ? state.since : opts.days ? (opts.days.from ?? null) : opts.since === undefined ? null : new Date(opts.since).toISOString(),
    lookback_days: lookbackDays,
    cursor,
    seen: () => window.entries(),
    runs: (state?.runs ?? 0) + 1,
    last_run: { finished_at: new Date().toISOString(), read, written, out: opts.out ?? '-' },
  };
  if (file) {
    let doing = 'writing the export';
    let staged = false;
    try {
      const identity = await file.finish();
      if (opts.state !== undefined) {
        doing = 'saving the state';
        stageState(opts.state, { out: file.out, ...identity }, next);
        staged = true;
      }
      doing = 'writing the export';
      endNote();
      file.commit();
    } catch (err) {
      // Before the rename: FILE and the state are as they were; the state staged for it goes too.
      endNote();
      await file.abandon(leftovers);
      if (staged && opts.state !== undefined) leftovers.remove(stagedPath(opts.state));
      throw failed(err, doing, asItWas);
    }
  }
  if (opts.state !== undefined) {
    const stateFile = opts.state;
    try {
      saveState(stateFile, next);
      endNote();
    } catch (err) {
      endNote();
      const staged = stagedPath(stateFile);
      throw failed(
        err,
        'saving the state',
        err instanceof FileStepError && err.path === staged
          ? `${name} and its state are saved: delete ${staged}`
          : file
            ? `${name} is complete, but its state is not saved: ${staged} holds it, and the next run with --state ${stateFile} saves it (make room first); ${basename(stateFile)} is as it was`
            : `the records went to stdout, but ${basename(stateFile)} is as it was: the next run writes them again`,
      );
    }
  }
  if (days && leftOut > 0) ctx.log.status(leftOutLine(days, resource.noun, leftOut));
  const one = singular(resource.noun);
  ctx.log.status(
    `exported ${counted(written, one, resource.noun)} to ${opts.out ?? 'stdout'}` +
      (state ? ` (${read} read from ${from === undefined ? 'the start' : new Date(from).toISOString()}, ${read - written} unchanged since the last run)` : '') +
      (opts.state !== undefined ? `; state saved in ${opts.state}` : ''),
  );
}

/** The days of this run: the first run's --since (kept in the state as its day), and this run's --until. */
function datesOf(state: ExportState | undefined, opts: ExportOptions): { from?: string; to?: string } {
  const from = state ? writtenDay(state.since) : opts.days?.from;
  const to = opts.days?.to;
  return { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
