import { chmodSync, closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { DirError, ensureDir } from '../../platform/dirs.js';
import { sandboxDir } from '../paths.js';
import { openSqlite, SqliteUnavailableError, type SqlDatabase, type SqlStatement, type SqlValue } from '../../platform/sqlite.js';
import { SandboxError } from '../errors.js';
import { IdCodes, newSalt } from './id-codes.js';
import { DB_FORMAT, schemaSql } from './schema.js';

// One SQLite database per state directory, opened once per process and kept open. Several
// processes may use it at once (every command starts its own in-process sandbox, next to any
// `sandbox serve`): WAL lets readers go on while one writer writes, and a change takes the write
// lock with BEGIN IMMEDIATE, waiting up to the busy timeout for another process's change to end.

export const DB_NAME = 'sandbox.db';

// Negative: in KiB, not pages.
const NORMAL_CACHE = -16_000;
const LARGE_CACHE = -65_536;

const PAGE_SIZE = 2048;
const CHECKPOINT_BYTES = 64 << 20;

/** How long a change waits for another process's change before answering 503. */
const BUSY_TIMEOUT_MS = 10_000;

let connections = 0;

export class SandboxDb {
  private readonly statements = new Map<string, SqlStatement>();
  /** 'read' while a read transaction is open; it ends when the current task does. */
  private open: 'read' | 'write' | undefined;
  private writes = 0;
  /** Tells this connection's marks from those of an earlier one to the same file. */
  private readonly connection = (connections += 1);
  /**
   * The `meta` rows (the clock, the seller, the payout date…) as their JSON text, once read: every
   * request reads several, and a refund read five per change. Kept while no other process has
   * committed (SQLite's data_version, checked as each transaction begins), written through by
   * this connection's own changes, and dropped whole when a change of this connection is rolled
   * back (then what it wrote is not what is stored).
   */
  private readonly metaTexts = new Map<string, string | undefined>();
  /** Each list table's first and last position, kept the same way (a change appends an event and a balance entry, and read both ends of each first). */
  private readonly ranges = new Map<string, { first: number; last: number } | undefined>();
  /** Whether a table holds no row, kept the same way: every card sale looks for tokens of its card, which most sandboxes have none of. */
  private readonly empties = new Map<string, boolean>();
  private dataVersion: number | undefined;
  /** How this database keeps ids (id-codes.ts): made from its salt as it is opened (openOnce). */
  ids!: IdCodes;

  constructor(
    readonly file: string,
    private readonly sql: SqlDatabase,
  ) {}

  prepare(sql: string): SqlStatement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.sql.prepare(sql)));
    return statement;
  }

  all<T>(sql: string, ...params: SqlValue[]): T[] {
    this.beginRead();
    return this.prepare(sql).all(...params) as T[];
  }

  get<T>(sql: string, ...params: SqlValue[]): T | undefined {
    this.beginRead();
    return this.prepare(sql).get(...params) as T | undefined;
  }

  run(sql: string, ...params: SqlValue[]): void {
    this.prepare(sql).run(...params);
  }

  /**
   * Reads outside a change share one snapshot until the current task ends: a request's lookups,
   * made one after another in one synchronous handler, see one state, not a mix of two.
   */
  private beginRead(): void {
    if (this.open) return;
    this.sql.exec('BEGIN');
    this.open = 'read';
    queueMicrotask(() => this.endRead());
    // A deferred BEGIN takes its snapshot at the first read: taken here, so that data_version
    // speaks of the snapshot this transaction reads.
    this.prepare('SELECT 1 FROM meta LIMIT 1').get();
    this.noteOtherWriters();
  }

  /** Drops what is kept from the tables when another process has committed since it was read. */
  private noteOtherWriters(): void {
    const version = (this.prepare('PRAGMA data_version').get() as { data_version: number } | undefined)?.data_version;
    if (version !== this.dataVersion) this.forgetKept();
    this.dataVersion = version;
  }

  /** A `meta` row's JSON text (undefined when there is none), read once while it cannot have changed. */
  metaText(name: string): string | undefined {
    this.beginRead();
    if (this.metaTexts.has(name)) return this.metaTexts.get(name);
    const text = (this.prepare('SELECT doc FROM meta WHERE name = ?').get(name) as { doc: string } | undefined)?.doc;
    this.metaTexts.set(name, text);
    return text;
  }

  /** Forgets every kept `meta` row, list range and empty table: for a change that rewrites tables whole (replacing the state, trimming events). */
  forgetKept(): void {
    this.metaTexts.clear();
    this.ranges.clear();
    this.empties.clear();
  }

  /** Whether `table` holds no row, asked once while it cannot have changed. */
  isEmpty(table: string): boolean {
    this.beginRead();
    let empty = this.empties.get(table);
    if (empty === undefined) this.empties.set(table, (empty = this.get(`SELECT 1 AS one FROM ${table} LIMIT 1`) === undefined));
    return empty;
  }

  /** Notes a row inserted into `table` (at position `k` of a list table), so what is kept of it stays true. */
  noteInserted(table: string, k?: number): void {
    this.empties.set(table, false);
    if (k === undefined || !this.ranges.has(table)) return;
    const range = this.ranges.get(table);
    if (!range) {
      this.ranges.set(table, { first: k, last: k });
      return;
    }
    // In place: a generated volume inserts rows by the hundred thousand.
    range.first = Math.min(range.first, k);
    range.last = Math.max(range.last, k);
  }

  /** Notes rows removed from a list table: its range is read again when next asked. */
  noteRemoved(table: string): void {
    this.ranges.delete(table);
  }

  /** Writes (or, with undefined, removes) a `meta` row, and keeps its text. Inside a change only. */
  setMeta(name: string, text: string | undefined): void {
    if (text === undefined) this.run('DELETE FROM meta WHERE name = ?', name);
    else this.run('INSERT INTO meta (name, doc) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET doc = excluded.doc', name, text);
    this.metaTexts.set(name, text);
  }

  private endRead(): void {
    if (this.open !== 'read') return;
    this.open = undefined;
    this.sql.exec('COMMIT');
  }

  /** Runs `change` in one write transaction: all of it is written, or (when it throws) none. */
  write<T>(change: () => T): T {
    this.endRead();
    if (this.open === 'write') throw new Error('nested sandbox change');
    try {
      this.sql.exec('BEGIN IMMEDIATE');
    } catch (err) {
      if (isBusy(err)) throw busy();
      throw err;
    }
    this.open = 'write';
    this.noteOtherWriters();
    try {
      const result = change();
      this.sql.exec('COMMIT');
      this.writes += 1;
      return result;
    } catch (err) {
      this.forgetKept();
      try {
        this.sql.exec('ROLLBACK');
      } catch {
        // SQLite rolls back on its own after some errors (a full disk); nothing is left to undo.
      }
      if (isBusy(err)) throw busy();
      throw err;
    } finally {
      this.open = undefined;
    }
  }

  /** The document of one version of a record (versions.k is the record's key as text). */
  versionDoc(top: string, key: string | number, version: number): string | undefined {
    return this.get<{ doc: string }>('SELECT doc FROM versions WHERE top = ? AND k = ? AND version = ?', top, String(key), version)?.doc;
  }

  /**
   * The first and last positions of a list table, or undefined when it is empty. Two queries:
   * SQLite answers min() or max() alone from the key's ends, but both at once by a full scan.
   */
  keyRange(table: string): { first: number; last: number } | undefined {
    this.beginRead();
    if (!this.ranges.has(table)) this.ranges.set(table, this.readKeyRange(table));
    const range = this.ranges.get(table);
    // A copy: the kept one moves on as rows are inserted (noteInserted).
    return range && { ...range };
  }

  private readKeyRange(table: string): { first: number; last: number } | undefined {
    const first = this.get<{ k: number | null }>(`SELECT min(k) AS k FROM ${table}`)?.k;
    const last = this.get<{ k: number | null }>(`SELECT max(k) AS k FROM ${table}`)?.k;
    return first === null || first === undefined || last === null || last === undefined ? undefined : { first, last };
  }

  /**
   * Changes whenever the database may have: after a change of this process, or one another
   * process committed (SQLite's data_version). What is derived from the tables (a list's count)
   * may be kept while it stays the same.
   */
  changeMark(): string {
    // The transaction under way has read data_version as it began (noteOtherWriters).
    this.beginRead();
    return `${this.connection}:${this.writes}:${this.dataVersion}`;
  }

  /**
   * Inside a write transaction: runs `change` so that, if it throws, what it wrote is undone and
   * the transaction goes on without it (an SQLite savepoint).
   */
  savepoint<T>(change: () => T): T {
    this.sql.exec('SAVEPOINT change');
    try {
      const result = change();
      this.sql.exec('RELEASE change');
      return result;
    } catch (err) {
      this.forgetKept();
      this.sql.exec('ROLLBACK TO change');
      this.sql.exec('RELEASE change');
      throw err;
    }
  }

  /**
   * Runs `work` with up to 64 MB of pages kept in memory instead of 16: a million-sale generate
   * keeps its indexes' hot pages there (20% faster), while an export, which reads each page once,
   * would only grow its memory with them.
   */
  async largeCache<T>(work: () => Promise<T>): Promise<T> {
    this.sql.exec(`PRAGMA cache_size = ${LARGE_CACHE}`);
    try {
      return await work();
    } finally {
      this.sql.exec(`PRAGMA cache_size = ${NORMAL_CACHE}`);
    }
  }

  /**
   * Rewrites the file with its pages full (VACUUM), then empties the log into it. Rows that grew
   * after they were written (a sale paid, refunded or disputed days later) split full pages into
   * emptier ones, and index entries arrive in no order: a generated volume of 100,000 sales took 7%
   * less space after it. The rowids that lists page by stay as they are: VACUUM renumbers only a
   * table with neither an INTEGER PRIMARY KEY nor an index, and every table here has one or the
   * other. Nothing is lost without it: when another process holds the database too long or the
   * disk has no room for the copy, the file stays as it was.
   */
  compact(): void {
    this.endRead();
    try {
      this.sql.exec('VACUUM');
      // In WAL mode the rewritten file goes through the log: moved into the file now, and the log
      // emptied, rather than left as large as the database until the last connection closes.
      this.sql.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    } catch (err) {
      // Not compacted when another process holds the database or the disk has no room for the
      // copy: every change stays as committed. Anything else (a damaged file) is said, not hidden.
      if (!isBusy(err) && !isFull(err)) throw err;
    }
  }

  close(): void {
    this.endRead();
    this.statements.clear();
    this.sql.close();
  }
}

/** An SQLite error's code and message, to tell its kind by. */
const errorText = (err: unknown) => `${(err as { code?: unknown }).code ?? ''} ${(err as Error).message ?? ''}`;

const isBusy = (err: unknown) => /SQLITE_BUSY|database is locked/i.test(errorText(err));

const isFull = (err: unknown) => /SQLITE_FULL|database or disk is full/i.test(errorText(err));

function busy(): SandboxError {
  return new SandboxError(503, 'server_api_error', 'The sandbox state is busy with another process; try again.', { headers: { 'Retry-After': '1' } });
}

const opened = new Map<string, Promise<SandboxDb>>();

/**
 * Opens the database, waiting out other processes opening it at the same moment: switching a new
 * database to WAL takes a lock that SQLite does not wait for (its busy timeout does not apply), so
 * four processes starting on a fresh sandbox at once saw "database is locked".
 */
async function openAt(dir: string): Promise<SandboxDb> {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      return await openOnce(dir);
    } catch (err) {
      const locked = isBusy(err) || (err instanceof SandboxError && err.httpStatus === 503);
      if (!locked || Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40));
    }
  }
}

async function openOnce(dir: string): Promise<SandboxDb> {
  ensureDir(dir, 'state directory');
  // mkdir's mode does not apply to a directory that already existed.
  chmodSync(dir, 0o700);
  const file = path.join(dir, DB_NAME);
  // Made 0600 before SQLite opens it: SQLite gives its -wal and -shm files the database's mode.
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
  const sql = await openSqlite(file);
  try {
    sql.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // 2 KB pages, for a new database only (an existing one keeps its own): a change touches a
    // dozen index entries scattered over the file, and smaller pages mean less to read into the
    // cache and write to the log for each of them. Measured on 10,000 refunds against `sandbox
    // serve`: 2 KB answered 15% more refunds per second than SQLite's default 4 KB; 1 KB a few
    // percent more again, but it made generating sales 16% slower (2 KB: 3%).
    sql.exec(`PRAGMA page_size = ${PAGE_SIZE}`);
    sql.exec('PRAGMA journal_mode = WAL');
    // In WAL mode NORMAL loses at most the last changes on a power cut, never consistency; the
    // sandbox does not promise to outlive the machine losing power.
    sql.exec('PRAGMA synchronous = NORMAL');
    // Up to 16 MB of pages kept in memory (filled only as pages are read); a long run of writes
    // raises it for its own time (largeCache).
    sql.exec(`PRAGMA cache_size = ${NORMAL_CACHE}`);
    // Checkpoints every 64 MB of log rather than 4 MB: each ends in a sync, and generating a
    // million sales made hundreds of them. Counted in pages, which are 4 KB in older databases.
    const pageSize = (sql.prepare('PRAGMA page_size').get() as { page_size: number }).page_size;
    sql.exec(`PRAGMA wal_autocheckpoint = ${Math.round(CHECKPOINT_BYTES / pageSize)}`);
    const db = new SandboxDb(file, sql);
    const replaced = db.write(() => {
      const other = otherFormat(sql);
      if (other !== undefined) dropTables(sql);
      sql.exec(schemaSql());
      if (!db.get("SELECT doc FROM meta WHERE name = 'format'")) db.run("INSERT INTO meta (name, doc) VALUES ('format', ?)", String(DB_FORMAT));
      // The salt of the ids this database makes: set once, kept across resets (session.ts replaceAll).
      db.run("INSERT OR IGNORE INTO meta (name, doc) VALUES ('id_salt', ?)", String(newSalt()));
      db.ids = new IdCodes(Number(db.get<{ doc: string }>("SELECT doc FROM meta WHERE name = 'id_salt'")?.doc));
      return other;
    });
    if (replaced !== undefined) {
      try {
        // What the dropped tables held goes back to the file system; another process reading
        // the file at that moment only means the space is reused instead.
        sql.exec('VACUUM');
      } catch {
        // Nothing is lost without it.
      }
      notice(`the sandbox database ${file} was of another payctl build (format ${replaced}, this one uses ${DB_FORMAT}); it was recreated with a fresh seed`);
    }
    return db;
  } catch (err) {
    sql.close();
    throw err;
  }
}

/**
 * The format of a database made by another build of payctl, or undefined for this build's or a new
 * one. Every build so far wrote its format in `meta`; tables without it are another build's too.
 */
function otherFormat(sql: SqlDatabase): string | undefined {
  const tables = (sql.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string }>).map((t) => t.name);
  if (tables.length === 0) return undefined;
  const format = tables.includes('meta') ? (sql.prepare("SELECT doc FROM meta WHERE name = 'format'").get() as { doc: string } | undefined)?.doc : undefined;
  if (format === String(DB_FORMAT)) return undefined;
  return format ?? 'unknown';
}

function dropTables(sql: SqlDatabase): void {
  const tables = sql.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string }>;
  for (const { name } of tables) sql.exec(`DROP TABLE "${name.replaceAll('"', '""')}"`);
}

/** Where a line for the user goes (a warning on stderr); the embedding command may take it over. */
let notice = (line: string): void => {
  process.stderr.write(`warning: ${line}\n`);
};

/** Sends the sandbox's lines for the user to `report` instead of stderr (a command's own log). */
export function reportSandboxNotices(report: (line: string) => void): void {
  notice = report;
}

/** The database of a state directory, opened (and created) on first use in this process. */
export function openSandboxDb(stateDir: string): Promise<SandboxDb> {
  const dir = sandboxDir(stateDir);
  let db = opened.get(dir);
  if (!db) {
    db = openAt(dir).catch((err: unknown) => {
      opened.delete(dir);
      if (err instanceof SandboxError) throw err;
      // The directory itself cannot be made or written: that, not a damaged database, is the news.
      if (err instanceof DirError) throw new SandboxError(500, 'server_api_error', err.message);
      // Nor is a SQLite that did not load: resetting the sandbox would not help, reinstalling does.
      if (err instanceof SqliteUnavailableError) {
        throw new SandboxError(500, 'server_api_error', `The sandbox cannot open its database in ${dir}: ${err.message}. Its data is untouched; reinstall payctl, or run 'npm rebuild better-sqlite3' where it is installed.`);
      }
      throw new SandboxError(500, 'server_api_error', `The sandbox database in ${dir} is unreadable (${(err as Error).message}); run "payctl sandbox reset" to start over.`);
    });
    opened.set(dir, db);
  }
  return db;
}

/** Closes this process's connection to a state directory's database, if it has one. */
export async function closeSandboxDb(stateDir: string): Promise<void> {
  const dir = sandboxDir(stateDir);
  const db = opened.get(dir);
  if (!db) return;
  opened.delete(dir);
  (await db.catch(() => undefined))?.close();
}
