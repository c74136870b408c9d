// The ledger on this machine: one SQLite file in the state directory (ledger/ledger.sqlite, mode
// 0600), holding every account's intents by scope. SQLite is here for its locking: a group of
// writes is one IMMEDIATE transaction, so "is the lock free, expired or its holder dead? then it
// is mine" happens atomically across processes, and a process that dies mid-write leaves nothing
// half-written.
import { chmodSync, closeSync, openSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { dirError, ensureDir } from '../platform/dirs.js';
export { sqliteLedgerPath } from '../config/paths.js';
import { CliError, ExitCode } from '../errors.js';
import { BUSY, LedgerFileError, LedgerMissing, missingTables, sqliteTrouble } from './errors.js';
import { holderAlive } from '../platform/owner.js';
import { newIdentity } from './types.js';
import { INTENT_COLUMNS, LEDGER_TABLES, newerSchema, onlyWhatIsMissing, SCHEMA_VERSION, SQLITE_MIGRATIONS } from './schema.js';
import { intentFromRow, lockFromRow, newIntentRow } from './rows.js';
import { openSqlite, type SqlDatabase, type SqlStatement, type SqlValue } from '../platform/sqlite.js';
import type { ClaimRequest, ClaimResult, GroupOutcome, Identity, Intent, IntentFilter, IntentPage, LedgerSql, LedgerStore, Lock, NewIntent, WriteGroup } from './types.js';

/**
 * Writes to one file one after another, in this process: a transaction of `transact` spans awaits,
 * and no other write may begin meanwhile, on this connection (it would land inside it) or on
 * another one to the same file (its wait for the lock would block the thread holding it).
 */
const writesByFile = new Map<string, Promise<unknown>>();

export class SqliteStore implements LedgerStore {
  readonly kind = 'sqlite';
  readonly clockOffset = 0;
  /** Statements compiled once: a bulk run makes several ledger writes per row. */
  private readonly statements = new Map<string, SqlStatement>();

  /** The file as opened: one deleted, emptied or put in its place while in use is told by vanished(). */
  private opened: Stats | undefined;

  private constructor(
    readonly where: string,
    private readonly db: SqlDatabase,
    private readonly scope: string,
    private readonly scrub: (text: string) => string,
  ) {}

  /**
   * Opens (and, with `create`, makes) the ledger in `file`. Without `create` (a ledger this
   * operator used before), a file without the ledger's tables or its identity is LedgerMissing.
   */
  static async open(file: string, scope: string, scrub: (text: string) => string, create = true): Promise<SqliteStore> {
    ensureDir(path.dirname(file), 'state directory');
    try {
      // Created 0600 before SQLite opens it; SQLite gives its -wal and -shm files the same mode.
      closeSync(openSync(file, 'a', 0o600));
      chmodSync(file, 0o600);
    } catch (err) {
      throw dirError('ledger', file, err);
    }
    let db: SqlDatabase;
    try {
      db = await openSqlite(file);
    } catch (err) {
      // better-sqlite3 is native: built for one Node.js version and platform. Nothing is sent without it.
      throw new CliError(
        `cannot open the ledger of money moves: SQLite did not load (${(err as Error).message.split('\n')[0]}); nothing was sent. Reinstall payctl, or run 'npm rebuild better-sqlite3' where it is installed`,
        ExitCode.internal,
        { cause: err },
      );
    }
    const store = new SqliteStore(file, db, scope, scrub);
    try {
      store.fileCall(() => {
        // Another process may hold the write lock for a moment: wait for it rather than fail.
        db.exec('PRAGMA busy_timeout = 15000');
        // WAL: readers never wait for the writer. NORMAL: a commit survives the process being
        // killed (what this ledger is for); only a power cut may lose the last commits.
        db.exec('PRAGMA journal_mode = WAL');
        db.exec('PRAGMA synchronous = NORMAL');
        // The log folded back into the file every 200 pages (800 KB, not SQLite's 4 MB) and cut
        // back after: the ledger's writes are small, and a nearly full disk should hold a batch.
        db.exec('PRAGMA wal_autocheckpoint = 200');
        db.exec('PRAGMA journal_size_limit = 1048576');
        store.migrate(create);
      });
      store.opened = statSync(file);
    } catch (err) {
      db.close();
      throw err;
    }
    return store;
  }

  /** Which ledger this is (made once, with its tables), and since when it keeps moves. */
  ledgerId = '';
  since = 0;

  private migrate(create: boolean): void {
    this.immediately(() => {
      const present = new Set((this.sql("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((r) => r.name));
      const missing = LEDGER_TABLES.filter((name) => !present.has(name));
      if (!create && missing.length > 0) throw new LedgerMissing(`${missingTables(missing)} (dropped, or another file put in its place)`);
      if (create) this.db.exec('CREATE TABLE IF NOT EXISTS payctl_schema (version INTEGER NOT NULL)');
      const { version } = this.sql('SELECT coalesce(max(version), 0) AS version FROM payctl_schema').get() as { version: number };
      if (version > SCHEMA_VERSION) throw new CliError(newerSchema(this.where, version), ExitCode.usage);
      if (!create && version === 0) throw new LedgerMissing('was emptied (payctl_schema holds no version)');
      const repaired = version > 0 && missing.length > 0;
      if (repaired) {
        for (const migration of SQLITE_MIGRATIONS.slice(0, version)) this.db.exec(onlyWhatIsMissing(migration));
        this.db.exec('DELETE FROM payctl_meta');
      }
      for (let next = version + 1; next <= SCHEMA_VERSION; next += 1) {
        this.db.exec(SQLITE_MIGRATIONS[next - 1] as string);
        this.sql('INSERT INTO payctl_schema (version) VALUES (?)').run(next);
      }
      if (create) {
        const identity = newIdentity();
        this.sql('INSERT OR IGNORE INTO payctl_meta (name, value) VALUES (?, ?), (?, ?)').run('ledger_id', identity.id, 'since', String(identity.since));
      }
      const rows = this.sql('SELECT name, value FROM payctl_meta').all() as Array<{ name: string; value: string }>;
      this.ledgerId = rows.find((r) => r.name === 'ledger_id')?.value ?? '';
      this.since = Number(rows.find((r) => r.name === 'since')?.value ?? 0);
      if (!this.ledgerId) throw new LedgerMissing('was emptied (its identity in payctl_meta is gone)');
    });
  }

  /**
   * What became of the file since it was opened: deleted, emptied, another put in its place, or
   * damaged under this process (SQLite goes on writing to a deleted file, and keeps what it wrote
   * in its log, so only a look from outside this connection tells). Undefined while it is whole.
   */
  async vanished(): Promise<string | undefined> {
    let now: Stats;
    try {
      now = statSync(this.where);
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'was deleted' : undefined;
    }
    if (this.opened && (now.ino !== this.opened.ino || now.dev !== this.opened.dev)) return 'was replaced by another file';
    if (now.size === 0) return 'was emptied';
    let other: SqlDatabase | undefined;
    try {
      other = await openSqlite(this.where);
      const row = other.prepare("SELECT value FROM payctl_meta WHERE name = 'ledger_id'").get() as { value: string } | undefined;
      if (row?.value !== this.ledgerId) return 'was emptied';
      // Emptied and written back whole from SQLite's log is whole; pages lost with it are damage.
      const check = other.prepare('PRAGMA quick_check').all() as Array<Record<string, string>>;
      const problems = check.map((r) => Object.values(r)[0] as string).filter((text) => text !== 'ok');
      return problems.length === 0 ? undefined : `was damaged (${problems[0]})`;
    } catch (err) {
      const trouble = sqliteTrouble(err);
      // Busy is another process at work in it, not damage.
      if (trouble === BUSY) return undefined;
      return trouble ? `was damaged (${trouble})` : 'was damaged';
    } finally {
      other?.close();
    }
  }

  /** SQLite's own failures (a full disk, a damaged file) as one line naming the file: exit 2, never 1. */
  private fileCall<T>(work: () => T): T {
    try {
      return work();
    } catch (err) {
      const trouble = sqliteTrouble(err);
      if (trouble) throw new LedgerFileError(this.where, trouble, err);
      throw err;
    }
  }

  async hasIntent(id: number, createdAt: number): Promise<boolean> {
    return this.fileCall(() => this.sql('SELECT 1 AS found FROM payctl_intents WHERE id = ? AND created_at = ?').get(id, createdAt) !== undefined);
  }

  async check(): Promise<string[]> {
    return this.fileCall(() => {
      const rows = this.db.prepare('PRAGMA integrity_check').all() as Array<Record<string, string>>;
      const problems = rows.map((r) => Object.values(r)[0] as string).filter((text) => text !== 'ok');
      return problems;
    });
  }

  private sql(text: string): SqlStatement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  /**
   * One write transaction. IMMEDIATE: the write lock is taken before the first read, so no other
   * process can change what was read before this one writes.
   */
  private immediately<T>(work: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    let result: T;
    try {
      result = work();
    } catch (err) {
      // SQLite has rolled back already after some failures (a full disk: SQLITE_FULL); the
      // failure to say is the first one, not "no transaction is active".
      try {
        this.db.exec('ROLLBACK');
      } catch {
        // already rolled back
      }
      throw err;
    }
    this.db.exec('COMMIT');
    return result;
  }

  /** Runs `work` once every write before it on this connection is done. */
  private exclusive<T>(work: () => T | Promise<T>): Promise<T> {
    const run = (writesByFile.get(this.where) ?? Promise.resolve()).then(work);
    const settled = run.catch(() => undefined);
    writesByFile.set(this.where, settled);
    // Forgotten once nothing waits on it: a long-lived process opens many ledgers.
    void settled.then(() => {
      if (writesByFile.get(this.where) === settled) writesByFile.delete(this.where);
    });
    return run;
  }

  transact<T>(work: (sql: LedgerSql, scope: string) => Promise<T>): Promise<T> {
    const sql: LedgerSql = {
      all: async (text, params = []) => this.fileCall(() => this.sql(text).all(...params) as Record<string, unknown>[]),
      run: async (text, params = []) => this.fileCall(() => Number(this.sql(text).run(...params).changes)),
    };
    return this.exclusive(async () => {
      this.fileCall(() => this.db.exec('BEGIN IMMEDIATE'));
      let result: T;
      try {
        result = await work(sql, this.scope);
      } catch (err) {
        try {
          this.db.exec('ROLLBACK');
        } catch {
          // SQLite rolled it back itself (a full disk ends the transaction).
        }
        throw err;
      }
      this.fileCall(() => this.db.exec('COMMIT'));
      return result;
    });
  }

  async apply(group: WriteGroup, me: Identity, now: number, leaseMs: number): Promise<GroupOutcome> {
    return this.exclusive(() => this.fileCall(() => this.immediately(() => {
      for (const change of group.changes) {
        this.sql('UPDATE payctl_intents SET state = ?, detail = ?, proof = ?, settle_until = ?, updated_at = ? WHERE id = ?').run(
          change.state,
          change.detail === null ? null : this.scrub(change.detail),
          change.proof,
          change.settle_until,
          change.updated_at,
          change.id,
        );
      }
      for (const key of group.releases) this.sql('DELETE FROM payctl_locks WHERE scope = ? AND key = ? AND token = ?').run(this.scope, key, me.token);
      const records = group.records.map((intent) => this.insert(intent, me, now));
      const claims = group.claims.map((claim) => this.claim(claim, me, now, leaseMs));
      return { records, claims };
    })));
  }

  private insert(intent: NewIntent, me: Identity, now: number): Intent {
    const row = newIntentRow(this.scope, intent, me, now, this.scrub);
    const { lastInsertRowid } = this.sql(`INSERT INTO payctl_intents (${INTENT_COLUMNS.join(', ')}) VALUES (${INTENT_COLUMNS.map(() => '?').join(', ')})`).run(...INTENT_COLUMNS.map((column) => row[column]));
    return intentFromRow({ ...row, id: lastInsertRowid });
  }

  private claim(request: ClaimRequest, me: Identity, now: number, leaseMs: number): ClaimResult {
    const found = this.sql('SELECT * FROM payctl_locks WHERE scope = ? AND key = ?').get(this.scope, request.key) as Record<string, unknown> | undefined;
    const lock = found && lockFromRow(found);
    if (lock && lock.token !== me.token && lock.expires_at > now && holderAlive(lock, me)) return { ok: false, holder: lock };
    this.sql(
      `INSERT INTO payctl_locks (scope, key, holder, host_id, pid, started, token, since, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (scope, key) DO UPDATE SET holder = excluded.holder, host_id = excluded.host_id, pid = excluded.pid, started = excluded.started,
         token = excluded.token, since = excluded.since, expires_at = excluded.expires_at`,
    ).run(this.scope, request.key, me.holder, me.host_id, me.pid, me.started, me.token, now, now + leaseMs);
    const memory = this.intentsOnKey(request.key);
    const decided = request.decide?.(memory);
    return decided ? { ok: true, memory, intent: this.insert(decided, me, now) } : { ok: true, memory };
  }

  private intentsOnKey(key: string): Intent[] {
    return (this.sql('SELECT * FROM payctl_intents WHERE scope = ? AND key = ? ORDER BY id').all(this.scope, key) as Record<string, unknown>[]).map(intentFromRow);
  }

  async renew(me: Identity, now: number, leaseMs: number): Promise<string[]> {
    return this.exclusive(() =>
      this.fileCall(() =>
        this.immediately(() => {
          this.sql('UPDATE payctl_locks SET expires_at = ? WHERE token = ?').run(now + leaseMs, me.token);
          return (this.sql('SELECT key FROM payctl_locks WHERE scope = ? AND token = ?').all(this.scope, me.token) as Array<{ key: string }>).map((r) => r.key);
        }),
      ),
    );
  }

  async intentsOn(keys: string[]): Promise<Intent[]> {
    return this.fileCall(() => this.intentsOnKeys(keys));
  }

  private intentsOnKeys(keys: string[]): Intent[] {
    const found: Intent[] = [];
    // In slices: SQLite allows some hundreds of parameters in one statement.
    for (let i = 0; i < keys.length; i += 500) {
      const slice = keys.slice(i, i + 500);
      const rows = this.db.prepare(`SELECT * FROM payctl_intents WHERE scope = ? AND key IN (${slice.map(() => '?').join(', ')}) ORDER BY id`).all(this.scope, ...slice);
      found.push(...(rows as Record<string, unknown>[]).map(intentFromRow));
    }
    return found.sort((a, b) => a.id - b.id);
  }

  async unresolvedByFingerprint(fingerprint: string): Promise<Intent | undefined> {
    const row = this.fileCall(() => this.sql(`SELECT * FROM payctl_intents WHERE scope = ? AND fingerprint = ? AND state IN ('pending', 'unknown') ORDER BY id DESC LIMIT 1`).get(this.scope, fingerprint));
    return row ? intentFromRow(row as Record<string, unknown>) : undefined;
  }

  async list(filter: IntentFilter): Promise<Intent[]> {
    const where = ['scope = ?'];
    const params: SqlValue[] = [this.scope];
    if (filter.states?.length) {
      where.push(`state IN (${filter.states.map(() => '?').join(', ')})`);
      params.push(...filter.states);
    }
    if (filter.since !== undefined) {
      where.push('created_at >= ?');
      params.push(filter.since);
    }
    if (filter.key !== undefined) {
      where.push('key = ?');
      params.push(filter.key);
    }
    params.push(filter.limit);
    const rows = this.fileCall(() => this.db.prepare(`SELECT * FROM payctl_intents WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`).all(...params));
    return (rows as Record<string, unknown>[]).map(intentFromRow);
  }

  async page({ after, since, limit }: IntentPage): Promise<Intent[]> {
    const rows = this.fileCall(() =>
      since === undefined
        ? this.sql('SELECT * FROM payctl_intents WHERE scope = ? AND id > ? ORDER BY id LIMIT ?').all(this.scope, after, limit)
        : this.sql('SELECT * FROM payctl_intents WHERE scope = ? AND id > ? AND created_at >= ? ORDER BY id LIMIT ?').all(this.scope, after, since, limit),
    );
    return (rows as Record<string, unknown>[]).map(intentFromRow);
  }

  async locks(key?: string): Promise<Lock[]> {
    const rows = this.fileCall(() => key === undefined ? this.sql('SELECT * FROM payctl_locks WHERE scope = ? ORDER BY since').all(this.scope) : this.sql('SELECT * FROM payctl_locks WHERE scope = ? AND key = ?').all(this.scope, key));
    return (rows as Record<string, unknown>[]).map(lockFromRow);
  }

  async breakLock(key: string): Promise<Lock | undefined> {
    return this.exclusive(() => this.fileCall(() => this.immediately(() => {
      const row = this.sql('SELECT * FROM payctl_locks WHERE scope = ? AND key = ?').get(this.scope, key) as Record<string, unknown> | undefined;
      if (row) this.sql('DELETE FROM payctl_locks WHERE scope = ? AND key = ?').run(this.scope, key);
      return row && lockFromRow(row);
    })));
  }

  async close(): Promise<void> {
    await writesByFile.get(this.where);
    this.db.close();
  }
}
