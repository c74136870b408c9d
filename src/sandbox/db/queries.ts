import type { SqlValue } from '../../platform/sqlite.js';
import { GcPacer } from '../../platform/runtime.js';
import type { ListQuery } from '../list.js';
import type { SandboxState } from '../types.js';
import type { Row as StoredRow } from './fields.js';
import type { IdCodes } from './id-codes.js';
import { docOf, docOfVersion, keyOfRow, lookupValue, TABLE_BY_NAME, type Doc, type TableSpec } from './schema.js';

// Lookups and pages of the large collections, as indexed queries. What they return is read
// through the session of the state they were given, so a record a change already read is that
// same object, and a change made to one is saved with the change (session.ts).

/** A record as a query read it: its key, its document, its version, and the row it was read from. */
type Row = { k: string; doc: Doc; version?: number; stored: StoredRow };

function table(name: string): TableSpec {
  const spec = TABLE_BY_NAME.get(name);
  if (!spec) throw new Error(`no sandbox table ${name}`);
  return spec;
}

/** Whole rows (key, document, version) of `name` that `where` picks, in `order`. */
function rowsWhere(state: SandboxState, name: string, where: string, params: SqlValue[], order: string): Row[] {
  const spec = table(name);
  const rows = state.session.db.all<StoredRow>(`SELECT t.* FROM ${name} t WHERE ${where} ORDER BY ${order}`, ...params);
  return rows.map((row) => rowOf(spec, row, state.session.db.ids));
}

function rowOf(spec: TableSpec, row: StoredRow, codes: IdCodes): Row {
  return { k: keyOfRow(spec, row.k, codes), doc: docOf(spec, row, codes), version: spec.versioned ? (row.version as number) : undefined, stored: row };
}

/** Records of `name` in the order of `rows`, read through `state`. */
function through<T>(state: SandboxState, name: string, rows: Row[]): T[] {
  state.session.adopt(name, rows);
  return rows.map((row) => state.session.item(name, row.k) as T);
}

// `ORDER BY +t.k`: the + keeps SQLite from walking the whole table in key order to skip a sort,
// when the column's index finds the few matching rows at once.

/**
 * The record of `name` whose `column` is `value` (the first stored, if several; the first by
 * `earliest`, a time column, when given), or undefined.
 */
export function findBy<T>(state: SandboxState, name: string, column: string, value: string, earliest?: string): T | undefined {
  const order = earliest === undefined ? '+t.k LIMIT 1' : `t.${earliest}, t.rowid LIMIT 1`;
  const rows = rowsWhere(state, name, `t.${column} = ?`, [lookupValue(table(name), column, value, state.session.db.ids)], order);
  return through<T>(state, name, rows)[0];
}

/** Every record of `name` whose columns equal the values given, in stored order. */
export function findAllBy<T>(state: SandboxState, name: string, where: Record<string, SqlValue>): T[] {
  // A table known to hold no row (the tokens of most sandboxes, which every card sale looks in) needs no query.
  if (state.session.db.isEmpty(name)) return [];
  const names = Object.keys(where);
  const conditions = names.map((n) => `t.${n} = ?`).join(' AND ');
  const rows = rowsWhere(state, name, conditions, names.map((n) => lookupValue(table(name), n, where[n] as SqlValue, state.session.db.ids)), '+t.k');
  return through<T>(state, name, rows);
}

/**
 * Every record of `name` whose `column` is one of `values`, in the order they were stored (the
 * order of `Object.values` on the collection), found through the column's index.
 */
export function findAllIn<T>(state: SandboxState, name: string, column: string, values: readonly string[]): T[] {
  const rows = rowsWhere(state, name, `t.${column} IN (${values.map(() => '?').join(', ')})`, values.map((value) => lookupValue(table(name), column, value, state.session.db.ids)), 't.rowid');
  return through<T>(state, name, rows);
}

/**
 * Some columns of the rows of `name` whose `column` is one of `values`, in `order`, without
 * reading their records: for looking many up at once. `k` is each row's key; an id column's value
 * comes back as the id.
 */
export function columnsIn(state: SandboxState, name: string, column: string, values: readonly string[], picked: readonly string[], order = 't.rowid'): Array<Record<string, unknown>> {
  const spec = table(name);
  const { db } = state.session;
  const rows = db.all<Record<string, SqlValue>>(
    `SELECT t.k, ${picked.map((c) => `t.${c}`).join(', ')} FROM ${name} t WHERE t.${column} IN (${values.map(() => '?').join(', ')}) ORDER BY ${order}`,
    ...values.map((value) => lookupValue(spec, column, value, db.ids)),
  );
  const codes = db.ids;
  const ids = picked.filter((c) => spec.columns[c]?.type === 'ANY');
  return rows.map((row) => {
    const out: Record<string, unknown> = { ...row, k: keyOfRow(spec, row.k, codes) };
    for (const c of ids) out[c] = codes.id(row[c]);
    return out;
  });
}

interface PageSpec {
  /** Column → accepted values (an item passes when its column equals any of them). */
  filters?: Record<string, readonly string[] | undefined>;
  /** The time column the query's date range and sort apply to. */
  time: string;
  /** When the time order is the stored order (events): sort by position only. */
  storedOrder?: boolean;
}

function conditionsOf(stored: TableSpec, spec: PageSpec, query: ListQuery, codes: IdCodes): { where: string; params: SqlValue[] } {
  const parts = [`t.${spec.time} BETWEEN ? AND ?`];
  const params: SqlValue[] = [query.range.min, query.range.max];
  for (const [column, values] of Object.entries(spec.filters ?? {})) {
    if (!values) continue;
    parts.push(`t.${column} IN (${values.map(() => '?').join(', ')})`);
    params.push(...values.map((value) => lookupValue(stored, column, value, codes)));
  }
  return { where: parts.join(' AND '), params };
}

// Where the last page of each listing ended: the next page of it (offset = where it ended) then
// starts from that row by the index instead of skipping every row before it, so paging through
// 100,000 rows costs the same per page at the end as at the start. A row is placed by its rowid:
// a list table's position, a table keyed by id's insertion order.
// Kept only while the database is unchanged: after a change, offsets may no longer mean the rows
// they meant, and the page is found by its offset again.
const cursors = new Map<string, { offset: number; at: number; row: number; mark: string }>();
const MAX_REMEMBERED = 64;

/** Keeps `value` as the newest entry of `map`, dropping the oldest past MAX_REMEMBERED. */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_REMEMBERED) map.delete(map.keys().next().value as string);
}
// How many rows each listing matched, while the database is unchanged: counting 100,000 rows for
// each of 1,000 pages was most of an export's time.
const counts = new Map<string, { mark: string; n: number }>();

// Pages served between two full garbage collections (see platform/runtime.ts): an export of 100,000
// transactions is 1,000 pages.
const pacer = new GcPacer(100);

/** A listing of every row: no filter, no date range. */
function whole(spec: PageSpec, query: ListQuery): boolean {
  return query.range.min <= -8.64e15 && query.range.max >= 8.64e15 && Object.values(spec.filters ?? {}).every((values) => values === undefined);
}

/**
 * How many rows a list table holds, without counting them (a million took a tenth of a second):
 * its rows only ever grow at the end and are only ever trimmed from the start (events), so their
 * positions run without a gap from the first to the last.
 */
function rowCount(state: SandboxState, name: string): number {
  const range = state.session.db.keyRange(name);
  return range ? range.last - range.first + 1 : 0;
}

/** One page of the table `name` in the query's time order (ties in stored order), with how many match in all. */
export function page<T = Doc>(state: SandboxState, name: string, spec: PageSpec, query: ListQuery): { items: T[]; total: number } {
  const { db } = state.session;
  const stored = table(name);
  const { where, params } = conditionsOf(stored, spec, query, db.ids);
  const countSql = `SELECT count(*) AS n FROM ${name} t WHERE ${where}`;
  const countKey = `${db.file}|${countSql}|${JSON.stringify(params)}`;
  const mark = db.changeMark();
  let total = counts.get(countKey)?.mark === mark ? counts.get(countKey)?.n : undefined;
  if (total === undefined) {
    total = whole(spec, query) && stored.key === 'INTEGER' ? rowCount(state, name) : (db.get<{ n: number }>(countSql, ...params) as { n: number }).n;
    remember(counts, countKey, { mark, n: total });
  }
  const descending = query.sort === 'time-descending';
  const direction = descending ? 'DESC' : 'ASC';
  const time = spec.storedOrder ? 't.rowid' : `t.${spec.time}`;
  const order = spec.storedOrder ? `t.rowid ${direction}` : `${time} ${direction}, t.rowid ${direction}`;
  const listing = `${db.file}|${name}|${where}|${JSON.stringify(params)}|${order}`;
  const cursor = cursors.get(listing);
  const resume = cursor !== undefined && cursor.offset === query.offset && cursor.mark === mark;
  let seekWhere = where;
  let seekParams = params;
  if (resume) {
    // The time bound moves up to where the last page ended, so the index range starts there;
    // rows of that same time already served are left out by rowid.
    const after = descending ? '<' : '>';
    const bounds = descending ? [query.range.min, Math.min(query.range.max, cursor.at)] : [Math.max(query.range.min, cursor.at), query.range.max];
    const sub = conditionsOf(stored, spec, { ...query, range: { min: bounds[0] as number, max: bounds[1] as number } }, db.ids);
    seekWhere = spec.storedOrder ? `${sub.where} AND t.rowid ${after} ?` : `${sub.where} AND (${time} <> ? OR t.rowid ${after} ?)`;
    seekParams = spec.storedOrder ? [...sub.params, cursor.row] : [...sub.params, cursor.at, cursor.row];
  }
  const picked = db.all<StoredRow & { rid: number; at: number }>(
    `SELECT t.*, t.rowid AS rid, ${time} AS at FROM ${name} t WHERE ${seekWhere} ORDER BY ${order} LIMIT ? OFFSET ?`,
    ...seekParams,
    query.limit,
    resume ? 0 : query.offset,
  );
  const last = picked[picked.length - 1];
  if (last) remember(cursors, listing, { offset: query.offset + picked.length, at: last.at, row: last.rid, mark });
  else cursors.delete(listing);
  const rows = picked.map((row) => rowOf(stored, row, db.ids));
  pacer.page();
  return { items: through<T>(state, name, rows), total };
}

/** The sum of an INTEGER column over the records whose columns equal the values given. */
export function sumBy(state: SandboxState, name: string, column: string, where: Record<string, SqlValue>): number {
  const names = Object.keys(where);
  const row = state.session.db.get<{ total: number | null }>(
    `SELECT sum(${column}) AS total FROM ${name} WHERE ${names.map((n) => `${n} = ?`).join(' AND ')}`,
    ...names.map((n) => lookupValue(table(name), n, where[n] as SqlValue, state.session.db.ids)),
  );
  return row?.total ?? 0;
}

/** Receivables awaiting payout expected by `ms`, earliest first (ties in the order they were made). */
export function dueReceivables<T>(state: SandboxState, ms: number, limit?: number): T[] {
  const order = limit === undefined ? 't.expected_ms, t.k' : `t.expected_ms, t.k LIMIT ${Math.max(1, Math.floor(limit))}`;
  const rows = rowsWhere(state, 'receivables', "t.status = 'pending' AND t.expected_ms <= ?", [ms], order);
  return through<T>(state, 'receivables', rows);
}

/** The earliest expected date (ms) of a receivable awaiting payout after `ms`, or undefined. */
export function nextPendingAfter(state: SandboxState, ms: number): number | undefined {
  const row = state.session.db.get<{ next: number | null }>("SELECT min(expected_ms) AS next FROM receivables WHERE status = 'pending' AND expected_ms > ?", ms);
  return row?.next ?? undefined;
}

/**
 * The first event at or after position `from` whose type `matches`, read in pages; `index` is
 * where the next look may start (the event's position, or past the last event when none matched).
 * Positions below the oldest kept event were trimmed (session.ts) and are skipped.
 */
export function nextMatchingEvent<T>(state: SandboxState, from: number, matches: (type: string) => boolean): { index: number; event?: T } {
  const { db } = state.session;
  let index = from;
  for (;;) {
    const rows = db.all<{ k: number; type: string }>('SELECT k, type FROM events WHERE k >= ? ORDER BY k LIMIT 500', index);
    if (rows.length === 0) return { index };
    const hit = rows.find((row) => matches(row.type));
    if (hit) return { index: hit.k, event: state.events.at(hit.k) as T | undefined };
    index = (rows[rows.length - 1] as { k: number }).k + 1;
  }
}

/** The document of one version of a record (an event's payload refers to one). */
export function recordVersion(state: SandboxState, name: string, key: string, version: number): Doc | undefined {
  const doc = state.session.db.versionDoc(name, key, version);
  return doc === undefined ? undefined : docOfVersion(table(name), doc, state.session.db.ids);
}
