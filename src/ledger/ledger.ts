// The ledger of money-moving intents: one SQLite file per profile in the state directory
// (ledger/<profile>.sqlite, mode 0600). Every command that moves money writes its intent here
// before the request goes out and resolves it after, and holds a lock on what it moves (a
// transaction, a reference id, an invoice) for as long as the move is in flight, so no two
// payctl processes on this machine ever have the same money move in flight. A run that finds an
// unresolved intent (its process was killed, or its answer was lost) resolves it against the
// service before sending anything new.
//
// SQLite is here for its locking: every claim is one IMMEDIATE transaction, so "is the lock free
// or its owner dead? then it is mine" happens atomically across processes, and a process that
// dies mid-write leaves nothing half-written. It holds ids, amounts, statuses and history ids:
// never card data.
import { chmodSync, closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { maskText } from '../api/mask.js';
import { dirError, ensureDir } from '../config/dirs.js';
import { CliError, ExitCode } from '../errors.js';
import { currentOwner, isAlive, type Owner } from './owner.js';
import { openSqlite, type SqlDatabase, type SqlStatement } from './sqlite.js';

export type IntentState =
  /** Written before sending; the process may have died before, during or after the request. */
  | 'pending'
  /** The service shows it happened. */
  | 'applied'
  /** The service refused it (an error answer), or a check before sending stopped it: nothing moved. */
  | 'refused'
  /** Proven not applied: the connection never opened, or it was not seen within its settle window. */
  | 'not_applied'
  /** Checked, and still cannot tell: the next run checks again before sending. */
  | 'unknown';

export interface Intent {
  id: number;
  key: string;
  operation: string;
  target: string;
  /** The amount the user asked for, or null for "all that remains" / the whole amount. */
  requested_cents: number | null;
  /** The amount sent. */
  amount_cents: number | null;
  /** JSON of what the resource looked like before the first attempt. */
  before: string | null;
  fingerprint: string | null;
  batch: string | null;
  row: number | null;
  state: IntentState;
  detail: string | null;
  created_at: number;
  /** Until when a request of this intent could still land (see settle.ts). */
  settle_until: number | null;
  updated_at: number;
  pid: number;
}

export type NewIntent = Pick<Intent, 'key' | 'operation' | 'target'> &
  Partial<Pick<Intent, 'requested_cents' | 'amount_cents' | 'before' | 'fingerprint' | 'batch' | 'row' | 'settle_until' | 'detail'>> & { state?: IntentState };

export type Claim = { ok: true; intent?: Intent } | { ok: false; holder: Holder };

export interface Holder {
  pid: number;
  since: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS intents (
  id INTEGER PRIMARY KEY,
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  operation TEXT NOT NULL,
  target TEXT NOT NULL,
  requested_cents INTEGER,
  amount_cents INTEGER,
  before TEXT,
  fingerprint TEXT,
  batch TEXT,
  row INTEGER,
  state TEXT NOT NULL,
  detail TEXT,
  created_at INTEGER NOT NULL,
  settle_until INTEGER,
  updated_at INTEGER NOT NULL,
  pid INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS intents_by_key ON intents (scope, key, state);
CREATE INDEX IF NOT EXISTS intents_by_batch ON intents (batch, row);
CREATE INDEX IF NOT EXISTS intents_by_fingerprint ON intents (scope, fingerprint, state);
CREATE TABLE IF NOT EXISTS locks (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  pid INTEGER NOT NULL,
  started TEXT NOT NULL,
  since INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
);
`;

export function ledgerPath(stateDir: string, profile: string): string {
  // A profile name is the user's; keep it from naming a path of its own.
  return path.join(stateDir, 'ledger', `${profile.replace(/[^A-Za-z0-9._-]/g, '_')}.sqlite`);
}

/** How long a claim waits for another write's commit to join before it is committed alone (claimSoon). */
const CLAIM_WAIT_MS = 2;
/**
 * How long a settle waits for other writes to share its commit (settleAndReleaseSoon). A settled
 * row holds no request slot, only its result line, so a moment's wait costs no throughput, and
 * commits are a good part of a bulk run's own work: measured on 3,000 refunds at --concurrency 8,
 * a commit every turn of the event loop made 1,314 commits (4.6 writes each) and took 1.92 s;
 * waiting 2 ms, 1.80 s.
 */
const SETTLE_WAIT_MS = 2;

export class Ledger {
  /** Keys this process holds: a second claim from the same process (another worker) waits too. */
  private readonly held = new Set<string>();
  private readonly owner: Owner = currentOwner();
  /** Statements compiled once: a bulk run makes several ledger writes per row. */
  private readonly statements = new Map<string, SqlStatement>();
  /** The commit of the writes soon() queued: on the next turn, or (for claims only) a moment later. */
  private commitSoon: NodeJS.Immediate | undefined;
  private commitLater: NodeJS.Timeout | undefined;
  /** Writes waiting for the next group commit (soon()). */
  private readonly queued: Array<{ write: () => unknown; undo: () => void; resolve: (value: unknown) => void; reject: (err: unknown) => void }> = [];

  private constructor(
    readonly file: string,
    private readonly db: SqlDatabase,
    /** The service the intents were sent to (the profile's base_url): ids of one are not another's. */
    private readonly scope: string,
    /** Cleans an error message before it is stored: a service may echo card data back in one. */
    private readonly scrub: (text: string) => string,
  ) {}

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
      this.db.exec('ROLLBACK');
      throw err;
    }
    this.db.exec('COMMIT');
    return result;
  }

  static async open(file: string, scope: string, scrub: (text: string) => string = maskText): Promise<Ledger> {
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
    // Another process may hold the write lock for a moment: wait for it rather than fail.
    db.exec('PRAGMA busy_timeout = 15000');
    // WAL: readers never wait for the writer. NORMAL: a commit survives the process being
    // killed (what this ledger is for); only a power cut may lose the last commits.
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec(SCHEMA);
    return new Ledger(file, db, scope, scrub);
  }

  /**
   * Takes the lock on `key` for this process, unless a live process (or another worker of this
   * one) holds it: then says who. A lock left by a dead process is taken over. With `intent`, the
   * intent is written in the same transaction (one commit instead of two, for a batch's rows).
   */
  claim(key: string): { ok: true } | { ok: false; holder: Holder };
  claim(key: string, intent: NewIntent): { ok: true; intent: Intent } | { ok: false; holder: Holder };
  claim(key: string, intent?: NewIntent): Claim {
    if (this.held.has(key)) return this.heldHere();
    const result = this.immediately(() => this.claimWithin(key, intent));
    if (result.ok) this.held.add(key);
    return result;
  }

  /**
   * claim(), committed together with the other claims and settles this process asks for (see
   * soon()). Resolves once committed: nothing may be sent on the strength of a claim before then.
   * A claim is not in a hurry: a batch claims rows well ahead of the requests it has in flight, so
   * it waits up to CLAIM_WAIT_MS for the next settle's commit to take it along rather than costing
   * a commit of its own (a third of a batch's commits, measured at --concurrency 8).
   */
  claimSoon(key: string, intent?: NewIntent): Promise<Claim> {
    let added = false;
    return this.soon(
      () => {
        if (this.held.has(key)) return this.heldHere();
        const result = this.claimWithin(key, intent);
        if (result.ok) {
          this.held.add(key);
          added = true;
        }
        return result;
      },
      () => {
        if (added) this.held.delete(key);
      },
      CLAIM_WAIT_MS,
    );
  }

  /**
   * Resolves the intent and lets go of `key` (the end of a batch row), committed together with
   * other writes like claimSoon(), within SETTLE_WAIT_MS; resolves once committed.
   */
  settleAndReleaseSoon(intent: Intent, state: IntentState, detail: string | undefined, key: string): Promise<void> {
    let released = false;
    return this.soon(
      () => {
        this.resolve(intent, state, detail);
        released = this.held.has(key);
        if (released) this.release(key);
      },
      // Rolled back: the lock's row is still there, and still this process's.
      () => {
        if (released) this.held.add(key);
      },
      SETTLE_WAIT_MS,
    );
  }

  /**
   * A write committed with the others queued before the event loop comes round (or, with `waitMs`,
   * within that long): a bulk run's workers each claim and settle rows, and one commit for all of
   * them instead of one each.
   */
  private soon<T>(write: () => T, undo: () => void, waitMs = 0): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queued.push({ write, undo, resolve: resolve as (value: unknown) => void, reject });
      if (waitMs === 0) {
        if (!this.commitSoon) this.commitSoon = setImmediate(() => this.commitQueued());
      } else if (!this.commitSoon && !this.commitLater) {
        this.commitLater = setTimeout(() => this.commitQueued(), waitMs);
      }
    });
  }

  /** One commit for every write queued by soon(): all of them land, or none (and each is told why). */
  private commitQueued(): void {
    if (this.commitSoon) clearImmediate(this.commitSoon);
    if (this.commitLater) clearTimeout(this.commitLater);
    this.commitSoon = this.commitLater = undefined;
    const group = this.queued.splice(0);
    if (group.length === 0) return;
    let results: unknown[];
    try {
      results = this.immediately(() => group.map((queued) => queued.write()));
    } catch (err) {
      for (const queued of group) {
        queued.undo();
        queued.reject(err);
      }
      return;
    }
    group.forEach((queued, i) => queued.resolve(results[i]));
  }

  /** A claim refused because another worker of this process holds the key: it waits like any other holder's. */
  private heldHere(): Claim {
    return { ok: false, holder: { pid: this.owner.pid, since: Date.now() } };
  }

  /** The lock check and writes of a claim, inside a write transaction. */
  private claimWithin(key: string, intent: NewIntent | undefined): Claim {
    const row = this.sql('SELECT pid, started, since FROM locks WHERE scope = ? AND key = ?').get(this.scope, key) as
      | { pid: number; started: string; since: number }
      | undefined;
    const mine = row && row.pid === this.owner.pid && row.started === this.owner.started;
    if (row && !mine && isAlive({ pid: row.pid, started: row.started })) return { ok: false, holder: { pid: row.pid, since: row.since } };
    this.sql(
      'INSERT INTO locks (scope, key, pid, started, since) VALUES (?, ?, ?, ?, ?) ON CONFLICT (scope, key) DO UPDATE SET pid = excluded.pid, started = excluded.started, since = excluded.since',
    ).run(this.scope, key, this.owner.pid, this.owner.started, Date.now());
    return intent ? { ok: true, intent: this.record(intent) } : { ok: true };
  }

  release(key: string): void {
    if (!this.held.delete(key)) return;
    this.sql('DELETE FROM locks WHERE scope = ? AND key = ? AND pid = ? AND started = ?').run(this.scope, key, this.owner.pid, this.owner.started);
  }

  /** Intents on `key` that no run has resolved yet, oldest first. */
  unresolved(key: string): Intent[] {
    return this.sql(`SELECT * FROM intents WHERE scope = ? AND key = ? AND state IN ('pending', 'unknown') ORDER BY id`)
      .all(this.scope, key) as Intent[];
  }

  /** The newest unresolved create with the same details, for a rerun that did not give --reference-id. */
  unresolvedByFingerprint(fingerprint: string): Intent | undefined {
    return this.sql(`SELECT * FROM intents WHERE scope = ? AND fingerprint = ? AND state IN ('pending', 'unknown') ORDER BY id DESC LIMIT 1`)
      .get(this.scope, fingerprint) as Intent | undefined;
  }

  /** Writes an intent (pending unless said otherwise); resolves once it is committed. */
  record(intent: NewIntent): Intent {
    const now = Date.now();
    const row = {
      scope: this.scope,
      key: intent.key,
      operation: intent.operation,
      target: intent.target,
      requested_cents: intent.requested_cents ?? null,
      amount_cents: intent.amount_cents ?? null,
      before: intent.before ?? null,
      fingerprint: intent.fingerprint ?? null,
      batch: intent.batch ?? null,
      row: intent.row ?? null,
      state: intent.state ?? 'pending',
      detail: intent.detail === undefined || intent.detail === null ? null : this.scrub(intent.detail),
      created_at: now,
      settle_until: intent.settle_until ?? null,
      updated_at: now,
      pid: this.owner.pid,
    };
    const { lastInsertRowid } = this.sql(
      `INSERT INTO intents (scope, key, operation, target, requested_cents, amount_cents, before, fingerprint, batch, row, state, detail, created_at, settle_until, updated_at, pid)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(row.scope, row.key, row.operation, row.target, row.requested_cents, row.amount_cents, row.before, row.fingerprint, row.batch, row.row, row.state, row.detail, row.created_at, row.settle_until, row.updated_at, row.pid);
    const { scope: _scope, ...fields } = row;
    return { id: Number(lastInsertRowid), ...fields };
  }

  /** A new attempt of the same intent is about to go out: it could land until `settleUntil`. */
  resent(intent: Intent, settleUntil: number): void {
    intent.settle_until = settleUntil;
    intent.state = 'pending';
    intent.updated_at = Date.now();
    this.sql(`UPDATE intents SET state = 'pending', settle_until = ?, updated_at = ? WHERE id = ?`).run(settleUntil, intent.updated_at, intent.id);
  }

  setSettleUntil(intent: Intent, settleUntil: number): void {
    intent.settle_until = settleUntil;
    this.sql('UPDATE intents SET settle_until = ? WHERE id = ?').run(settleUntil, intent.id);
  }

  resolve(intent: Intent, state: IntentState, detail?: string): void {
    intent.state = state;
    intent.detail = detail === undefined ? intent.detail : this.scrub(detail);
    intent.updated_at = Date.now();
    this.sql('UPDATE intents SET state = ?, detail = ?, updated_at = ? WHERE id = ?').run(state, intent.detail, intent.updated_at, intent.id);
  }

  /** A bulk run's rows as earlier runs of the same input left them: the first intent and the latest of each. */
  batchRows(batch: string): Map<number, { first: Intent; last: Intent }> {
    const rows = new Map<number, { first: Intent; last: Intent }>();
    const all = this.sql('SELECT * FROM intents WHERE scope = ? AND batch = ? ORDER BY id').all(this.scope, batch) as Intent[];
    for (const intent of all) {
      const known = rows.get(intent.row as number);
      rows.set(intent.row as number, { first: known?.first ?? intent, last: intent });
    }
    return rows;
  }

  /**
   * Forgets a batch's rows (`--restart`): later runs start it afresh. Its unresolved intents stay
   * in the ledger under their transaction, so the new run still checks them before sending.
   */
  forgetBatch(batch: string): void {
    this.sql('UPDATE intents SET batch = NULL, row = NULL WHERE scope = ? AND batch = ?').run(this.scope, batch);
  }

  close(): void {
    for (const key of [...this.held]) this.release(key);
    this.db.close();
  }
}
