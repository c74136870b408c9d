// One object for a person to read: a title line, the few fields support and finance look at
// first, then short sections (how it was paid, fees, its history as a small table, metadata).
// A resource describes its view once (which fields, in which order, under which labels); this
// module draws it with the same cli-table3 layout as every other table. Empty fields and empty
// sections are left out, so a plain sale fits one screen. An id of a record a person knows by
// name (the buyer, the card, the seller, the plan) is shown by that name, the id dim beside it,
// when the name was read (see record-names.ts). JSON, NDJSON, CSV and --fields never come here:
// they print the API's object as it is.
import { getPath } from './fields.js';
import type { CellKind } from './format.js';
import { asNameColumns, nameRows, rowRefs } from './named-columns.js';
import { nameKey, type NamesOf, type RecordRef } from './record-names.js';
import type { Column } from './render-options.js';
import { sanitize } from './sanitize.js';
import { cellText, drawPairs, loadStyle, loadTable, renderTableList, showsInstants, showsTimes, styleCell, zoneLine, type Pair } from './table.js';

type Item = Record<string, unknown>;

export interface ViewField {
  label: string;
  /** A dotted path, or a function for a value put together from several fields (already text). */
  at: string | ((item: Item) => string | undefined);
  /** How a path's value is shown; by default what its key suggests (amount → money, …). */
  kind?: CellKind;
  /** The path holds the id of a record of this kind (or the kind the item says): shown by its name when known. */
  names?: NamesOf;
}

export interface ViewSection {
  title: string;
  /** Label/value lines. */
  fields?: ViewField[];
  /** An array of objects shown as its own small table; `row` adds display-only cells to each. */
  rows?: { at: string; columns: Column[]; row?: (row: Item, item: Item) => Item };
  /** A free-form object (metadata) shown key by key. */
  entries?: string;
}

export interface ObjectView {
  /** "Transaction": the title reads "Transaction <id>  <status>". */
  noun: string;
  id: string;
  status?: string;
  summary: ViewField[];
  sections: ViewSection[];
}

const INDENT = '  ';

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

/** The record a field refers to by id, when it is one a person knows by name. */
function refOf(field: ViewField, item: Item): RecordRef | undefined {
  if (field.names === undefined || typeof field.at !== 'string') return undefined;
  const kind = typeof field.names === 'function' ? field.names(item) : field.names;
  const id = getPath(item, field.at);
  return kind !== undefined && typeof id === 'string' && id !== '' ? { kind, id } : undefined;
}

/** The rows a section shows as a small table, each as its `row` gives it. */
function sectionRows(rows: NonNullable<ViewSection['rows']>, item: Item): unknown[] {
  const found = getPath(item, rows.at);
  if (!Array.isArray(found)) return [];
  const { row } = rows;
  return row ? found.map((r) => (r && typeof r === 'object' ? row(r as Item, item) : r)) : found;
}

/**
 * The records the view's summary and sections name by id (in their fields, and in the columns of
 * their small tables: a split's recipients), each once: what Printer.show reads names for.
 */
export function namedRecords(view: ObjectView, item: Item, options: { short?: boolean } = {}): RecordRef[] {
  const sections = options.short ? [] : view.sections;
  const fields = [...view.summary, ...sections.flatMap((section) => section.fields ?? [])];
  const refs = new Map<string, RecordRef>();
  for (const field of fields) {
    const ref = refOf(field, item);
    if (ref) refs.set(nameKey(ref), ref);
  }
  for (const { rows } of sections) if (rows) for (const ref of rowRefs(sectionRows(rows, item), rows.columns)) refs.set(nameKey(ref), ref);
  return [...refs.values()];
}

function pairsOf(fields: ViewField[], item: Item, names: ReadonlyMap<string, string>): Pair[] {
  return fields.flatMap((field): Pair[] => {
    if (typeof field.at === 'function') {
      const text = field.at(item);
      return text === undefined || text === '' ? [] : [{ key: field.label, text: sanitize(text), kind: field.kind ?? 'text' }];
    }
    const value = getPath(item, field.at);
    if (isEmpty(value)) return [];
    const ref = refOf(field, item);
    const name = ref && names.get(nameKey(ref));
    if (ref && name !== undefined) return [{ key: field.label, text: name, kind: 'text', aside: sanitize(ref.id) }];
    const kind = field.kind ?? 'text';
    return [{ key: field.label, text: cellText(value, kind, item, field.at), kind }];
  });
}

/** A stream that keeps what is written, sized like the terminal it stands in for. */
function collector(columns: number | undefined): NodeJS.WritableStream & { text: string } {
  const sink = {
    text: '',
    isTTY: columns !== undefined,
    columns,
    write(chunk: string, callback?: (err?: Error | null) => void) {
      sink.text += chunk;
      callback?.();
      return true;
    },
    once() {
      return sink;
    },
    removeListener() {
      return sink;
    },
  };
  return sink as unknown as NodeJS.WritableStream & { text: string };
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? line : INDENT + line))
    .join('\n');
}

/**
 * The view as text for a terminal of `columns` columns (undefined: not a terminal, nothing is
 * fitted). `short` gives the title and summary only: what a refund or capture prints after it.
 * `names`: the names read for the records it refers to (namedRecords), keyed by nameKey.
 */
export async function drawObjectView(
  view: ObjectView,
  item: Item,
  options: { color: boolean; columns: number | undefined; short?: boolean; names?: ReadonlyMap<string, string> },
): Promise<string> {
  const names = options.names ?? new Map<string, string>();
  const [Table, style] = await Promise.all([loadTable(), loadStyle(options.color)]);
  const id = getPath(item, view.id);
  const status = view.status ? getPath(item, view.status) : undefined;
  const statusText = typeof status === 'string' && status !== '' ? `  ${styleCell(sanitize(status), 'status', style)}` : '';
  let out = `${style.bold(`${view.noun} ${sanitize(String(id ?? ''))}`)}${statusText}\n`;
  const summary = pairsOf(view.summary, item, names);
  out += drawPairs(Table, style, summary, options.columns);
  // The view ends naming the zone of the times it shows.
  let times = showsTimes(summary);
  if (options.short) return times ? out + (await zoneLine(style)) : out;
  const room = options.columns === undefined ? undefined : Math.max(20, options.columns - INDENT.length);
  for (const section of view.sections) {
    let body = '';
    if (section.fields) {
      const pairs = pairsOf(section.fields, item, names);
      times ||= showsTimes(pairs);
      body += drawPairs(Table, style, pairs, room);
    }
    if (section.rows) {
      // The records its rows refer to by name, where read (a split's recipients).
      const named = nameRows(sectionRows(section.rows, item), section.rows.columns, names);
      const { rows } = named;
      if (rows.length > 0) {
        const sink = collector(room);
        await renderTableList(
          (async function* () {
            yield rows;
          })(),
          { format: 'table', out: sink, color: options.color, columns: names.size > 0 ? asNameColumns(section.rows.columns, named.allNamed) : section.rows.columns },
        );
        body += sink.text;
        times ||= showsInstants(section.rows.columns);
      }
    }
    if (section.entries) {
      const entries = getPath(item, section.entries);
      if (entries && typeof entries === 'object' && !Array.isArray(entries)) {
        const pairs = Object.entries(entries as Item).map(([key, value]) => ({ key: sanitize(key), text: cellText(value, 'text', item, ''), kind: 'text' as const }));
        body += drawPairs(Table, style, pairs, room);
      }
    }
    if (body !== '') out += `\n${style.bold(section.title)}\n${indent(body)}`;
  }
  return times ? out + (await zoneLine(style)) : out;
}
