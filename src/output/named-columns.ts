// A table's columns that hold the id of a record a person knows by name (a subscription's buyer and
// plan, a split rule's recipient, an account's owner; Column.names): on a terminal each cell shows
// that name instead, read by record-names.ts (bounded, once a record). A record without a name to
// show keeps its id. A column whose every id was named is text, cut to fit like any name; one that
// shows an id keeps the id's kind, never cut. JSON, NDJSON, CSV, --fields and a table piped
// elsewhere never come here: they keep the API's ids and cost no request.
import type { ApiClient } from '../api/client.js';
import { getPath } from './fields.js';
import { nameKey, recordNames, type RecordRef } from './record-names.js';
import type { Column, RenderOptions } from './render-options.js';

type Item = Record<string, unknown>;

const isItem = (value: unknown): value is Item => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The record `column` refers to in `item`, when it is one known by name. */
export function columnRef(column: Column, item: Item): RecordRef | undefined {
  if (column.names === undefined) return undefined;
  const kind = typeof column.names === 'function' ? column.names(item) : column.names;
  const id = getPath(item, column.key);
  return kind !== undefined && typeof id === 'string' && id !== '' ? { kind, id } : undefined;
}

/** The records the rows refer to in these columns, each once. */
export function rowRefs(rows: readonly unknown[], columns: readonly Column[]): RecordRef[] {
  const refs = new Map<string, RecordRef>();
  for (const row of rows) {
    if (!isItem(row)) continue;
    for (const column of columns) {
      const ref = columnRef(column, row);
      if (ref) refs.set(nameKey(ref), ref);
    }
  }
  return [...refs.values()];
}

/** `item` with `value` at the dotted `path`, the item itself left as it is. */
function withValue(item: Item, path: string, value: string): Item {
  const dot = path.indexOf('.');
  if (dot < 0) return { ...item, [path]: value };
  const head = path.slice(0, dot);
  return { ...item, [head]: withValue(isItem(item[head]) ? item[head] : {}, path.slice(dot + 1), value) };
}

/**
 * The rows with each id in the named columns replaced by the name read for it, and the keys of the
 * columns in which every id was named.
 */
export function nameRows(rows: readonly unknown[], columns: readonly Column[], names: ReadonlyMap<string, string>): { rows: unknown[]; allNamed: Set<string> } {
  const allNamed = new Set(columns.filter((c) => c.names !== undefined).map((c) => c.key));
  const named = rows.map((row) => {
    if (!isItem(row)) return row;
    let shown = row;
    for (const column of columns) {
      const ref = columnRef(column, row);
      if (!ref) continue;
      const name = names.get(nameKey(ref));
      if (name === undefined) allNamed.delete(column.key);
      else shown = withValue(shown, column.key, name);
    }
    return shown;
  });
  return { rows: named, allNamed };
}

/** The columns, those that show names in every row as text: cut with "…" to fit, and the first to give way. */
export function asNameColumns(columns: readonly Column[], allNamed: ReadonlySet<string>): Column[] {
  return columns.map((c) => {
    if (c.names === undefined || !allNamed.has(c.key)) return c;
    const { optional: _dropped, ...rest } = c;
    return { ...rest, kind: 'text' };
  });
}

/**
 * Pages of a table on a terminal, the ids in its named columns shown by name, and the columns to
 * draw them with. Names are read only for the columns the terminal has room for (`shown`, asked
 * of the first page): a column that would be left out costs no request. The table's layout is
 * pinned by its first page, so a named column is made text (cut to fit) only when that page is the
 * whole list and every id on it was named; in a longer list a later row may have to show an id
 * (past the bound on names, or a record that cannot be read), so there the column keeps the id's
 * kind and nothing in it is cut.
 */
export async function namedPages(
  api: ApiClient,
  pages: AsyncIterable<unknown[]>,
  opts: RenderOptions & { columns: Column[] },
  shown: (page: unknown[], asText: ReadonlySet<string>) => Promise<ReadonlySet<string>>,
): Promise<{ pages: AsyncIterable<unknown[]>; columns: Column[] }> {
  const iterator = pages[Symbol.asyncIterator]();
  /** `ready`, then `read` and every page not yet read from `pages`, each through `name`. */
  const then = async function* (ready: unknown[][], read: unknown[][] = [], name: (page: unknown[]) => Promise<unknown[]> = async (page) => page): AsyncGenerator<unknown[]> {
    try {
      yield* ready;
      for (const page of read) yield await name(page);
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield await name(next.value);
    } finally {
      await iterator.return?.();
    }
  };
  const first = await iterator.next();
  if (first.done) return { pages: then([]), columns: opts.columns };
  const candidates = opts.columns.filter((c) => c.names !== undefined);
  const room = await shown(first.value, new Set(candidates.map((c) => c.key)));
  const reading = candidates.filter((c) => room.has(c.key));
  if (reading.length === 0) return { pages: then([first.value]), columns: opts.columns };
  const name = async (page: unknown[]) => nameRows(page, reading, await recordNames(api, rowRefs(page, reading)));
  const head = await name(first.value);
  // Whether the first page is the whole list: the next is read now (it was asked for already).
  const second = await iterator.next();
  if (second.done) return { pages: then([head.rows]), columns: asNameColumns(opts.columns, head.allNamed) };
  return { pages: then([head.rows], [second.value], async (page) => (await name(page)).rows), columns: opts.columns };
}
