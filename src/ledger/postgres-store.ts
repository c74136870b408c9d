// The ledger a team shares: the same tables as the SQLite one, in a PostgreSQL database every
// operator's payctl reaches (ledger_url / PAYCTL_LEDGER_URL). Loaded only when one is set: the
// driver (pg) is in a chunk of its own.
//
// One connection per process, one transaction at a time on it (a bulk run's workers share a
// commit, as with SQLite). Times are the database server's clock, read once at connect and kept
// as an offset: leases and settle windows written by two machines whose clocks disagree still
// mean the same instant. If the database cannot be reached, nothing moves: every error that
// means "no answer from the ledger" becomes LedgerUnreachableError (exit 8), whose message names
// the ledger (its password masked).
import pg from 'pg';
import { CliError, ExitCode } from '../errors.js';
import { holderAlive } from '../platform/owner.js';
import { LedgerFileError, LedgerMissing, LedgerUnreachableError, missingTables, postgresTrouble } from './errors.js';
import { INTENT_COLUMNS, LEDGER_TABLES, newerSchema, onlyWhatIsMissing, POSTGRES_MIGRATIONS, SCHEMA_VERSION } from './schema.js';
import { intentFromRow, lockFromRow, newIntentRow } from './rows.js';
import { newIdentity, type ClaimResult, type GroupOutcome, type Identity, type Intent, type IntentFilter, type IntentPage, type LedgerSql, type LedgerStore, type Lock, type NewIntent, type WriteGroup } from './types.js';

/** How long a connection attempt or a statement may take before the ledger counts as unreachable. */
const CONNECT_TIMEOUT_MS = 5000;
const STATEMENT_TIMEOUT_MS = 15_000;
/** Two processes claiming overlapping keys may deadlock; the database ends one, which tries again. */
const RETRIES_ON_CONFLICT = 5;
/** Any schema change waits for every other one: two machines' first runs at once create the tables once. */
const SCHEMA_LOCK = 0x70617963; // "payc"

/** SQLSTATE classes and codes that say the database is gone or going, not that a statement is wrong. */
function unreachable(err: unknown): boolean {
  const code = (err as { code?: string }).code ?? '';
  if (/^(08|57P|53)/.test(code)) return true;
  if (/^E[A-Z]+$/.test(code)) return true; // ECONNREFUSED, ECONNRESET, ETIMEDOUT, ENOTFOUND, …
  const message = (err as Error).message ?? '';
  return /Connection terminated|connection timeout|timeout exceeded|Client has encountered a connection error|not queryable|Query read timeout/i.test(message);
}

function retryable(err: unknown): boolean {
  const code = (err as { code?: string }).code ?? '';
  return code === '40P01' || code === '40001';
}

export class PostgresStore implements LedgerStore {
  readonly kind = 'postgres';
  private chain: Promise<unknown> = Promise.resolve();
  private broken: Error | undefined;

  private constructor(
    readonly where: string,
    private readonly client: pg.Client,
    private readonly scope: string,
    private readonly scrub: (text: string) => string,
    readonly clockOffset: number,
  ) {
    // A connection that drops between statements must not take the process down: the next
    // statement fails instead, as "unreachable".
    client.on('error', (err) => {
      this.broken = err;
    });
  }

  /**
   * Connects and checks the tables. `create`: a first use makes them (and the ledger's identity);
   * a ledger this operator used before is never made anew on its own: tables gone, or without
   * their identity, are LedgerMissing, and only `payctl ledger reset --yes` creates them again.
   */
  static async open(url: string, where: string, scope: string, scrub: (text: string) => string, create = true): Promise<PostgresStore> {
    const client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: STATEMENT_TIMEOUT_MS,
      keepAlive: true,
      application_name: 'payctl',
    });
    // An error before the first statement (a refused connection) is the connect's to report.
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (err) {
      await client.end().catch(() => undefined);
      throw new LedgerUnreachableError(where, err);
    }
    try {
      const t0 = Date.now();
      const { rows } = await client.query<{ now: string }>('SELECT (extract(epoch from clock_timestamp()) * 1000)::bigint AS now');
      const offset = Number(rows[0]?.now) - Math.round((t0 + Date.now()) / 2);
      const store = new PostgresStore(where, client, scope, scrub, offset);
      await store.migrate(create);
      return store;
    } catch (err) {
      await client.end().catch(() => undefined);
      if (err instanceof CliError || err instanceof LedgerMissing) throw err;
      const trouble = postgresTrouble(err);
      if (trouble) throw new LedgerFileError(where, trouble, err);
      if (unreachable(err)) throw new LedgerUnreachableError(where, err);
      throw new CliError(`the ledger ${where} cannot be used: ${(err as Error).message}; nothing was sent`, ExitCode.usage, { cause: err });
    }
  }

  private async migrate(create: boolean): Promise<void> {
    await this.transaction(async () => {
      await this.client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
      // Every table, not only the schema's: one dropped alone is a ledger lost all the same.
      const { rows: absent } = await this.client.query<{ name: string }>('SELECT t AS name FROM unnest($1::text[]) AS t WHERE to_regclass(t) IS NULL', [LEDGER_TABLES]);
      const missing = absent.map((r) => r.name);
      if (!create && missing.length > 0) throw new LedgerMissing(`${missingTables(missing)} (dropped, or another database at this address; payctl never makes them again on its own)`);
      if (create) await this.client.query('CREATE TABLE IF NOT EXISTS payctl_schema (version INTEGER NOT NULL)');
      const { rows } = await this.client.query<{ version: number }>('SELECT coalesce(max(version), 0)::int AS version FROM payctl_schema');
      const version = rows[0]?.version ?? 0;
      if (version > SCHEMA_VERSION) throw new CliError(newerSchema(this.where, version), ExitCode.usage);
      if (!create && version === 0) throw new LedgerMissing('was emptied (payctl_schema holds no version)');
      if (version > 0 && missing.length > 0) {
        for (const migration of POSTGRES_MIGRATIONS.slice(0, version)) await this.client.query(onlyWhatIsMissing(migration));
        await this.client.query('DELETE FROM payctl_meta');
      }
      for (let next = version + 1; next <= SCHEMA_VERSION; next += 1) {
        await this.client.query(POSTGRES_MIGRATIONS[next - 1] as string);
        await this.client.query('INSERT INTO payctl_schema (version) VALUES ($1)', [next]);
      }
      if (create) {
        const identity = newIdentity();
        await this.client.query('INSERT INTO payctl_meta (name, value) VALUES ($1, $2), ($3, $4) ON CONFLICT (name) DO NOTHING', ['ledger_id', identity.id, 'since', String(identity.since)]);
      }
      const { rows: meta } = await this.client.query<{ name: string; value: string }>('SELECT name, value FROM payctl_meta');
      this.ledgerId = meta.find((r) => r.name === 'ledger_id')?.value ?? '';
      this.since = Number(meta.find((r) => r.name === 'since')?.value ?? 0);
      if (!this.ledgerId) throw new LedgerMissing('was emptied (its identity in payctl_meta is gone)');
    });
  }

  /** Which ledger this is (made once, with its tables), and since when it keeps moves. */
  ledgerId = '';
  since = 0;

  /** What became of this ledger since it was opened (its tables dropped or emptied, another in its place); undefined while it is the same. */
  vanished(): Promise<string | undefined> {
    return this.exclusive(async () => {
      try {
        const rows = await this.query<{ value: string }>("SELECT value FROM payctl_meta WHERE name = 'ledger_id'", []);
        if (rows.length === 0) return 'was emptied';
        return rows[0]?.value === this.ledgerId ? undefined : 'was replaced by another';
      } catch (err) {
        if ((err as { code?: string }).code === '42P01') return 'had its tables dropped';
        throw err;
      }
    });
  }

  hasIntent(id: number, createdAt: number): Promise<boolean> {
    return this.exclusive(async () => (await this.query('SELECT 1 FROM payctl_intents WHERE id = $1 AND created_at = $2', [id, createdAt])).length > 0);
  }

  /** The server keeps its own files whole; what can be checked here is that the tables answer. */
  check(): Promise<string[]> {
    return this.exclusive(async () => {
      await this.query('SELECT count(*) FROM payctl_intents WHERE scope = $1', [this.scope]);
      return [];
    });
  }

  /** One statement or transaction at a time on the connection; each failure that means "gone" is said as such. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(async () => {
      if (this.broken) throw new LedgerUnreachableError(this.where, this.broken);
      try {
        return await work();
      } catch (err) {
        if (err instanceof CliError) throw err;
        const trouble = postgresTrouble(err);
        if (trouble && !this.broken) throw new LedgerFileError(this.where, trouble, err);
        if (this.broken || unreachable(err)) throw new LedgerUnreachableError(this.where, this.broken ?? err);
        throw err;
      }
    });
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async transaction<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      await this.client.query('BEGIN');
      try {
        const result = await work();
        await this.client.query('COMMIT');
        return result;
      } catch (err) {
        await this.client.query('ROLLBACK').catch(() => undefined);
        if (!retryable(err) || attempt >= RETRIES_ON_CONFLICT) throw err;
      }
    }
  }

  private async query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<R[]> {
    return (await this.client.query<R>(text, values)).rows;
  }

  transact<T>(work: (sql: LedgerSql, scope: string) => Promise<T>): Promise<T> {
    // The same SQL as SQLite's: its `?` placeholders numbered as PostgreSQL's.
    const numbered = (text: string) => {
      let n = 0;
      return text.replace(/\?/g, () => `$${++n}`);
    };
    const sql: LedgerSql = {
      all: (text, params = []) => this.query<Record<string, unknown>>(numbered(text), [...params]),
      run: async (text, params = []) => (await this.client.query(numbered(text), [...params])).rowCount ?? 0,
    };
    return this.exclusive(() => this.transaction(() => work(sql, this.scope)));
  }

  apply(group: WriteGroup, me: Identity, now: number, leaseMs: number): Promise<GroupOutcome> {
    return this.exclusive(() => this.transaction(() => this.applyWithin(group, me, now, leaseMs)));
  }

  private async applyWithin(group: WriteGroup, me: Identity, now: number, leaseMs: number): Promise<GroupOutcome> {
    if (group.changes.length > 0) {
      const changes = group.changes.map((c) => ({ ...c, detail: c.detail === null ? null : this.scrub(c.detail) }));
      await this.query(
        `UPDATE payctl_intents AS i SET state = c.state, detail = c.detail, proof = c.proof, settle_until = c.settle_until, updated_at = c.updated_at
         FROM json_to_recordset($1::json) AS c(id bigint, state text, detail text, proof text, settle_until bigint, updated_at bigint) WHERE i.id = c.id`,
        [JSON.stringify(changes)],
      );
    }
    if (group.releases.length > 0) {
      await this.query('DELETE FROM payctl_locks WHERE scope = $1 AND key = ANY($2::text[]) AND token = $3', [this.scope, group.releases, me.token]);
    }
    const records = await this.insert(group.records, me, now);
    const claims = await this.claim(group, me, now, leaseMs);
    return { records, claims };
  }

  private async insert(intents: NewIntent[], me: Identity, now: number): Promise<Intent[]> {
    if (intents.length === 0) return [];
    const rows = intents.map((intent) => newIntentRow(this.scope, intent, me, now, this.scrub));
    const columns = INTENT_COLUMNS.join(', ');
    const inserted = (
      await this.query<Record<string, unknown>>(
        `INSERT INTO payctl_intents (${columns}) SELECT ${columns} FROM json_populate_recordset(NULL::payctl_intents, $1::json) RETURNING *`,
        [JSON.stringify(rows)],
      )
    ).map(intentFromRow);
    // RETURNING's order is the database's: each row is matched back to what asked for it.
    const byAsk = new Map(inserted.map((intent) => [askOf(intent), intent]));
    return intents.map((intent, i) => byAsk.get(askOf(intent)) ?? (inserted[i] as Intent));
  }

  private async claim(group: WriteGroup, me: Identity, now: number, leaseMs: number): Promise<ClaimResult[]> {
    if (group.claims.length === 0) return [];
    // In one order for everyone: two processes claiming overlapping keys never wait on each other in a circle.
    const keys = [...new Set(group.claims.map((c) => c.key))].sort();
    const granted = new Set(
      (
        await this.query<{ key: string }>(
          `INSERT INTO payctl_locks (scope, key, holder, host_id, pid, started, token, since, expires_at)
           SELECT $1, k, $3, $4, $5, $6, $7, $8, $9 FROM unnest($2::text[]) AS k
           ON CONFLICT (scope, key) DO UPDATE SET holder = excluded.holder, host_id = excluded.host_id, pid = excluded.pid, started = excluded.started,
             token = excluded.token, since = excluded.since, expires_at = excluded.expires_at
           WHERE payctl_locks.token = excluded.token OR payctl_locks.expires_at <= $8
           RETURNING key`,
          [this.scope, keys, me.holder, me.host_id, me.pid, me.started, me.token, now, now + leaseMs],
        )
      ).map((r) => r.key),
    );
    const holders = new Map<string, Lock>();
    const refused = keys.filter((k) => !granted.has(k));
    if (refused.length > 0) {
      for (const lock of (await this.query<Record<string, unknown>>('SELECT * FROM payctl_locks WHERE scope = $1 AND key = ANY($2::text[])', [this.scope, refused])).map(lockFromRow)) {
        // A holder on this machine whose process is gone gives its lock up at once, lease or not.
        const taken =
          !holderAlive(lock, me) &&
          (
            await this.query(
              `UPDATE payctl_locks SET holder = $4, host_id = $5, pid = $6, started = $7, token = $8, since = $9, expires_at = $10
               WHERE scope = $1 AND key = $2 AND token = $3 RETURNING key`,
              [this.scope, lock.key, lock.token, me.holder, me.host_id, me.pid, me.started, me.token, now, now + leaseMs],
            )
          ).length > 0;
        if (taken) granted.add(lock.key);
        else holders.set(lock.key, lock);
      }
    }
    const memory = new Map<string, Intent[]>();
    if (granted.size > 0) {
      const rows = await this.query<Record<string, unknown>>('SELECT * FROM payctl_intents WHERE scope = $1 AND key = ANY($2::text[]) ORDER BY id', [this.scope, [...granted]]);
      for (const intent of rows.map(intentFromRow)) memory.set(intent.key, [...(memory.get(intent.key) ?? []), intent]);
    }
    const decided = group.claims.map((c) => (granted.has(c.key) ? c.decide?.(memory.get(c.key) ?? []) : undefined));
    const written = await this.insert(decided.filter((d): d is NewIntent => d !== undefined), me, now);
    let next = 0;
    return group.claims.map((c, i): ClaimResult => {
      if (!granted.has(c.key)) {
        // Freed between the two statements: said as held, the caller asks again.
        return { ok: false, holder: holders.get(c.key) ?? { key: c.key, holder: 'another payctl', host_id: '', pid: 0, started: '', token: '', since: now, expires_at: now } };
      }
      const mem = memory.get(c.key) ?? [];
      return decided[i] ? { ok: true, memory: mem, intent: written[next++] as Intent } : { ok: true, memory: mem };
    });
  }

  renew(me: Identity, now: number, leaseMs: number): Promise<string[]> {
    return this.exclusive(async () =>
      (await this.query<{ key: string }>('UPDATE payctl_locks SET expires_at = $2 WHERE token = $1 RETURNING key', [me.token, now + leaseMs])).map((r) => r.key),
    );
  }

  intentsOn(keys: string[]): Promise<Intent[]> {
    return this.exclusive(async () =>
      (await this.query<Record<string, unknown>>('SELECT * FROM payctl_intents WHERE scope = $1 AND key = ANY($2::text[]) ORDER BY id', [this.scope, keys])).map(intentFromRow),
    );
  }

  unresolvedByFingerprint(fingerprint: string): Promise<Intent | undefined> {
    return this.exclusive(async () => {
      const rows = await this.query<Record<string, unknown>>(
        `SELECT * FROM payctl_intents WHERE scope = $1 AND fingerprint = $2 AND state IN ('pending', 'unknown') ORDER BY id DESC LIMIT 1`,
        [this.scope, fingerprint],
      );
      return rows[0] && intentFromRow(rows[0]);
    });
  }

  list(filter: IntentFilter): Promise<Intent[]> {
    const where = ['scope = $1'];
    const values: unknown[] = [this.scope];
    if (filter.states?.length) {
      values.push(filter.states);
      where.push(`state = ANY($${values.length}::text[])`);
    }
    if (filter.since !== undefined) {
      values.push(filter.since);
      where.push(`created_at >= $${values.length}`);
    }
    if (filter.key !== undefined) {
      values.push(filter.key);
      where.push(`key = $${values.length}`);
    }
    values.push(filter.limit);
    return this.exclusive(async () =>
      (await this.query<Record<string, unknown>>(`SELECT * FROM payctl_intents WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT $${values.length}`, values)).map(intentFromRow),
    );
  }

  page({ after, since, limit }: IntentPage): Promise<Intent[]> {
    return this.exclusive(async () =>
      (since === undefined
        ? await this.query<Record<string, unknown>>('SELECT * FROM payctl_intents WHERE scope = $1 AND id > $2 ORDER BY id LIMIT $3', [this.scope, after, limit])
        : await this.query<Record<string, unknown>>('SELECT * FROM payctl_intents WHERE scope = $1 AND id > $2 AND created_at >= $3 ORDER BY id LIMIT $4', [this.scope, after, since, limit])
      ).map(intentFromRow),
    );
  }

  locks(key?: string): Promise<Lock[]> {
    return this.exclusive(async () =>
      (key === undefined
        ? await this.query<Record<string, unknown>>('SELECT * FROM payctl_locks WHERE scope = $1 ORDER BY since', [this.scope])
        : await this.query<Record<string, unknown>>('SELECT * FROM payctl_locks WHERE scope = $1 AND key = $2', [this.scope, key])
      ).map(lockFromRow),
    );
  }

  breakLock(key: string): Promise<Lock | undefined> {
    return this.exclusive(async () => {
      const rows = await this.query<Record<string, unknown>>('DELETE FROM payctl_locks WHERE scope = $1 AND key = $2 RETURNING *', [this.scope, key]);
      return rows[0] && lockFromRow(rows[0]);
    });
  }

  async close(): Promise<void> {
    await this.chain;
    await this.client.end().catch(() => undefined);
  }
}

/** What tells one new intent of a group from another: a key is held by one worker at a time. */
function askOf(intent: Pick<Intent, 'key' | 'operation'> & { row?: number | null }): string {
  return `${intent.key}\0${intent.operation}\0${intent.row ?? ''}`;
}
