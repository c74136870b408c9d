import type { SqlValue } from '../../platform/sqlite.js';
import type { SandboxDb } from './database.js';
import { madeOnce, type Row } from './fields.js';
import type { IdCodes } from './id-codes.js';
import { docOf, keyOfRow, rowValues, storedColumns, storedKey, TABLE_BY_NAME, TABLES, versionText, type Doc, type TableSpec } from './schema.js';

// One request's view of the sandbox's database: the records it reads, by table, each read once
// (reading a record twice gives the same object), and what it writes. A handler reads through
// the repositories of records.ts (`state.buyers.get(id)`, `state.transactions.append(t)`) and
// changes the plain objects they give it; `changes` then tells which of them differ from the
// text they were read as (a handler never has to say what it touched), and `write` saves those.
//
// A session made for reading keeps no copies to compare with: it never writes.

/** How many events are kept: older ones are removed (with the record versions only they refer to). */
export const eventLimits = { keep: 100_000, slack: 10_000 };

type Absent = undefined;

/** A version of a record as written (or as it was when removed): what an event of it refers to. */
interface Written {
  table: TableSpec;
  version: number;
  doc: Doc;
}

/**
 * Values by table and key, without a "table/key" string made for each lookup: a generated volume
 * looks records up a million times, and each such string was a new one to hash.
 */
class ByRecord<V> {
  private readonly tables = new Map<string, Map<string, V>>();
  of(top: string): Map<string, V> {
    let values = this.tables.get(top);
    if (!values) this.tables.set(top, (values = new Map()));
    return values;
  }
  clear(): void {
    this.tables.clear();
  }
}

/**
 * A record a writing session read or added, with its row as first read (undefined: it did not
 * exist). The row is what the database gave, so keeping it costs nothing, where a copy of the
 * record's JSON cost a JSON.stringify of every record read; it is compared with the record's
 * columns as it is now, which writing needs anyway.
 */
interface Touched {
  top: string;
  key: string;
  row: Row | undefined;
  /** Written and let go of (settle): no longer compared. */
  settled: boolean;
}

/** A record (or a top-level value, `key` undefined) as a change left it, and as it was before. */
export interface Change {
  top: string;
  key?: string;
  /** Its JSON as the session read it; undefined when it did not exist. */
  readonly before: string | undefined;
  /** What it is now; undefined when it was removed. */
  after: unknown;
  /** A record's row as read: an update sets only the columns that differ from it. */
  stored?: Row;
  /** A record's column values as it is now (rowValues), worked out as it was compared. */
  values?: SqlValue[];
}

/** A change of a record that was stored: its JSON before is made from its row, only when asked (events ask). */
class StoredChange implements Change {
  constructor(
    readonly top: string,
    readonly key: string,
    private readonly codes: IdCodes,
    readonly stored: Row,
    readonly after: unknown,
    readonly values?: SqlValue[],
  ) {}

  get before(): string {
    return JSON.stringify(docOf(TABLE_BY_NAME.get(this.top) as TableSpec, this.stored, this.codes));
  }
}

/** Whether a record's column values (rowValues) are those of its row as stored, its version aside. */
function sameAsStored(table: TableSpec, values: readonly SqlValue[], stored: Row): boolean {
  const names = storedColumns(table);
  for (let i = table.versioned ? 1 : 0; i < names.length; i += 1) {
    if (stored[names[i] as string] !== values[i]) return false;
  }
  return true;
}

interface RowSql {
  get: string;
  old: string;
  insert: string;
  /** An update of the columns named, by their names joined with commas. */
  updates: Map<string, string>;
}

/** Each table's statements for one record, built once, so preparing one is a lookup. */
const rowSqlOf = madeOnce((table: TableSpec): RowSql => {
  const names = storedColumns(table);
  return {
    get: `SELECT * FROM ${table.name} WHERE k = ?`,
    old: `SELECT ${['k', ...names].join(', ')} FROM ${table.name} WHERE k = ?`,
    insert: `INSERT INTO ${table.name} (k, ${names.join(', ')}) VALUES (${['?', ...names.map(() => '?')].join(', ')})`,
    updates: new Map(),
  };
});

function updateSqlOf(table: TableSpec, sets: string[]): string {
  const { updates } = rowSqlOf(table);
  const id = sets.join(',');
  let sql = updates.get(id);
  if (!sql) updates.set(id, (sql = `UPDATE ${table.name} SET ${sets.map((n) => `${n} = ?`).join(', ')} WHERE k = ?`));
  return sql;
}

/** The `meta` row counting the ids this database made (mint). */
const ID_COUNT = 'ids';
/** `meta` rows of the database rather than of the state: a reset keeps them (an id is never made twice). */
const OUTSIDE_STATE = ['format', 'id_salt', ID_COUNT];

/** The names of the top-level values that are not tables (kept in `meta`). */
export const VALUES = ['marketplace_id', 'seller', 'payouts', 'clock', 'counters'] as const;

export class Session {
  private readonly loaded = new Map<string, Map<string, Doc | Absent>>();
  /** For a writing session: each record read or written, as the JSON it had when first read. */
  private readonly before = new ByRecord<Touched>();
  /** The same records, in the order they were first read or added (settled ones are skipped). */
  private touched: Touched[] = [];
  private readonly versionsOf = new ByRecord<number | undefined>();
  private readonly lengths = new Map<string, number>();
  /**
   * For a list, the position from which on the database holds no row: found with its length, and
   * moved on as rows are inserted. A position past it needs no query (a change appends an event
   * and a balance entry; each looked up there before being written, twice, for nothing).
   */
  private readonly storedEnds = new Map<string, number>();
  /**
   * The number of the first id this session made (mint) since it last wrote. The ids from it on
   * are new to the database, so a new card or buyer put under its own id is not looked up first
   * (a generated volume made 14,000 such lookups for 20,000 sales).
   */
  private firstMinted: number | undefined;
  /** Top-level values read or set, with the JSON text they were read as. */
  private readonly meta = new Map<string, { value: unknown; text: string | undefined }>();
  constructor(
    readonly db: SandboxDb,
    private readonly writing = false,
  ) {}

  // --- reading ------------------------------------------------------------------------------------

  private cacheOf(top: string): Map<string, Doc | Absent> {
    let cache = this.loaded.get(top);
    if (!cache) this.loaded.set(top, (cache = new Map()));
    return cache;
  }

  /** Notes, in a writing session, the row a record was first read from (undefined: it did not exist). */
  private noteBefore(top: string, key: string, row: Row | undefined): void {
    if (!this.writing) return;
    const records = this.before.of(top);
    if (records.has(key)) return;
    const touched: Touched = { top, key, row, settled: false };
    records.set(key, touched);
    this.touched.push(touched);
  }

  /** One record, from this session's cache or the database; undefined when there is none. */
  item(top: string, key: string): Doc | Absent {
    const cache = this.cacheOf(top);
    if (cache.has(key)) return cache.get(key);
    const table = TABLE_BY_NAME.get(top) as TableSpec;
    let doc: Doc | Absent;
    let row: Row | undefined;
    if (this.pastStoredEnd(table, key) || this.mintedHere(table, key)) {
      doc = undefined;
      // Nothing is stored there, so no version either: writing it need not ask.
      if (table.versioned) this.versionsOf.of(top).set(key, undefined);
    } else {
      row = this.db.get<Row>(rowSqlOf(table).get, storedKey(table, key, this.db.ids));
      doc = row ? docOf(table, row, this.db.ids) : undefined;
      if (table.versioned) this.versionsOf.of(top).set(key, row ? (row.version as number) : undefined);
    }
    cache.set(key, doc);
    this.noteBefore(top, key, row);
    return doc;
  }

  /** Adopts documents a query already read (with the rows it read them from), so reading them again through the state costs nothing. */
  adopt(top: string, rows: Array<{ k: string | number; doc: Doc; version?: number; stored: Row }>): void {
    const cache = this.cacheOf(top);
    for (const row of rows) {
      const key = String(row.k);
      if (cache.has(key)) continue;
      cache.set(key, row.doc);
      this.noteBefore(top, key, row.stored);
      if (row.version !== undefined) this.versionsOf.of(top).set(key, row.version);
    }
  }

  /** How many positions a list has (the last one's plus one). */
  length(top: string): number {
    let length = this.lengths.get(top);
    if (length === undefined) {
      length = (this.db.keyRange(top)?.last ?? -1) + 1;
      this.lengths.set(top, length);
      this.storedEnds.set(top, length);
    }
    return length;
  }

  /** True when `key` is a position of a list at or past its stored end: no row there, known without asking. */
  private pastStoredEnd(table: TableSpec, key: string): boolean {
    if (table.key !== 'INTEGER') return false;
    const end = this.storedEnds.get(table.name);
    return end !== undefined && Number(key) >= end;
  }

  /** Notes a row inserted at `key`, so the stored end stays true. */
  private storedAt(table: TableSpec, key: string): void {
    const end = this.storedEnds.get(table.name);
    if (table.key === 'INTEGER' && end !== undefined) this.storedEnds.set(table.name, Math.max(end, Number(key) + 1));
  }

  /** The keys of a table's records, in the order they were stored: for the small tables only. */
  keys(top: string): string[] {
    const table = TABLE_BY_NAME.get(top) as TableSpec;
    const stored = this.db.all<{ k: string | number }>(`SELECT k FROM ${top} ORDER BY rowid`).map((r) => keyOfRow(table, r.k, this.db.ids));
    const cache = this.cacheOf(top);
    const keys = stored.filter((k) => !cache.has(k) || cache.get(k) !== undefined);
    for (const [k, v] of cache) if (v !== undefined && !keys.includes(k)) keys.push(k);
    return keys;
  }

  /** A top-level value (the seller, the clock, …), read once. */
  value(name: string): unknown {
    let held = this.meta.get(name);
    if (!held) {
      const text = this.db.metaText(name);
      this.meta.set(name, (held = { value: text === undefined ? undefined : JSON.parse(text), text }));
    }
    return held.value;
  }

  // --- changing -----------------------------------------------------------------------------------

  setValue(name: string, value: unknown): void {
    this.value(name);
    (this.meta.get(name) as { value: unknown }).value = value;
  }

  /** Puts `doc` at `key` (a new record, or one replaced whole); undefined removes the record. */
  put(top: string, key: string, doc: Doc | Absent): void {
    if (!this.cacheOf(top).has(key)) this.item(top, key);
    this.cacheOf(top).set(key, doc);
  }

  /** Adds a record at the end of a list; returns its position. */
  append(top: string, doc: Doc): number {
    const at = this.length(top);
    this.lengths.set(top, at + 1);
    this.noteBefore(top, String(at), undefined);
    this.cacheOf(top).set(String(at), doc);
    return at;
  }

  /**
   * What differs from what was read, in the order it was first read or added: top-level values
   * first, then records. What `write` saved no longer differs.
   */
  changes(): Change[] {
    const found: Change[] = [];
    for (const [name, held] of this.meta) {
      const text = held.value === undefined ? undefined : JSON.stringify(held.value);
      if (text !== held.text) found.push({ top: name, before: held.text, after: held.value });
    }
    this.touched = this.touched.filter((touched) => !touched.settled);
    for (const { top, key, row } of this.touched) {
      const after = this.loaded.get(top)?.get(key) as Doc | Absent;
      if (row === undefined) {
        if (after !== undefined) found.push({ top, key, before: undefined, after });
        continue;
      }
      if (after === undefined) {
        found.push(new StoredChange(top, key, this.db.ids, row, after));
        continue;
      }
      // Compared with its version as stored: only a change moves it on.
      const table = TABLE_BY_NAME.get(top) as TableSpec;
      const values = rowValues(table, after, this.db.ids, row.version as number | undefined);
      if (!sameAsStored(table, values, row)) found.push(new StoredChange(top, key, this.db.ids, row, after, values));
    }
    return found;
  }

  // --- writing ------------------------------------------------------------------------------------

  /** The version a record of a versioned table is at now (undefined when it is not stored). */
  private storedVersion(table: TableSpec, key: string): number | undefined {
    const versions = this.versionsOf.of(table.name);
    if (!versions.has(key)) {
      if (this.pastStoredEnd(table, key)) return undefined;
      const row = this.db.get<{ version: number }>(`SELECT version FROM ${table.name} WHERE k = ?`, storedKey(table, key, this.db.ids));
      versions.set(key, row?.version);
    }
    return versions.get(key);
  }

  /**
   * Inserts or updates one row. An update sets only the columns whose value changed: SQLite
   * rewrites every index of a column it is told to set, and a refund changes one indexed field of
   * eight; the pages that saves are most of what a change writes. A change found by `changes`
   * brings the row as read and the values as compared, so neither is worked out again.
   */
  private putRow(table: TableSpec, key: string, doc: Doc, version: number | undefined, change: Change | undefined): void {
    const names = storedColumns(table);
    const values = change?.values ?? rowValues(table, doc, this.db.ids, version);
    if (change?.values && table.versioned) values[0] = version as number;
    const k = storedKey(table, key, this.db.ids);
    // A record this change found missing when it first looked (a new card, a new account) is not
    // looked up again: nothing else writes inside this transaction.
    const touched = this.before.of(table.name).get(key);
    const known = touched !== undefined && touched.row === undefined;
    const old = change?.stored ?? (known || this.pastStoredEnd(table, key) ? undefined : this.db.get<Record<string, SqlValue>>(rowSqlOf(table).old, k));
    if (!old) {
      this.db.run(rowSqlOf(table).insert, k, ...values);
      this.db.noteInserted(table.name, table.key === 'INTEGER' ? (k as number) : undefined);
      this.storedAt(table, key);
      return;
    }
    const changed = names.map((name, i) => [name, values[i] as SqlValue] as const).filter(([name, value]) => old[name] !== value);
    if (changed.length === 0) return;
    const sets = changed.map(([name]) => name);
    const sql = updateSqlOf(table, sets);
    this.db.run(sql, ...changed.map(([, value]) => value), k);
  }

  /** Removes a record's row; the table's kept key range is read again when next asked. */
  private deleteRow(table: TableSpec, key: string): void {
    this.db.run(`DELETE FROM ${table.name} WHERE k = ?`, storedKey(table, key, this.db.ids));
    this.db.noteRemoved(table.name);
  }

  /**
   * Writes one record as it stands in this session (or removes it). For a record with versions,
   * returns the version it is now at (or was removed at) and that version's document, for an event to
   * refer to.
   */
  private writeItem(table: TableSpec, key: string, change?: Change): Written | undefined {
    const doc = this.cacheOf(table.name).get(key);
    if (!table.versioned) {
      if (doc === undefined) this.deleteRow(table, key);
      else this.putRow(table, key, doc, undefined, change);
      return undefined;
    }
    const before = this.storedVersion(table, key);
    if (doc === undefined) {
      const removed = this.currentVersion(table, key);
      this.deleteRow(table, key);
      return removed;
    }
    const version = (before ?? 0) + 1;
    this.putRow(table, key, doc, version, change);
    this.versionsOf.of(table.name).set(key, version);
    return { table, version, doc };
  }

  /**
   * Saves `changes` (what `changes()` found, events added since included). Called inside the
   * database's write transaction. An event is written after the records, so it can name the
   * version of its record that the change made.
   */
  write(changes: Change[]): void {
    // What the session made so far is stored from now on: only ids made after this are new.
    this.firstMinted = undefined;
    const versions = new ByRecord<Written | undefined>();
    const events: string[] = [];
    for (const change of changes) {
      const { top, key } = change;
      // Top-level values are written last, by writeValues.
      if (key === undefined) continue;
      if (top === 'events') {
        events.push(key);
        continue;
      }
      versions.of(top).set(key, this.writeItem(TABLE_BY_NAME.get(top) as TableSpec, key, change));
      this.settle(top, key);
    }
    const table = TABLE_BY_NAME.get('events') as TableSpec;
    for (const key of events) {
      const event = this.cacheOf('events').get(key) as Doc;
      const source = event.source as [string, string] | undefined;
      if (source) {
        const [top, k] = source;
        const writtenHere = versions.of(top);
        const written = writtenHere.has(k) ? writtenHere.get(k) : this.currentVersion(TABLE_BY_NAME.get(top) as TableSpec, k);
        event.version = written?.version;
        // The version the event refers to is kept for it (the record's row moves on).
        if (written) this.db.run('INSERT OR IGNORE INTO versions (top, k, version, doc) VALUES (?, ?, ?, ?)', top, k, written.version, versionText(written.table, written.doc, this.db.ids));
      }
      this.writeItem(table, key);
      this.settle('events', key);
    }
    if (events.length > 0) this.trimEvents();
    this.writeValues();
  }

  /**
   * Writes the top-level values that differ from what is stored: the ones `changes` listed, and
   * the count of ids if an event made after them (`mint`) moved it on.
   */
  private writeValues(): void {
    for (const [name, held] of this.meta) {
      const text = held.value === undefined ? undefined : JSON.stringify(held.value);
      if (text === held.text) continue;
      this.db.setMeta(name, text);
      held.text = text;
    }
  }

  /**
   * A new id of this database (id-codes.ts): the next of its numbers, counted in `meta` inside
   * the change, so two processes never make the same one; the count outlives a reset, so an id is
   * never made twice by one database.
   */
  mint(): string {
    // Counted by the change that makes it: a session that writes nothing would make it again.
    if (!this.writing) throw new Error('a sandbox id is made only inside a change');
    const n = ((this.value(ID_COUNT) as number | undefined) ?? 0) + 1;
    this.setValue(ID_COUNT, n);
    this.firstMinted ??= n;
    return this.db.ids.make(n);
  }

  /** Whether `key` is an id this session made: nothing is stored under it yet. */
  private mintedHere(table: TableSpec, key: string): boolean {
    if (this.firstMinted === undefined || table.key !== 'TEXT') return false;
    const n = this.db.ids.code(key);
    return typeof n === 'number' && n >= this.firstMinted;
  }

  /** The version a stored record is at, with its document. */
  private currentVersion(table: TableSpec, key: string): Written | undefined {
    const row = this.db.get<Row>(`SELECT * FROM ${table.name} WHERE k = ?`, storedKey(table, key, this.db.ids));
    return row ? { table, version: row.version as number, doc: docOf(table, row, this.db.ids) } : undefined;
  }

  /**
   * Lets go of a record just written: read again, it comes from the database as written. Keeping
   * it instead would mean a copy of its JSON to compare the next change with, which a long run
   * (generating sales) would make for every record and never use.
   */
  private settle(top: string, key: string): void {
    this.loaded.get(top)?.delete(key);
    const records = this.before.of(top);
    const touched = records.get(key);
    if (touched) {
      touched.settled = true;
      records.delete(key);
    }
  }

  /** Keeps the newest `eventLimits.keep` events once there are `slack` more than that. */
  private trimEvents(): void {
    const range = this.db.keyRange('events');
    if (!range || range.last - range.first + 1 <= eventLimits.keep + eventLimits.slack) return;
    const below = range.last - eventLimits.keep + 1;
    const refs = this.db.all<{ src_top: string | null; src_key: string | null; src_version: number | null }>(
      'SELECT DISTINCT src_top, src_key, src_version FROM events WHERE k < ? AND src_top IS NOT NULL',
      below,
    );
    this.db.run('DELETE FROM events WHERE k < ?', below);
    this.db.noteRemoved('events');
    for (const ref of refs) {
      this.db.run(
        'DELETE FROM versions WHERE top = ? AND k = ? AND version = ? AND NOT EXISTS (SELECT 1 FROM events WHERE src_top = ? AND src_key = ? AND src_version = ?)',
        ref.src_top,
        ref.src_key,
        ref.src_version,
        ref.src_top,
        ref.src_key,
        ref.src_version,
      );
    }
  }

  /**
   * Forgets the records loaded, so a long run (generating sales) holds only what its next step
   * needs. Inside a write transaction nobody else changes anything, so the few top-level values
   * and the lengths of the lists stay known.
   */
  forget(): void {
    this.loaded.clear();
    this.before.clear();
    this.touched = [];
    this.versionsOf.clear();
  }

  private forgetAll(): void {
    this.forget();
    this.firstMinted = undefined;
    this.lengths.clear();
    this.storedEnds.clear();
    this.meta.clear();
  }

  // --- whole states -------------------------------------------------------------------------------

  /** Replaces everything stored with `state` (seeding, a reset, tests). */
  replaceAll(state: object): void {
    for (const table of TABLES) this.db.run(`DELETE FROM ${table.name}`);
    this.db.run('DELETE FROM versions');
    this.db.run(`DELETE FROM meta WHERE name NOT IN (${OUTSIDE_STATE.map((name) => `'${name}'`).join(', ')})`);
    this.db.forgetKept();
    this.forgetAll();
    for (const [top, value] of Object.entries(state as unknown as Doc)) {
      const table = TABLE_BY_NAME.get(top);
      if (!table) {
        if (value !== undefined) this.db.run('INSERT INTO meta (name, doc) VALUES (?, ?)', top, JSON.stringify(value));
        continue;
      }
      for (const [key, doc] of Object.entries((value ?? {}) as Doc)) {
        if (doc === undefined || doc === null) continue;
        this.cacheOf(top).set(key, doc as Doc);
        this.writeItem(table, key);
      }
    }
    this.forgetAll();
  }

  /** Everything stored, as one plain state: for tests and tools, never for a request. */
  exportAll(): Doc {
    const state: Doc = {};
    for (const row of this.db.all<{ name: string; doc: string }>('SELECT name, doc FROM meta')) {
      if (!OUTSIDE_STATE.includes(row.name)) state[row.name] = JSON.parse(row.doc);
    }
    for (const table of TABLES) {
      const rows = this.db.all<Row>(`SELECT * FROM ${table.name} ORDER BY k`);
      const collection: Doc | unknown[] = table.key === 'INTEGER' ? [] : {};
      for (const row of rows) (collection as Record<string, unknown>)[keyOfRow(table, row.k, this.db.ids)] = docOf(table, row, this.db.ids);
      state[table.name] = collection;
    }
    return state;
  }
}

