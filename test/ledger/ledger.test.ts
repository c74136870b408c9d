import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CliError, UsageError } from '../../src/errors.js';
import { accountOf } from '../../src/ledger/account.js';
import { LedgerUnreachableError } from '../../src/ledger/errors.js';
import { currentOwner } from '../../src/platform/owner.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { openLedger } from '../../src/ledger/open.js';
import { PostgresStore } from '../../src/ledger/postgres-store.js';
import { settle } from '../../src/ledger/settle.js';
import { openSqlite } from '../../src/platform/sqlite.js';
import { SqliteStore, sqliteLedgerPath } from '../../src/ledger/sqlite-store.js';
import type { Identity, Intent, LedgerStore } from '../../src/ledger/types.js';
import { freshDatabase, postgresForFile } from '../helpers/postgres.js';

// The ledger on both of its stores: SQLite in the state directory, and PostgreSQL shared by a
// team (a real server, started for this file). The same contract holds on each.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'payctl-ledger-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const postgres = postgresForFile();
const SCOPE = 'test:marketplace:m1';
const same = (text: string) => text;

const startTime = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] as string;
};

/** Another process: on this machine (its pid can be asked) or on another one (only its lease counts). */
const otherProcess = (pid: number, started: string, elsewhere = false): Identity => ({
  holder: elsewhere ? 'ana@caixa-2' : currentOwner().holder,
  host_id: elsewhere ? 'another-host' : currentOwner().host_id,
  pid,
  started,
  token: `token-${pid}-${started}-${elsewhere}`,
});

interface Backend {
  name: string;
  /** An empty ledger database for one test: what opens a store on it for an account. */
  database(): Promise<(scope: string) => Promise<LedgerStore>>;
}

const BACKENDS: Backend[] = [
  { name: 'SQLite', database: async () => (scope) => SqliteStore.open(sqliteLedgerPath(dir), scope, same) },
  {
    name: 'PostgreSQL',
    database: async () => {
      const url = await freshDatabase(postgres());
      return (scope) => PostgresStore.open(url, 'the test database', scope, same);
    },
  },
];

describe.each(BACKENDS)('the ledger on $name', (backend) => {
  const ledgers: Ledger[] = [];
  let openStore: (scope: string) => Promise<LedgerStore>;
  beforeEach(async () => {
    openStore = await backend.database();
  });
  const open = async (options: { scope?: string; me?: Identity; leaseMs?: number } = {}) => {
    const ledger = new Ledger(await openStore(options.scope ?? SCOPE), options.leaseMs, options.me);
    ledgers.push(ledger);
    return ledger;
  };
  afterEach(async () => {
    for (const ledger of ledgers.splice(0)) await ledger.close().catch(() => undefined);
  });

  it('keeps intents across processes: written pending, resolved later, read by key; another account sees none', async () => {
    const first = await open();
    const intent = await first.record({ key: 'transaction:1', operation: 'transactions.void', target: '1', requested_cents: 400, amount_cents: 400, before: '{"amount":"10.00"}', batch: 'run-1', batch_name: 'refunds.csv', row: 3 });
    await first.close();
    const second = await open();
    expect((await second.intentsOn(['transaction:1'])).map((i) => [i.id, i.state, i.amount_cents, i.before, i.batch_name, i.row, i.holder])).toEqual([
      [intent.id, 'pending', 400, '{"amount":"10.00"}', 'refunds.csv', 3, currentOwner().holder],
    ]);
    expect(await (await open({ scope: 'live:marketplace:m1' })).intentsOn(['transaction:1'])).toEqual([]);
    const [found] = await second.intentsOn(['transaction:1']);
    await second.resolve(found!, 'applied', null, 'void-9');
    expect(await (await open()).intentsOn(['transaction:1'])).toMatchObject([{ state: 'applied', proof: 'void-9' }]);
  });

  it('one holder at a time inside a process; released, it can be taken again', async () => {
    const ledger = await open();
    expect((await ledger.claim('transaction:1')).ok).toBe(true);
    expect(await ledger.claim('transaction:1')).toMatchObject({ ok: false, holder: { pid: process.pid } });
    expect((await ledger.claim('transaction:2')).ok).toBe(true);
    await ledger.release('transaction:1');
    expect((await ledger.claim('transaction:1')).ok).toBe(true);
  });

  it('held by a live process on this machine: refused, naming it; once it is gone, taken over at once', async () => {
    const other = spawn('sleep', ['30']);
    try {
      await new Promise((resolve) => other.once('spawn', resolve));
      const holder = await open({ me: otherProcess(other.pid as number, startTime(other.pid as number)) });
      expect((await holder.claim('transaction:1')).ok).toBe(true);
      const ledger = await open();
      expect(await ledger.claim('transaction:1')).toMatchObject({ ok: false, holder: { pid: other.pid, holder: currentOwner().holder } });
      other.kill('SIGKILL');
      await new Promise((resolve) => other.once('exit', resolve));
      expect((await ledger.claim('transaction:1')).ok).toBe(true);
    } finally {
      other.kill('SIGKILL');
    }
  });

  it("a pid now used by another process (a different start time) does not keep a dead holder's lock", async () => {
    const holder = await open({ me: otherProcess(process.ppid, '1') });
    expect((await holder.claim('transaction:1')).ok).toBe(true);
    expect((await (await open()).claim('transaction:1')).ok).toBe(true);
  });

  it("another machine's lock is a lease: refused while it runs (its pid means nothing here), taken once it expires", async () => {
    // A pid that does not exist here: only the lease can say the holder is gone.
    const remote = await open({ me: otherProcess(999_999, '1', true), leaseMs: 1200 });
    expect((await remote.claim('transaction:1')).ok).toBe(true);
    const ledger = await open();
    const refused = await ledger.claim('transaction:1');
    expect(refused).toMatchObject({ ok: false, holder: { holder: 'ana@caixa-2', pid: 999_999 } });
    await new Promise((resolve) => setTimeout(resolve, 1400));
    expect((await ledger.claim('transaction:1')).ok).toBe(true);
  });

  it('a holder that keeps working renews its lease; one whose lease ran out sends nothing more', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    try {
      const holder = await open({ leaseMs: 20_000 });
      expect((await holder.claim('transaction:1')).ok).toBe(true);
      holder.assertLeased();
      // 30 s of renewals every 5 s: still held, by the same lease.
      // (Real time between the steps: a renewal is a real statement to a real database.)
      const settleIo = () => new Promise((resolve) => setTimeout(resolve, 100));
      for (let i = 0; i < 6; i += 1) {
        await vi.advanceTimersByTimeAsync(5000);
        await settleIo();
      }
      holder.assertLeased();
      const [lock] = await holder.locks('transaction:1');
      expect(lock!.expires_at).toBeGreaterThan(holder.now() + 10_000);
      // The ledger stops answering: renewals fail, and once the lease is nearly out nothing may be sent.
      vi.spyOn(holder.store, 'renew').mockRejectedValue(new Error('gone'));
      for (let i = 0; i < 4; i += 1) {
        await vi.advanceTimersByTimeAsync(4000);
        await settleIo();
      }
      expect(() => holder.assertLeased()).toThrow(/lost its locks in the ledger .*stopped before sending anything more/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('claims asked for in one turn are one commit; a claim may write its intent in it, seeing every intent on the key', async () => {
    const ledger = await open();
    await ledger.record({ key: 'transaction:1', operation: 'transactions.void', target: '1', state: 'applied' });
    const apply = vi.spyOn(ledger.store, 'apply');
    const seen: number[] = [];
    const decide = (id: string) => (memory: { id: number }[]) => {
      seen.push(memory.length);
      return { key: `transaction:${id}`, operation: 'transactions.void', target: id, amount_cents: 100, row: Number(id) };
    };
    const claims = await Promise.all([ledger.claim('transaction:1', decide('1')), ledger.claim('transaction:2', decide('2')), ledger.claim('transaction:1', decide('3'))]);
    expect(apply).toHaveBeenCalledTimes(1);
    expect(claims[0]).toMatchObject({ ok: true, memory: [{ state: 'applied' }], intent: { target: '1', state: 'pending' } });
    expect(claims[1]).toMatchObject({ ok: true, memory: [], intent: { target: '2', state: 'pending' } });
    // The same key twice in one commit: the second waits like any other holder's.
    expect(claims[2]).toMatchObject({ ok: false, holder: { pid: process.pid } });
    expect(seen).toEqual([1, 0]);
    // A settle resolves the intent and lets go of its lock together.
    await ledger.resolveAndRelease((claims[0] as { intent: Intent }).intent, 'applied', null, 'v1', 'transaction:1');
    expect(await ledger.locks()).toMatchObject([{ key: 'transaction:2' }]);
    expect((await ledger.intentsOn(['transaction:1'])).map((i) => i.state)).toEqual(['applied', 'applied']);
  });

  it('one write that fails takes its commit down whole: every write of it is refused and its locks are not held', async () => {
    const ledger = await open();
    const good = ledger.claim('transaction:1', () => ({ key: 'transaction:1', operation: 'transactions.void', target: '1' }));
    // An intent without an operation breaks the table's NOT NULL rule.
    const bad = ledger.claim('transaction:2', () => ({ key: 'transaction:2', operation: null as unknown as string, target: '2' }));
    await expect(good).rejects.toThrow(/null/i);
    await expect(bad).rejects.toThrow(/null/i);
    expect(await ledger.locks()).toEqual([]);
    expect(await ledger.intentsOn(['transaction:1', 'transaction:2'])).toEqual([]);
    expect((await ledger.claim('transaction:1')).ok).toBe(true);
  });

  it('a lock can be broken by hand, saying who held it', async () => {
    const remote = await open({ me: otherProcess(4242, '1', true) });
    await remote.claim('transaction:9');
    const ledger = await open();
    expect(await ledger.breakLock('transaction:9')).toMatchObject({ holder: 'ana@caixa-2', pid: 4242 });
    expect((await ledger.claim('transaction:9')).ok).toBe(true);
  });
});

describe('the SQLite ledger', () => {
  it('one file for every account under state/ledger, 0600 in a 0700 directory', async () => {
    const ledger = await openLedger({ stateDir: join(dir, 'state'), configDir: dir }, accountOf({ isEmbedded: false, apiKey: 'zpk_test_x', marketplaceId: 'm' }, dir), same);
    await ledger.record({ key: 'transaction:1', operation: 'transactions.void', target: '1', amount_cents: 400 });
    await ledger.close();
    const file = join(dir, 'state', 'ledger', 'ledger.sqlite');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'state', 'ledger')).mode & 0o777).toBe(0o700);
  });

  it('a state directory that cannot be written is a usage error naming the path (exit 2)', async () => {
    writeFileSync(join(dir, 'state'), 'a file where the directory should be');
    const error = await SqliteStore.open(sqliteLedgerPath(join(dir, 'state')), SCOPE, same).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(`state directory ${join(dir, 'state', 'ledger')} cannot be used: ${join(dir, 'state')} is not a directory; set PAYCTL_HOME to a writable directory`);
  });

  it('a ledger a newer payctl moved to a later version is not written to (exit 2)', async () => {
    (await SqliteStore.open(sqliteLedgerPath(dir), SCOPE, same)).close();
    const db = await openSqlite(sqliteLedgerPath(dir));
    db.prepare('INSERT INTO payctl_schema (version) VALUES (?)').run(99);
    db.close();
    const error = await SqliteStore.open(sqliteLedgerPath(dir), SCOPE, same).catch((err: unknown) => err);
    expect((error as CliError).exitCode).toBe(2);
    expect((error as CliError).message).toContain('was made by a newer payctl (ledger version 99; this payctl knows up to 1); nothing was sent');
  });

  it("is Node's own node:sqlite where this Node.js has it unflagged, else better-sqlite3; either way silent", async () => {
    const warnings: string[] = [];
    const listen = (w: Error) => warnings.push(w.message);
    process.on('warning', listen);
    try {
      const db = await openSqlite(':memory:');
      const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
      expect(db.driver).toBe(major > 22 || (major === 22 && minor >= 13) ? 'node:sqlite' : 'better-sqlite3');
      expect(db.prepare('SELECT ? AS a').get(7)).toEqual({ a: 7 });
      db.close();
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.includes('SQLite'))).toEqual([]);
    } finally {
      process.off('warning', listen);
    }
  });
});

describe('the PostgreSQL ledger', () => {
  it('two machines opening a new database at once create its tables once', async () => {
    const url = await freshDatabase(postgres());
    const stores = await Promise.all(Array.from({ length: 4 }, () => PostgresStore.open(url, 'db', SCOPE, same)));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      expect((await client.query('SELECT version FROM payctl_schema')).rows).toEqual([{ version: 1 }]);
    } finally {
      await client.end();
      for (const store of stores) await store.close();
    }
  });

  it('one that cannot be reached is exit 8, naming it with its password masked, within seconds', async () => {
    const started = Date.now();
    const url = 'postgres://payctl:s3cret-pass@127.0.0.1:1/payctl';
    const error = await openLedger({ stateDir: dir, configDir: dir, url }, accountOf({ isEmbedded: false, apiKey: 'zpk_test_x', marketplaceId: 'm' }, dir), same).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(LedgerUnreachableError);
    expect((error as CliError).exitCode).toBe(8);
    expect((error as Error).message).toMatch(/^the ledger postgres:\/\/payctl:\*\*\*\*@127\.0\.0\.1:1\/payctl cannot be reached \(connect ECONNREFUSED 127\.0\.0\.1:1\); no money moves without it\. Reads \(get, list, export\) still work$/);
    expect((error as Error).message).not.toContain('s3cret');
    expect(Date.now() - started).toBeLessThan(6000);
  });

  it('a database that goes away between statements: the next write is exit 8, not a crash', async () => {
    const url = await freshDatabase(postgres());
    const ledger = new Ledger(await PostgresStore.open(url, 'db', SCOPE, same));
    expect((await ledger.claim('transaction:1')).ok).toBe(true);
    await postgres().stop();
    try {
      const error = await ledger.record({ key: 'transaction:1', operation: 'transactions.void', target: '1' }).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(LedgerUnreachableError);
    } finally {
      await postgres().start();
      await ledger.close().catch(() => undefined);
    }
  });
});

describe('settle: look until proven, until the window closes, or until the wait is over', () => {
  const clock = () => Date.now();
  it('applied: returns at the first lookup that proves it, with what proved it', async () => {
    let looks = 0;
    const result = await settle(Date.now() + 5000, async () => ++looks, (n) => (n >= 2 ? { kind: 'applied', proof: 'v2' } : { kind: 'not_seen' }), { waitUntil: Date.now() + 5000, clock, sleep: async () => undefined });
    expect(result).toEqual({ kind: 'applied', now: 2, proof: 'v2' });
  });

  it('not applied only from a lookup made at or after the window closed', async () => {
    const deadline = Date.now() + 300;
    const looked: number[] = [];
    const result = await settle(deadline, async () => looked.push(Date.now()), () => ({ kind: 'not_seen' }), { waitUntil: deadline + 5000, clock });
    expect(result.kind).toBe('not_applied');
    expect(looked.length).toBeGreaterThan(1);
    expect(looked.at(-1)!).toBeGreaterThanOrEqual(deadline);
  });

  it('open when the wait ends before the window does: it could still land', async () => {
    const result = await settle(Date.now() + 60_000, async () => 1, () => ({ kind: 'not_seen' }), { waitUntil: Date.now() + 200, clock });
    expect(result.kind).toBe('open');
  });

  it('unknown when the lookups fail; ambiguous when what is there cannot be told apart', async () => {
    const started = Date.now();
    const failing = await settle(Date.now() + 3_600_000, async () => Promise.reject(new Error('HTTP 503')), () => ({ kind: 'not_seen' }), { waitUntil: Date.now() + 300, clock });
    expect(failing).toMatchObject({ kind: 'unknown', error: { message: 'HTTP 503' } });
    expect(Date.now() - started).toBeLessThan(2000);
    const ambiguous = await settle(Date.now() + 100, async () => 1, () => ({ kind: 'ambiguous', why: 'two voids for three refunds' }), { waitUntil: Date.now() + 2000, clock });
    expect(ambiguous).toMatchObject({ kind: 'ambiguous', why: 'two voids for three refunds' });
  });
});
