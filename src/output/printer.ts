import type { ApiClient, ListExtent, PreparedRequest, RequestInput } from '../api/client.js';
import type { Target } from '../provider/endpoints.js';
import type { CsvLocale } from './csv-locale.js';
import { colorEnabled, type IO } from '../io.js';
import type { Logger } from '../platform/logger.js';
import type { ObjectView } from './object-view.js';
import { parseFormat, type Column, type OutputFormat } from './render-options.js';
import type { TotalSpec } from './totals.js';

// What a command prints, apart from what it is given to work with (factory): one object, a view of
// one, rows at hand, or a list fetched page by page with progress, totals and a note of how much of
// it was shown. Each renderer is loaded on first use, so `-o json` never loads chalk or cli-table3.

/** A list verb's whole output: what to fetch and how to show it. */
export interface ListSpec {
  operation: Target;
  input: RequestInput;
  request: { limit: number; all: boolean; skip?: number };
  /** Plural noun for progress and totals: "transactions". */
  noun: string;
  columns: Column[];
  /** Display-only fields for the table (a masked CPF, a computed fee); never in JSON or CSV. */
  tableRow?: (item: Record<string, unknown>) => Record<string, unknown>;
  /** For a table on a terminal only, before tableRow: a page given what other reads tell (a buyer's name). */
  tablePage?: (api: ApiClient, page: unknown[]) => Promise<unknown[]>;
  /** The CSV header when --fields is not given: the same columns whatever the data. */
  csvColumns?: string[];
  /** Sums printed under the table. */
  totals?: TotalSpec[];
  /** --group-by: the items summed per group (output/summary.ts) instead of listed. */
  groupBy?: { by: import('./summary.js').Dimension; spec: import('./summary.js').SummarySpec };
  /**
   * Only the items that pass `test` are the list (a period of calendar dates the service may not
   * filter by): the others are left out before anything counts, sums or groups them, and a status
   * line says how many (`outside`). --limit still counts what the service answered: a service
   * that ignores the filter shows fewer, never another period's.
   */
  keep?: { test: (item: unknown) => boolean; outside: (count: number) => string };
  /** Where the pages come from, when one request cannot say what is wanted (see transactions list). */
  pages?: (api: ApiClient, onPage?: (items: number, total: number | undefined) => void) => AsyncGenerator<unknown[]>;
}

/**
 * Up to this many items (one page of a list, as many refunds) a command is short: not worth a
 * thread for the embedded sandbox (see sandbox/embedded.ts).
 */
export const SHORT_RUN_ITEMS = 100;

/** What the printer needs from the command's factory; structural, so neither imports the other. */
export interface PrinterNeeds {
  io: IO;
  /** The global flags that shape output (GlobalOptions has them). */
  globals: {
    output?: OutputFormat;
    fields?: string[];
    csvRaw: boolean;
    csvLocale?: CsvLocale;
    quiet: boolean;
    pager: boolean;
    color: boolean;
  };
  log: Logger;
  config: {
    /** The profile's output and csv_locale settings; undefined when the config cannot be read (a default then holds). */
    settings(): Promise<{ name: string; output?: string; csvLocale?: string } | undefined>;
  };
  api(): Promise<ApiClient>;
  service: {
    /** Said before a long list asks for the API: the embedded sandbox then gets its own thread. */
    expectLongRun(): void;
  };
}

/**
 * A list cut at --limit with more behind it: how many there are in all (when the service says)
 * and what shows them all. Undefined when the list was shown whole.
 */
function partOf(count: number, extent: ListExtent | undefined): { total: number | undefined; hint: string } | undefined {
  if (!extent) return undefined;
  if (extent.total !== undefined && extent.total > count) return { total: extent.total, hint: '--all for every one' };
  if (extent.more) return { total: undefined, hint: 'more: --all for every one' };
  return undefined;
}

export class Printer {
  private preferred?: OutputFormat;
  private dryRunWritten = false;

  constructor(private readonly needs: PrinterNeeds) {}

  /** Whether stdout gets colour (NO_COLOR, FORCE_COLOR, --no-color, a terminal). */
  get color(): boolean {
    return colorEnabled(this.needs.io.env, this.needs.io.stdoutIsTTY, !this.needs.globals.color);
  }

  /** A command whose output is JSON unless asked otherwise (`payctl api`, like `gh api`). */
  preferOutput(format: OutputFormat): void {
    this.preferred = format;
  }

  async outputFormat(): Promise<OutputFormat> {
    if (this.needs.globals.output) return this.needs.globals.output;
    if (this.preferred) return this.preferred;
    const profile = await this.needs.config.settings();
    if (profile?.output) {
      return parseFormat(profile.output, `profile "${profile.name}" output setting`);
    }
    return this.needs.io.stdoutIsTTY ? 'table' : 'json';
  }

  /** Renders one result; `tableRow` as for lists (display-only fields, table format only). */
  async render(data: unknown, tableRow?: (item: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
    const { renderObject } = await import('./render.js');
    const options = await this.renderOptions();
    const shown = options.format === 'table' && tableRow && data && typeof data === 'object' && !Array.isArray(data) ? tableRow(data as Record<string, unknown>) : data;
    await renderObject(shown, options);
  }

  /**
   * One object as a person reads it on a table: `view` (title, summary, sections) instead of a
   * dump of every field, through the pager when taller than the terminal; on a terminal, the
   * records it refers to by id are named (namesFor). `short` prints the title and summary only
   * (after a refund or capture). JSON, NDJSON, CSV and --fields print the API's object as
   * `render` does.
   */
  async show(data: unknown, view: ObjectView, options: { tableRow?: (item: Record<string, unknown>) => Record<string, unknown>; short?: boolean } = {}): Promise<void> {
    const format = await this.outputFormat();
    if (format !== 'table' || this.needs.globals.fields || data === null || typeof data !== 'object' || Array.isArray(data)) return this.render(data, options.tableRow);
    const [{ drawObjectView }, { terminalColumns }, { showInPager }, { writeOut }] = await Promise.all([
      import('./object-view.js'),
      import('./table.js'),
      import('./pager.js'),
      import('./write.js'),
    ]);
    const item = options.tableRow ? options.tableRow(data as Record<string, unknown>) : (data as Record<string, unknown>);
    const names = await this.namesFor(view, item, options.short === true);
    const text = await drawObjectView(view, item, { color: this.color, columns: terminalColumns(this.needs.io.stdout), names, ...(options.short ? { short: true } : {}) });
    if (options.short || !(await showInPager(text, this.needs.io, this.needs.globals.pager))) await writeOut(this.needs.io.stdout, text);
    if (names) await this.noteNamesLeftOut();
  }

  /**
   * The names of the records a view refers to by id (its buyer, card, seller, plan), read only
   * for a person at a terminal: a table piped to a file or a script keeps the ids and costs no
   * request. A name that cannot be read leaves its id (record-names.ts).
   */
  private async namesFor(view: ObjectView, item: Record<string, unknown>, short: boolean): Promise<Map<string, string> | undefined> {
    if (!this.needs.io.stdoutIsTTY) return undefined;
    const { namedRecords } = await import('./object-view.js');
    const refs = namedRecords(view, item, { short });
    if (refs.length === 0) return undefined;
    const { recordNames } = await import('./record-names.js');
    // The client the object itself came from; should there be none, the ids stand.
    const api = await this.needs.api().catch(() => undefined);
    return api && recordNames(api, refs);
  }

  /**
   * A list's pages and columns as a table shows them: on a terminal, the columns that hold ids of
   * records known by name (Column.names) show the names (named-columns.ts). Anywhere else, and
   * with --fields, the ids stay and nothing more is read.
   */
  private async withNames(pages: AsyncIterable<unknown[]>, options: import('./render-options.js').RenderOptions & { columns: Column[] }): Promise<{ pages: AsyncIterable<unknown[]>; columns: Column[] }> {
    const { columns } = options;
    if (options.format !== 'table' || !this.needs.io.stdoutIsTTY || options.fields || !namesIn(columns)) return { pages, columns };
    // The client the list itself comes from; should there be none, the ids stand.
    const api = await this.needs.api().catch(() => undefined);
    if (!api) return { pages, columns };
    const [{ namedPages }, { keysShown }] = await Promise.all([import('./named-columns.js'), import('./table.js')]);
    return namedPages(api, pages, options, (page, asText) => keysShown(page, options, asText));
  }

  /**
   * A record as a status line names it: "Maria Silva (buyer <id>)", the name read (record-names.ts)
   * only where names are shown, a table on a terminal, and the line is not silenced by --quiet;
   * else, or when it cannot be read, "buyer <id>".
   */
  async named(kind: import('./record-names.js').RecordKind, id: string): Promise<string> {
    const byId = `${kind} ${id}`;
    if (this.needs.globals.quiet || !this.needs.io.stdoutIsTTY || this.needs.globals.fields || (await this.outputFormat()) !== 'table') return byId;
    const api = await this.needs.api().catch(() => undefined);
    const name = api && (await (await import('./record-names.js')).recordName(api, kind, id));
    return name === undefined ? byId : `${name} (${byId})`;
  }

  /** Says, under what was printed, why records it names are shown by id (record-names.ts), when any was left for the bound or a failing service. */
  private async noteNamesLeftOut(): Promise<void> {
    const api = await this.needs.api().catch(() => undefined);
    const { namesLeftOut } = await import('./record-names.js');
    const note = api && namesLeftOut(api);
    if (note) this.needs.log.status(note);
  }

  /** Rows already at hand (a summary, a reconciliation, the ledger's moves), rendered as a list. */
  async renderRows(rows: unknown[], columns: Column[], tableRow?: (item: Record<string, unknown>) => Record<string, unknown>): Promise<number> {
    return this.renderList(
      (async function* () {
        yield rows;
      })(),
      columns,
      tableRow,
    );
  }

  /**
   * Renders a list. `tableRow` adds display-only fields for the table (a masked CPF, a computed
   * fee); JSON, NDJSON and CSV always get the API's objects unchanged.
   */
  async renderList(pages: AsyncIterable<unknown[]>, columns: Column[], tableRow?: (item: Record<string, unknown>) => Record<string, unknown>): Promise<number> {
    const { renderList } = await import('./render.js');
    const options = { ...(await this.renderOptions()), columns };
    const named = await this.withNames(options.format === 'table' && tableRow ? mapPages(pages, tableRow) : pages, options);
    const count = await renderList(named.pages, { ...options, columns: named.columns });
    if (options.format === 'table' && count > 0) await this.zoneNote(columns);
    if (options.format === 'table' && this.needs.io.stdoutIsTTY && namesIn(columns)) await this.noteNamesLeftOut();
    return count;
  }

  /**
   * Fetches a list page by page and renders it as it arrives: with a progress bar on stderr for
   * `--all` on a terminal, and a totals line under the table where the spec asks for one.
   */
  async list(spec: ListSpec): Promise<number> {
    // A short list (one page) is not worth a sandbox thread.
    const long = spec.request.all || spec.request.limit > SHORT_RUN_ITEMS;
    if (long) this.needs.service.expectLongRun();
    const api = await this.needs.api();
    const format = await this.outputFormat();
    const progress =
      spec.request.all && this.needs.io.stderrIsTTY && !this.needs.globals.quiet ? (await import('./progress.js')).pageProgress(this.needs.io.stderr, spec.noun) : undefined;
    const totals = format === 'table' && spec.totals ? new (await import('./totals.js')).Totals(spec.noun, spec.totals) : undefined;
    // What the last page said of the list's length: a table that shows part of it says so.
    let extent: ListExtent | undefined;
    // A window further into the list (--window): the service reads from there; a stream of the
    // verb's own (merged, searched) is read up to the window's end and its first items skipped.
    const offset = spec.request.skip ?? 0;
    const source = spec.pages
      ? skipped(spec.pages(api, progress?.page), offset)
      : api.pages(spec.operation, spec.input, {
          ...spec.request,
          ...(offset > 0 ? { offset, ...(spec.request.all ? {} : { limit: spec.request.limit - offset }) } : {}),
          ...(progress ? { onPage: progress.page } : {}),
          onExtent: (e) => (extent = e),
        });
    const { keep } = spec;
    const { log } = this.needs;
    let leftOut = 0;
    async function* tapped(): AsyncGenerator<unknown[]> {
      try {
        for await (const whole of source) {
          const page = keep ? whole.filter((item) => keep.test(item)) : whole;
          leftOut += whole.length - page.length;
          if (totals) for (const item of page) totals.add(item);
          if (page.length > 0) yield page;
        }
      } finally {
        // Gone before anything else is written: the rows' end, the totals, or an error.
        progress?.stop();
        // A service that answered items it was not asked for: its count of the list is not this list's.
        if (leftOut > 0) {
          extent = extent && { total: undefined, more: extent.more };
          if (keep) log.status(keep.outside(leftOut));
        }
      }
    }
    if (spec.groupBy) return this.listGrouped(spec, spec.groupBy, tapped(), totals);
    const { renderList } = await import('./render.js');
    const options = { ...(await this.renderOptions()), columns: spec.columns, ...(spec.csvColumns ? { csvColumns: spec.csvColumns } : {}) };
    // What other reads tell (names) only for a person at a terminal: a table piped elsewhere costs no request.
    const person = format === 'table' && this.needs.io.stdoutIsTTY;
    const enriched = person && spec.tablePage ? enrichPages(tapped(), (page) => (spec.tablePage as NonNullable<ListSpec['tablePage']>)(api, page)) : tapped();
    const named = await this.withNames(format === 'table' && spec.tableRow ? mapPages(enriched, spec.tableRow) : enriched, options);
    const count = await renderList(named.pages, { ...options, columns: named.columns });
    const shownOf = format === 'table' && !spec.request.all && count >= spec.request.limit ? partOf(count, extent) : undefined;
    if (totals && count > 0) {
      const { writeOut } = await import('./write.js');
      await writeOut(this.needs.io.stdout, `${await totals.line(this.needs.io.stdout, shownOf)}\n`);
    } else if (shownOf !== undefined) {
      const { writeOut } = await import('./write.js');
      const { counted, formatCount, singular } = await import('../platform/plural.js');
      await writeOut(this.needs.io.stdout, `${shownOf.total === undefined ? counted(count, singular(spec.noun), spec.noun) : `${formatCount(count)} of ${counted(shownOf.total, singular(spec.noun), spec.noun)}`} (${shownOf.hint})\n`);
    }
    if (format === 'table' && count > 0) await this.zoneNote(spec.columns);
    if (person && (spec.tablePage || namesIn(spec.columns))) await this.noteNamesLeftOut();
    return count;
  }

  /** A list summed per group (--group-by): one row a group, a bar beside each on a table, the totals line under it. */
  private async listGrouped(spec: ListSpec, groupBy: NonNullable<ListSpec['groupBy']>, pages: AsyncIterable<unknown[]>, totals: import('./totals.js').Totals | undefined): Promise<number> {
    const { Summary, summaryColumns, summaryNotes, withBars } = await import('./summary.js');
    // The provider lists newest first unless asked otherwise: entries of one instant come last first.
    const summary = new Summary(groupBy.spec, groupBy.by, spec.input.query?.sort !== 'time-ascending');
    let count = 0;
    for await (const page of pages) {
      for (const item of page) summary.add(item);
      count += page.length;
    }
    const format = await this.outputFormat();
    const rows = summary.rows();
    if (format !== 'table') {
      await this.renderRows(rows, summaryColumns(groupBy.spec, groupBy.by, rows, false));
      return count;
    }
    const { terminalColumns } = await import('./table.js');
    await this.renderRows(withBars(rows, groupBy.spec, groupBy.by, terminalColumns(this.needs.io.stdout)), summaryColumns(groupBy.spec, groupBy.by, rows, true));
    const { writeOut } = await import('./write.js');
    if (totals && count > 0) await writeOut(this.needs.io.stdout, `${await totals.line(this.needs.io.stdout)}\n`);
    if (count > 0) for (const note of summaryNotes(groupBy.spec, rows)) await this.writeNote(note);
    // Days, weeks and months of instants are the zone's: the table says which.
    if (count > 0 && !groupBy.spec.time.day && ['day', 'week', 'month'].includes(groupBy.by)) await this.zoneNote();
    return count;
  }

  /** A line under a table that says how to read it, dimmed when in colour. */
  private async writeNote(note: string | undefined): Promise<void> {
    if (!note) return;
    const { writeOut } = await import('./write.js');
    await writeOut(this.needs.io.stdout, `${this.color ? new (await import('chalk')).Chalk({ level: 1 }).dim(note) : note}\n`);
  }

  /**
   * Under a table that shows times (one of instants, when given its `columns`), once: which zone
   * they are in, UTC's too (`times in UTC`); dim on colour, a line of its own, so a reader never
   * has to guess what clock a time is on.
   */
  private async zoneNote(columns?: Column[]): Promise<void> {
    const [{ loadStyle, showsInstants, zoneLine }, { writeOut }] = await Promise.all([import('./table.js'), import('./write.js')]);
    if (columns && !showsInstants(columns, this.needs.globals.fields)) return;
    await writeOut(this.needs.io.stdout, await zoneLine(await loadStyle(this.color)));
  }

  private async renderOptions() {
    const options: import('./render-options.js').RenderOptions = {
      format: await this.outputFormat(),
      out: this.needs.io.stdout,
      color: this.color,
    };
    if (this.needs.globals.fields) {
      options.fields = this.needs.globals.fields;
      // Fields asked for by name and left out for want of room are said, never silently lost.
      options.onDropped = (headers) => this.needs.log.warn(`the terminal is too narrow for every field asked for: ${headers.join(', ')} not shown (a wider terminal, or -o json, shows them)`);
    }
    if (this.needs.globals.csvRaw) options.csvRaw = true;
    if (options.format === 'csv') options.csvLocale = await this.csvLocale();
    return options;
  }

  /** How CSV is written: --csv-locale, else the profile's csv_locale, else the API's values. */
  async csvLocale(): Promise<import('./csv-locale.js').CsvLocale> {
    if (this.needs.globals.csvLocale) return this.needs.globals.csvLocale;
    const profile = await this.needs.config.settings();
    if (!profile?.csvLocale) return 'none';
    const { parseCsvLocale } = await import('./csv-locale.js');
    return parseCsvLocale(profile.csvLocale, `profile "${profile.name}" csv_locale setting`);
  }

  /** The dry run's one output: the request, masked, as JSON (or text for a table). */
  async dryRun(shown: PreparedRequest): Promise<void> {
    if (this.dryRunWritten) return;
    this.dryRunWritten = true;
    const format = await this.outputFormat();
    const json = { dry_run: true, ...shown };
    const text = format === 'table' ? dryRunText(shown) : format === 'ndjson' ? `${JSON.stringify(json)}\n` : `${JSON.stringify(json, null, 2)}\n`;
    this.needs.io.stdout.write(text);
    this.needs.log.status('dry run: nothing was sent');
  }
}

/** Whether any of the columns shows a record by name on a terminal (Column.names). */
function namesIn(columns: Column[]): boolean {
  return columns.some((c) => c.names !== undefined);
}

async function* enrichPages(pages: AsyncIterable<unknown[]>, enrich: (page: unknown[]) => Promise<unknown[]>): AsyncGenerator<unknown[]> {
  for await (const page of pages) yield await enrich(page);
}

async function* mapPages(pages: AsyncIterable<unknown[]>, map: (item: Record<string, unknown>) => Record<string, unknown>): AsyncGenerator<unknown[]> {
  for await (const page of pages) yield page.map((item) => (item && typeof item === 'object' ? map(item as Record<string, unknown>) : item));
}

/** The pages without their first `count` items. */
async function* skipped(pages: AsyncIterable<unknown[]>, count: number): AsyncGenerator<unknown[]> {
  let left = count;
  for await (const page of pages) {
    const kept = left > 0 ? page.slice(left) : page;
    left = Math.max(0, left - page.length);
    if (kept.length > 0) yield kept;
  }
}

function dryRunText(request: PreparedRequest): string {
  const lines = [`${request.method} ${request.url}`];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
  if (request.body !== undefined) lines.push('', JSON.stringify(request.body, null, 2));
  return `${lines.join('\n')}\n`;
}
