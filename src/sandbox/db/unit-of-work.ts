import type { SqlValue } from '../../platform/sqlite.js';
import type { UnitKey } from '../change-tracking.js';
import type { SandboxState } from '../types.js';
import type { SandboxDb } from './database.js';
import type { Row } from './fields.js';
import { docOf, docOfVersion, rowValues, storedColumns, TABLE_BY_NAME, TABLES, versionText, type Doc, type TableSpec } from './schema.js';

// The state as the handlers know it (types.ts: plain objects and arrays), backed by the database
// and loaded only as far as a request looks: `state.transactions[7]` reads one row, `state.seller`
// one value. What a request loads stays in this unit of work, so reading a record twice gives the
// same object, and a change made to it is what `write` saves (change-tracking.ts says which ones).
//
// Scanning a whole collection (`state.buyers` in Object.values, `state.deliveries.find`) still
// works and loads all of it: fine for the small ones; the large ones (transactions, receivables,
// events, balance entries, transfers) are looked up and listed through queries.ts instead.

const UOW = Symbol('unit of work');

/** How many events are kept: older ones are removed (with the record versions only they refer to). */
export const eventLimits = { keep: 100_000, slack: 10_000 };

type Absent = undefined;

function rowKey(table: TableSpec, key: string | number): SqlValue {
  return table.key === 'INTEGER' ? Number(key) : String(key);
}

const statements = new Map<string, string>();

/** SQL text built once per table (and set of columns), so preparing it is a map lookup. */
function sqlOnce(id: string, build: () => string): string {
  let sql = statements.get(id);
  if (!sql) statements.set(id, (sql = build()));
  return sql;
}

export class UnitOfWork {
  readonly state: SandboxState;
  private readonly loaded = new Map<string, Map<string, Doc | Absent>>();
  private readonly versionsOf = new Map<string, number | undefined>();
  private readonly lengths = new Map<string, number>();
  /**
   * For a list, the position from which on the database holds no row: found with its length, and
   * moved on as rows are inserted. A position past it needs no query (a change appends an event
   * and a balance entry; each looked up there before being written, twice, for nothing).
   */
  private readonly storedEnds = new Map<string, number>();
  private readonly meta = new Map<string, unknown>();
  private readonly collections = new Map<string, object>();

  constructor(readonly db: SandboxDb) {
    this.state = this.root();
  }

  // --- reading ------------------------------------------------------------------------------------

  private cacheOf(top: string): Map<string, Doc | Absent> {
    let cache = this.loaded.get(top);
    if (!cache) this.loaded.set(top, (cache = new Map()));
    return cache;
  }

  /** One record, from this unit's cache or the database; undefined when there is none. */
  item(top: string, key: string): Doc | Absent {
    const cache = this.cacheOf(top);
    if (cache.has(key)) return cache.get(key);
    const table = TABLE_BY_NAME.get(top) as TableSpec;
    let doc: Doc | Absent;
    if (this.pastStoredEnd(table, key)) {
      doc = undefined;
    } else if (table.versioned) {
      // Two lookups, not a join: without statistics SQLite may walk every version of the table
      // for a join instead of finding the one row by its key.
      const version = this.storedVersion(table, key);
      const text = version === undefined ? undefined : this.db.versionDoc(top, key, version);
      doc = text === undefined ? undefined : docOfVersion(table, text);
    } else {
      const row = this.db.get<Row>(`SELECT * FROM ${top} WHERE k = ?`, rowKey(table, key));
      doc = row ? docOf(table, row) : undefined;
    }
    cache.set(key, doc);
    return doc;
  }

  /** Adopts documents a query already read, so reading them again through the state costs nothing. */
  adopt(top: string, rows: Array<{ k: string | number; doc: Doc; version?: number }>): void {
    const cache = this.cacheOf(top);
    for (const row of rows) {
      const key = String(row.k);
      if (cache.has(key)) continue;
      cache.set(key, row.doc);
      if (row.version !== undefined) this.versionsOf.set(`${top}/${key}`, row.version);
    }
  }

  private length(top: string): number {
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

  private keys(top: string): string[] {
    const stored = this.db.all<{ k: string | number }>(`SELECT k FROM ${top} ORDER BY rowid`).map((r) => String(r.k));
    const cache = this.cacheOf(top);
    const keys = stored.filter((k) => !cache.has(k) || cache.get(k) !== undefined);
    for (const [k, v] of cache) if (v !== undefined && !keys.includes(k)) keys.push(k);
    return keys;
  }

  private metaValue(name: string): unknown {
    if (this.meta.has(name)) return this.meta.get(name);
    const text = this.db.metaText(name);
    const value = text === undefined ? undefined : JSON.parse(text);
    this.meta.set(name, value);
    return value;
  }

  // --- the state as objects -----------------------------------------------------------------------

  private root(): SandboxState {
    const refuse = (top: string) => {
      throw new Error(`the sandbox's ${top} cannot be replaced whole`);
    };
    return new Proxy({} as Record<string | symbol, unknown>, {
      get: (_t, prop) => {
        if (prop === UOW) return this;
        if (typeof prop === 'symbol') return undefined;
        if (TABLE_BY_NAME.has(prop)) return this.collection(prop);
        return this.metaValue(prop);
      },
      set: (_t, prop, value) => {
        if (typeof prop === 'symbol' || TABLE_BY_NAME.has(prop)) refuse(String(prop));
        this.meta.set(prop as string, value);
        return true;
      },
      deleteProperty: (_t, prop) => {
        if (typeof prop === 'symbol' || TABLE_BY_NAME.has(prop)) refuse(String(prop));
        this.meta.set(prop as string, undefined);
        return true;
      },
      has: (_t, prop) => typeof prop === 'string' && (TABLE_BY_NAME.has(prop) || this.metaValue(prop) !== undefined),
    }) as unknown as SandboxState;
  }

  private collection(top: string): object {
    const existing = this.collections.get(top);
    if (existing) return existing;
    const table = TABLE_BY_NAME.get(top) as TableSpec;
    const list = table.key === 'INTEGER';
    const isIndex = (prop: string) => /^(0|[1-9]\d*)$/.test(prop);
    const describe = (value: unknown) => ({ value, writable: true, enumerable: true, configurable: true });
    const proxy = new Proxy(list ? [] : {}, {
      get: (target, prop, receiver) => {
        if (typeof prop === 'symbol') return Reflect.get(target, prop, receiver);
        if (list && prop === 'length') return this.length(top);
        if (list && !isIndex(prop)) return Reflect.get(target, prop, receiver);
        return this.item(top, prop);
      },
      set: (_target, prop, value) => {
        if (typeof prop === 'symbol') throw new Error(`the sandbox's ${top} takes no symbols`);
        if (list && prop === 'length') {
          if ((value as number) < this.length(top)) throw new Error(`the sandbox's ${top} only grows`);
          this.lengths.set(top, value as number);
          return true;
        }
        if (list && !isIndex(prop)) throw new Error(`the sandbox's ${top} takes positions, not ${prop}`);
        this.cacheOf(top).set(prop, value as Doc);
        if (list) this.lengths.set(top, Math.max(this.length(top), Number(prop) + 1));
        return true;
      },
      deleteProperty: (_target, prop) => {
        if (list || typeof prop === 'symbol') throw new Error(`the sandbox's ${top} only grows`);
        this.cacheOf(top).set(prop, undefined);
        return true;
      },
      has: (target, prop) => {
        if (typeof prop === 'symbol' || (list && !isIndex(prop))) return Reflect.has(target, prop);
        return this.item(top, prop) !== undefined;
      },
      ownKeys: () => (list ? [...this.keys(top), 'length'] : this.keys(top)),
      getOwnPropertyDescriptor: (target, prop) => {
        if (typeof prop === 'symbol') return undefined;
        if (list && prop === 'length') return { ...Reflect.getOwnPropertyDescriptor(target, 'length'), value: this.length(top) };
        const value = this.item(top, prop);
        return value === undefined ? undefined : describe(value);
      },
      defineProperty: () => {
        throw new Error(`the sandbox's ${top} takes plain assignments only`);
      },
    });
    this.collections.set(top, proxy);
    return proxy;
  }

  // --- writing ------------------------------------------------------------------------------------

  /** The version a record of a versioned table is at now (undefined when it is not stored). */
  private storedVersion(table: TableSpec, key: string): number | undefined {
    const id = `${table.name}/${key}`;
    if (!this.versionsOf.has(id)) {
      if (this.pastStoredEnd(table, key)) return undefined;
      const row = this.db.get<{ version: number }>(`SELECT version FROM ${table.name} WHERE k = ?`, rowKey(table, key));
      this.versionsOf.set(id, row?.version);
    }
    return this.versionsOf.get(id);
  }

  /**
   * Inserts or updates one row. An update sets only the columns whose value changed: SQLite
   * rewrites every index of a column it is told to set, and a refund changes one indexed field of
   * eight; the pages that saves are most of what a change writes.
   */
  private putRow(table: TableSpec, key: string, doc: Doc, version?: number): void {
    const names = storedColumns(table);
    const values = rowValues(table, doc, version);
    const k = rowKey(table, key);
    const old = this.pastStoredEnd(table, key)
      ? undefined
      : this.db.get<Record<string, SqlValue>>(sqlOnce(`${table.name}:old`, () => `SELECT ${['k', ...names].join(', ')} FROM ${table.name} WHERE k = ?`), k);
    if (!old) {
      const sql = sqlOnce(`${table.name}:insert`, () => `INSERT INTO ${table.name} (k, ${names.join(', ')}) VALUES (${['?', ...names.map(() => '?')].join(', ')})`);
      this.db.run(sql, k, ...values);
      if (typeof k === 'number') this.db.noteInserted(table.name, k);
      this.storedAt(table, key);
      return;
    }
    const changed = names.map((name, i) => [name, values[i] as SqlValue] as const).filter(([name, value]) => old[name] !== value);
    if (changed.length === 0) return;
    const sets = changed.map(([name]) => name);
    const sql = sqlOnce(`${table.name}:update:${sets.join(',')}`, () => `UPDATE ${table.name} SET ${sets.map((n) => `${n} = ?`).join(', ')} WHERE k = ?`);
    this.db.run(sql, ...changed.map(([, value]) => value), k);
  }

  /** Removes a record's row; the table's kept key range is read again when next asked. */
  private deleteRow(table: TableSpec, key: string): void {
    this.db.run(`DELETE FROM ${table.name} WHERE k = ?`, rowKey(table, key));
    this.db.noteRemoved(table.name);
  }

  /** Writes one record as it stands in this unit (or removes it); returns its version, if it has one. */
  private writeItem(table: TableSpec, key: string): number | undefined {
    const doc = this.cacheOf(table.name).get(key);
    if (!table.versioned) {
      if (doc === undefined) this.deleteRow(table, key);
      else this.putRow(table, key, doc);
      return undefined;
    }
    const before = this.storedVersion(table, key);
    if (doc === undefined) {
      // The version it was removed at stays while the event of its removal refers to it.
      this.deleteRow(table, key);
      return before;
    }
    const version = (before ?? 0) + 1;
    this.db.run('INSERT INTO versions (top, k, version, doc) VALUES (?, ?, ?, ?)', table.name, key, version, versionText(table, doc));
    this.putRow(table, key, doc, version);
    if (before !== undefined) {
      this.db.run(
        'DELETE FROM versions WHERE top = ? AND k = ? AND version = ? AND NOT EXISTS (SELECT 1 FROM events WHERE src_top = ? AND src_key = ? AND src_version = ?)',
        table.name,
        key,
        before,
        table.name,
        key,
        before,
      );
    }
    this.versionsOf.set(`${table.name}/${key}`, version);
    return version;
  }

  /** Saves the units a mutation changed (change-tracking.ts). Called inside the database's write transaction. */
  write(units: UnitKey[]): void {
    const versions = new Map<string, number | undefined>();
    const events: string[] = [];
    for (const [top, key] of units) {
      if (key === undefined) {
        if (TABLE_BY_NAME.has(top)) throw new Error(`the sandbox's ${top} cannot be replaced whole`);
        const value = this.meta.get(top);
        this.db.setMeta(top, value === undefined ? undefined : JSON.stringify(value));
        continue;
      }
      if (top === 'events') {
        events.push(key);
        continue;
      }
      versions.set(`${top}/${key}`, this.writeItem(TABLE_BY_NAME.get(top) as TableSpec, key));
    }
    if (events.length === 0) return;
    const table = TABLE_BY_NAME.get('events') as TableSpec;
    for (const key of events) {
      const event = this.cacheOf('events').get(key) as Doc;
      const source = event.source as [string, string] | undefined;
      if (source) {
        const id = `${source[0]}/${source[1]}`;
        event.version = versions.has(id) ? versions.get(id) : this.storedVersion(TABLE_BY_NAME.get(source[0]) as TableSpec, source[1]);
      }
      this.writeItem(table, key);
    }
    this.trimEvents();
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
      const table = TABLE_BY_NAME.get(ref.src_top as string);
      if (!table?.versioned) continue;
      const key = rowKey(table, ref.src_key as string);
      this.db.run(
        `DELETE FROM versions WHERE top = ? AND k = ? AND version = ?
           AND NOT EXISTS (SELECT 1 FROM ${table.name} WHERE k = ? AND version = ?)
           AND NOT EXISTS (SELECT 1 FROM events WHERE src_top = ? AND src_key = ? AND src_version = ?)`,
        table.name,
        ref.src_key,
        ref.src_version,
        key,
        ref.src_version,
        table.name,
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
    this.versionsOf.clear();
  }

  private forgetAll(): void {
    this.forget();
    this.lengths.clear();
    this.storedEnds.clear();
    this.meta.clear();
  }

  // --- whole states -------------------------------------------------------------------------------

  /** Replaces everything stored with `state` (seeding, an upgrade from the old files, tests). */
  replaceAll(state: SandboxState): void {
    for (const table of TABLES) this.db.run(`DELETE FROM ${table.name}`);
    this.db.run('DELETE FROM versions');
    this.db.run("DELETE FROM meta WHERE name <> 'format'");
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
  exportAll(): SandboxState {
    const state: Doc = {};
    for (const row of this.db.all<{ name: string; doc: string }>('SELECT name, doc FROM meta')) {
      if (row.name !== 'format') state[row.name] = JSON.parse(row.doc);
    }
    for (const table of TABLES) {
      const rows = table.versioned
        ? this.db.all<{ k: string | number; doc: string }>(
            `SELECT t.k, v.doc FROM ${table.name} t JOIN versions v ON v.top = '${table.name}' AND v.k = CAST(t.k AS TEXT) AND v.version = t.version ORDER BY t.k`,
          )
        : this.db.all<Row>(`SELECT * FROM ${table.name} ORDER BY k`);
      const collection: Doc | unknown[] = table.key === 'INTEGER' ? [] : {};
      for (const row of rows) (collection as Record<string, unknown>)[String(row.k)] = table.versioned ? docOfVersion(table, String(row.doc)) : docOf(table, row);
      state[table.name] = collection;
    }
    return state as unknown as SandboxState;
  }
}

/** The unit of work behind a state handed to a handler (through change tracking or not). */
export function unitOf(state: SandboxState): UnitOfWork {
  const uow = (state as unknown as Record<symbol, unknown>)[UOW];
  if (!(uow instanceof UnitOfWork)) throw new Error('not a sandbox state backed by its database');
  return uow;
}
