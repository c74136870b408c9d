import { statSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { sandboxDir } from '../../src/sandbox/paths.js';
import { openSandboxDb } from '../../src/sandbox/db/database.js';
import { eventLimits, Session } from '../../src/sandbox/db/session.js';
import { openSqlite } from '../../src/platform/sqlite.js';
import { SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { applyChange, mutateState, readState, readStateFiles, stateOf, statePaths } from '../../src/sandbox/store.js';
import type { StoredState } from '../../src/sandbox/types.js';
import { integrityCheck, one, rows, withDb } from './db-helpers.js';
import { eventStrict } from '../../src/provider/schemas/events.js';
import { buyerStrict } from '../../src/provider/schemas/parties.js';
import { transactionStrict } from '../../src/provider/schemas/transaction.js';
import { client, countedPageOf, directCardBody, expectAnswer, expectError, expectServed, nextCpf, nth, pageOf, VISA, type Client } from './helpers.js';

// The store keeps the state in SQLite (one database per state directory): a change is one write
// transaction holding the records it wrote and their events, or nothing at all; an event refers to
// the version of its record instead of copying it; old events are trimmed with the record versions
// only they referred to.

const dirs: string[] = [];
const servers: SandboxHandle[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});
const limits = { ...eventLimits };
afterEach(async () => {
  Object.assign(eventLimits, limits);
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'payctl-store-'));
  dirs.push(dir);
  return dir;
}

async function sandboxOn(dir: string): Promise<Client> {
  const sandbox = await startSandbox({ stateDir: dir });
  servers.push(sandbox);
  return client(sandbox.url);
}

const clock = () => new Date('2030-01-01T00:00:00.000Z');

/** A comparable copy of the whole state as stored. */
async function stored(dir: string): Promise<StoredState> {
  return JSON.parse(JSON.stringify(await readStateFiles(dir))) as StoredState;
}

interface EventRow {
  k: number;
  /** Null: an event is kept in its fields' columns (db/schema.ts), its record's key among them as JSON. */
  doc: string | null;
  json: string;
  type: string;
  src_top: string | null;
  src_key: string | null;
  src_version: number | null;
}

function buyerBody() {
  return { first_name: 'Ana', last_name: 'Lima', taxpayer_id: nextCpf(), email: 'ana@example.com' };
}

describe('a session', () => {
  it('reports what differs from what it read, at any depth: changed, added, removed, values; a read alone is no change', async () => {
    const dir = await tempDir();
    await readState(dir, clock); // seeds
    const db = await openSandboxDb(dir);
    const found = db.write(() => {
      const session = new Session(db, true);
      const state = stateOf(session);
      const buyer = state.buyers.all()[0] as { id: string; address: { city: string } };
      const card = state.cards.all()[0] as { id: string };
      void state.seller.name; // read only
      buyer.address.city = 'Niterói';
      state.cards.remove(card.id);
      const at = state.deliveries.append({ kind: 'receipt', resource_id: 'r', method: 'email', target: 'a@example.com', at: clock().toISOString() });
      state.counters.seq += 1;
      // The same record read twice is the same object.
      expect(state.buyers.get(buyer.id)).toBe(buyer);
      const changes = session.changes();
      session.write(changes);
      return { names: changes.map((c) => (c.key === undefined ? c.top : `${c.top}/${c.top === 'deliveries' ? 'new' : c.key === buyer.id ? 'buyer' : 'card'}`)), at, again: session.changes() };
    });
    expect(found.names).toEqual(['counters', 'buyers/buyer', 'cards/card', 'deliveries/new']);
    // What was written counts as read afresh.
    expect(found.again).toEqual([]);
    const state = await stored(dir);
    expect(Object.values(state.buyers)[0]?.address?.city).toBe('Niterói');
    expect(state.deliveries[found.at]?.resource_id).toBe('r');
  });
});

describe('a session writing what it changed', () => {
  it('updates only the columns that differ from the row it read, without reading that row again; a record only read is not written', async () => {
    const dir = await tempDir();
    // A buyer the API registered: kept as columns (the seeded one is kept whole).
    const registered = expectAnswer(await (await sandboxOn(dir)).post('/v1/buyers', buyerBody()), 201, buyerStrict);
    const db = await openSandboxDb(dir);
    const statements: string[] = [];
    const [get, run] = [db.get.bind(db), db.run.bind(db)];
    db.get = ((sql: string, ...params: never[]) => (statements.push(sql), get(sql, ...params))) as typeof db.get;
    db.run = ((sql: string, ...params: never[]) => (statements.push(sql), run(sql, ...params))) as typeof db.run;
    try {
      db.write(() => {
        const session = new Session(db, true);
        const state = stateOf(session);
        const buyer = state.buyers.get(registered.id) as { first_name: string };
        void state.cards.all()[0]; // read only
        buyer.first_name = 'Renamed';
        statements.length = 0;
        session.write(session.changes());
      });
    } finally {
      Object.assign(db, { get, run });
    }
    expect(statements.filter((sql) => /\b(buyers|cards)\b/.test(sql))).toEqual(['UPDATE buyers SET version = ?, first_name = ? WHERE k = ?']);
    expect((await stored(dir)).buyers[registered.id]).toMatchObject({ first_name: 'Renamed' });
  });
});

describe('the database', () => {
  it('a request reads only the subscriptions and invoices that can still fall due: ended and paid ones are never loaded', async () => {
    const dir = await tempDir();
    const api = await sandboxOn(dir);
    expect((await api.get('/v1/transactions')).status).toBe(200);
    // Every request first checks for recurrence that fell due. Rows it must not read get documents
    // that cannot be parsed: loading any of them would fail the request.
    await withDb(dir, (db) => {
      for (let i = 0; i < 50; i += 1) {
        db.prepare("INSERT INTO invoices (k, version, doc, status, customer) VALUES (?, 1, 'not a document', 'paid', NULL)").run(`inv-${i}`);
        db.prepare("INSERT INTO subscriptions (k, version, doc, status) VALUES (?, 1, 'not a document', 'expired')").run(`sub-${i}`);
      }
    });
    const answer = await api.get('/v1/transactions');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  });

  it('another connection sees each change once it returns, and the whole state reads back', async () => {
    const dir = await tempDir();
    const seq = (await readState(dir, clock)).counters.seq;
    for (let i = 0; i < 5; i += 1) {
      await mutateState(dir, clock, (state) => {
        state.counters.seq += 1;
        state.deliveries.append({ kind: 'receipt', resource_id: `r${i}`, method: 'email', target: 'a@example.com', at: clock().toISOString() });
      });
      // Committed: a connection of its own (as another process would have) sees it.
      expect(await withDb(dir, (db) => one<{ n: number }>(db, 'SELECT count(*) AS n FROM deliveries').n)).toBe(i + 1);
    }
    const state = await stored(dir);
    expect(state.deliveries.map((d) => d.resource_id)).toEqual(['r0', 'r1', 'r2', 'r3', 'r4']);
    expect(state.counters.seq).toBe(seq + 5);
  });

  it('a change that throws half way writes nothing: items changed, added and removed', async () => {
    const dir = await tempDir();
    await readState(dir, clock); // seeds
    const before = await stored(dir);
    const buyerId = Object.keys(before.buyers)[0] as string;
    const cardId = Object.keys(before.cards)[0] as string;
    await expect(
      mutateState(dir, clock, (state) => {
        (state.buyers.get(buyerId) as { first_name: string }).first_name = 'Changed';
        state.cards.remove(cardId);
        state.deliveries.append({ kind: 'receipt', resource_id: 'x', method: 'email', target: 'a@example.com', at: clock().toISOString() });
        state.counters.seq = 999;
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await stored(dir)).toEqual(before);
    // And the next change starts from the stored state, not from what the refused one left behind.
    await mutateState(dir, clock, (state) => {
      state.counters.seq += 1;
    });
    const after = await stored(dir);
    expect(after.counters.seq).toBe(before.counters.seq + 1);
    expect(after.buyers[buyerId]).toEqual(before.buyers[buyerId]);
    expect(after.cards[cardId]).toEqual(before.cards[cardId]);
  });

  it('changes that arrive together commit together, each on its own: one that throws is undone alone', async () => {
    const dir = await tempDir();
    await readState(dir, clock); // seeds
    const before = await stored(dir);
    const buyerId = Object.keys(before.buyers)[0] as string;
    // The sixth change is refused by the database half way through writing it (its counter and
    // buyer are written before its delivery, which a trigger refuses): only a savepoint of its own
    // can take back what it wrote without taking the other nine with it.
    await withDb(dir, (db) =>
      db.exec("CREATE TRIGGER refuse_marked BEFORE INSERT ON deliveries WHEN NEW.resource_id = 'refuse-me' BEGIN SELECT RAISE(ABORT, 'refused'); END"),
    );
    // Issued in one tick, so they are committed as one group.
    const changes = Array.from({ length: 10 }, (_, i) =>
      mutateState(dir, clock, (state) => {
        state.counters.seq += 1;
        if (i === 5) {
          (state.buyers.get(buyerId) as { first_name: string }).first_name = 'Refused';
          state.deliveries.append({ kind: 'receipt', resource_id: 'refuse-me', method: 'email', target: 'a@example.com', at: clock().toISOString() });
        }
        return state.counters.seq;
      }),
    );
    const settled = await Promise.allSettled(changes);
    await withDb(dir, (db) => db.exec('DROP TRIGGER refuse_marked'));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    // Each saw the ones before it, and none saw the refused one's increment.
    const seqs = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value as number] : []));
    expect(seqs).toEqual(Array.from({ length: 9 }, (_, i) => before.counters.seq + i + 1));
    const after = await stored(dir);
    expect(after.counters.seq).toBe(before.counters.seq + 9);
    expect(after.buyers[buyerId]).toEqual(before.buyers[buyerId]);
  });

  it('a record appended in a long write transaction reads back after the session forgets what it loaded', async () => {
    const dir = await tempDir();
    await readState(dir, clock); // seeds
    const db = await openSandboxDb(dir);
    const transfer = { id: 'appended-transfer', status: 'pending', created_at: clock().toISOString() };
    const read = db.write(() => {
      const session = new Session(db, true);
      const at = applyChange(session, clock, (state) => state.transfers.append(transfer as never), { events: false });
      // What generating sales does after each sale: the row is written; the session no longer holds it.
      session.forget();
      return applyChange(session, clock, (state) => ({ at, item: state.transfers.at(at), next: state.transfers.at(at + 1), length: state.transfers.length }), { events: false });
    });
    expect(read.item).toMatchObject(transfer);
    expect(read.next).toBeUndefined();
    expect(read.length).toBe(read.at + 1);
  });

  it('a record put under an id the session made is not looked up first; one under an id made before is', async () => {
    const dir = await tempDir();
    await readState(dir, clock); // seeds
    const db = await openSandboxDb(dir);
    const seeded = db.write(() => (stateOf(new Session(db, true)).cards.all()[0] as { id: string }).id);
    const cardReads: string[] = [];
    const get = db.get.bind(db);
    db.get = ((sql: string, ...params: never[]) => {
      // A card is looked up by its key as the table keeps it: the id's number (id-codes.ts).
      if (/\bFROM cards\b/.test(sql)) cardReads.push(String(db.ids.id(params[0])));
      return get(sql, ...params);
    }) as typeof db.get;
    const [made, found] = db.write(() => {
      const session = new Session(db, true);
      const id = session.mint() as string;
      session.put('cards', id, { id, brand: 'visa' });
      // Ids made before this session are still looked up, and found.
      const before = session.item('cards', seeded);
      session.write(session.changes());
      // Once written, a later change of the same session (as generating sales makes) finds it.
      session.forget();
      expect(session.item('cards', id)).toMatchObject({ id, brand: 'visa' });
      return [id, before];
    });
    expect(cardReads).toEqual([seeded, made]);
    expect(found).toMatchObject({ id: seeded });
    const state = await stored(dir);
    expect(state.cards[made]).toMatchObject({ id: made, brand: 'visa' });
  });

  it('a new database has 2 KB pages; one made with 4 KB pages keeps them, checkpointing after the same 64 MB of log', async () => {
    const fresh = await tempDir();
    await readState(fresh, clock);
    const older = await tempDir();
    await mkdir(sandboxDir(older), { recursive: true });
    const made = await openSqlite(path.join(sandboxDir(older), 'sandbox.db'));
    made.exec('PRAGMA page_size = 4096');
    made.exec('PRAGMA journal_mode = WAL');
    made.exec('CREATE TABLE made_before (a)');
    made.close();
    await readState(older, clock);
    const settings = async (dir: string) => {
      const db = await openSandboxDb(dir);
      return { page: db.get<{ page_size: number }>('PRAGMA page_size')?.page_size, checkpoint: db.get<{ wal_autocheckpoint: number }>('PRAGMA wal_autocheckpoint')?.wal_autocheckpoint };
    };
    expect(await settings(fresh)).toEqual({ page: 2048, checkpoint: 32768 });
    expect(await settings(older)).toEqual({ page: 4096, checkpoint: 16384 });
    expect((await readState(older, clock)).seller).toBeDefined();
  });

  it("a generated volume's last part packs the database, keeping every row's rowid (lists page by it) and leaving no log beside it", async () => {
    const dir = await tempDir();
    const api = await sandboxOn(dir);
    const part = (first: number) => api.post('/v1/sandbox/generate', { sales: 300, days: 30, first, total: 600 });
    const freePages = () => withDb(dir, (db) => one<{ freelist_count: number }>(db, 'PRAGMA freelist_count').freelist_count);
    const keyed = (table: string) => withDb(dir, (db) => rows<{ rowid: number; k: unknown }>(db, `SELECT rowid, k FROM ${table} ORDER BY rowid`));
    expect((await part(0)).status).toBe(200);
    const before = { buyers: await keyed('buyers'), cards: await keyed('cards') };
    // Pages left empty in the file, far more than the last part fills again.
    await withDb(dir, (db) => db.exec("CREATE TABLE scratch (a); INSERT INTO scratch WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) SELECT randomblob(1000) FROM n; DROP TABLE scratch"));
    expect(await freePages()).toBeGreaterThan(1000);
    expect((await part(300)).status).toBe(200);
    expect(await freePages()).toBe(0);
    expect(statSync(`${statePaths(dir).file}-wal`, { throwIfNoEntry: false })?.size ?? 0).toBe(0);
    for (const [table, kept] of Object.entries(before)) expect((await keyed(table)).slice(0, kept.length)).toEqual(kept);
    expect(await withDb(dir, integrityCheck)).toEqual(['ok']);
  });

  it('a change and its events are one transaction: an event that cannot be written takes the change with it', async () => {
    const dir = await tempDir();
    const api = await sandboxOn(dir);
    const buyer = expectAnswer(await api.post('/v1/buyers', buyerBody()), 201, buyerStrict);
    const count = async () => withDb(dir, (db) => one<{ n: number }>(db, 'SELECT count(*) AS n FROM events').n);
    const events = await count();
    const before = await stored(dir);
    // Every row an event would add is refused, as a full disk might refuse it half way through a change.
    await withDb(dir, (db) => db.exec("CREATE TRIGGER refuse_events BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'no more events'); END"));
    try {
      expectError(await api.put(`/v1/buyers/${buyer.id}`, { email: 'changed@example.com' }), 500, 'server_api_error');
      expectError(await api.post('/v1/transactions', directCardBody(VISA)), 500, 'server_api_error');
    } finally {
      await withDb(dir, (db) => db.exec('DROP TRIGGER refuse_events'));
    }
    // Neither the records nor their events were written.
    expect(await count()).toBe(events);
    expect(await stored(dir)).toEqual(before);
    expect(expectAnswer(await api.get(`/v1/buyers/${buyer.id}`), 200, buyerStrict).email).toBe('ana@example.com');
    expect(expectAnswer(await api.get('/v1/transactions'), 200, pageOf(transactionStrict)).total).toBe(0);
    // Once events can be written again, a change lands with its event.
    expect((await api.put(`/v1/buyers/${buyer.id}`, { email: 'changed@example.com' })).status).toBe(200);
    const updated = expectAnswer(await api.get(`/v1/events?type=buyer.updated`), 200, pageOf(eventStrict)).items;
    expect(updated).toHaveLength(1);
    expect(nth(updated, 0).payload.object).toMatchObject({ id: buyer.id, email: 'changed@example.com' });
    expect(await count()).toBe(events + 1);
  });

  it('stores an event once: a row refers to the version of its record, the API serves that version', async () => {
    const dir = await tempDir();
    const api = await sandboxOn(dir);
    const created = expectServed(await api.post('/v1/transactions', directCardBody(VISA, 5_000)), 201, transactionStrict);
    expect(created.status).toBe('succeeded');
    expect((await api.post(`/v1/transactions/${created.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 5_000 })).status).toBe(200);
    const now = expectServed(await api.get(`/v1/transactions/${created.id}`), 200, transactionStrict);
    expect(now.status).not.toBe('succeeded');

    const { events, key, versions, current } = await withDb(dir, (db) => {
      // The only sale (its id is kept as a number of the database's, id-codes.ts).
      const key = one<{ k: number }>(db, 'SELECT k FROM transactions').k;
      return {
        key,
        events: rows<EventRow>(db, "SELECT k, doc, json, type, src_top, src_key, src_version FROM events WHERE src_top = 'transactions' AND src_key = ? ORDER BY k", String(key)),
        versions: rows<{ version: number; doc: string }>(db, "SELECT version, doc FROM versions WHERE top = 'transactions' AND k = ? ORDER BY version", String(key)),
        current: one<{ version: number }>(db, 'SELECT version FROM transactions WHERE k = ?', key).version,
      };
    });
    expect(events.map((e) => e.type)).toEqual(['transaction.created', 'transaction.succeeded', `transaction.${now.status}`]);
    for (const event of events) {
      // The event row names its record; it holds no copy of it.
      expect(event.doc).toBeNull();
      expect(JSON.parse(event.json)).toEqual([['transactions', String(key)]]);
      expect(JSON.stringify(event)).not.toContain(created.id);
    }
    // The two events of the creation refer to one version, the void's to the next, which is the current one.
    const [first, second, last] = events.map((e) => e.src_version) as [number, number, number];
    expect(second).toBe(first);
    expect(last).toBeGreaterThan(first);
    expect(last).toBe(current);
    // Each version is stored once; a version no event refers to is not kept beside the current one.
    expect(versions.map((v) => v.version)).toEqual([...new Set([first, last])]);
    expect(versions.filter((v) => v.doc.includes(String(created.description)))).toHaveLength(versions.length);

    // Served, an event still carries the record as it stood at that change.
    const listed = expectServed(await api.get('/v1/events?limit=100&sort=time-ascending'), 200, pageOf(eventStrict)).items;
    const served = await Promise.all(listed.slice(0, 3).map(async (e) => expectServed(await api.get(`/v1/events/${e.id}`), 200, eventStrict)));
    expect(served.map((e) => e.type)).toEqual(events.map((e) => e.type));
    expect(nth(served, 0).payload.object).toEqual(created);
    expect(nth(served, 1).payload.object).toEqual(created);
    expect(nth(served, 1).payload.object).toMatchObject({ status: 'succeeded' });
    expect(nth(served, 2).payload.object).toEqual(now);
    expect(listed.slice(0, 3)).toEqual(served);
  });

  it('trims old events, with the record versions only they referred to, and keeps serving the records', async () => {
    const dir = await tempDir();
    const api = await sandboxOn(dir);
    Object.assign(eventLimits, { keep: 5, slack: 3 });
    const created = expectServed(await api.post('/v1/transactions', directCardBody(VISA, 5_000)), 201, transactionStrict);
    const createdEvents = expectAnswer(await api.get('/v1/events?limit=100&sort=time-ascending'), 200, pageOf(eventStrict)).items;
    expect(createdEvents.map((e) => e.type)).toEqual(['transaction.created', 'transaction.succeeded']);
    expect((await api.post(`/v1/transactions/${created.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 5_000 })).status).toBe(200);
    const voided = expectServed(await api.get(`/v1/transactions/${created.id}`), 200, transactionStrict);
    const versionsOf = () => withDb(dir, (db) => rows<{ version: number }>(db, "SELECT v.version FROM versions v JOIN transactions t ON v.top = 'transactions' AND v.k = t.k ORDER BY v.version").map((r) => r.version));
    // The creation's version and the void's are kept for their events; the record itself is its row.
    expect(await versionsOf()).toEqual([1, 2]);

    const counts: number[] = [];
    const buyers: Array<z.infer<typeof buyerStrict>> = [];
    for (let i = 0; i < 15; i += 1) {
      buyers.push(expectAnswer(await api.post('/v1/buyers', buyerBody()), 201, buyerStrict));
      counts.push(await withDb(dir, (db) => one<{ n: number }>(db, 'SELECT count(*) AS n FROM events').n));
    }
    // Never more than keep + slack events, and never fewer than keep once there were that many.
    expect(Math.max(...counts)).toBeLessThanOrEqual(8);
    expect(counts.slice(5).every((n) => n >= 5)).toBe(true);
    expect(counts.at(-1)).toBeLessThan(18);

    // The transaction's events are gone, and with them the versions only they referred to.
    for (const event of createdEvents) expectError(await api.get(`/v1/events/${event.id}`), 404, 'resource_not_found');
    const kept = await withDb(dir, (db) => ({
      versions: rows<{ version: number }>(db, "SELECT v.version FROM versions v JOIN transactions t ON v.top = 'transactions' AND v.k = t.k WHERE t.id = ?", created.id).map((r) => r.version),
      // Every version left is one a kept event refers to.
      orphans: one<{ n: number }>(db, 'SELECT count(*) AS n FROM versions v WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.src_top = v.top AND v.k = e.src_key AND e.src_version = v.version)').n,
    }));
    expect(kept.versions).toEqual([]);
    expect(kept.orphans).toBe(0);
    // The records themselves are all still served, and so are the events kept.
    expect((await api.get(`/v1/transactions/${created.id}`)).body).toEqual(voided);
    for (const buyer of buyers) expect((await api.get(`/v1/buyers/${buyer.id}`)).status).toBe(200);
    const listed = expectAnswer(await api.get('/v1/events?limit=100&sort=time-ascending'), 200, countedPageOf(eventStrict));
    expect(listed.total).toBe(counts.at(-1));
    expect(listed.items.map((e) => z.parse(buyerStrict, e.payload.object).id)).toEqual(buyers.slice(-listed.total).map((b) => b.id));
    // Changes go on after a trim.
    expect((await api.post('/v1/transactions', directCardBody(VISA))).status).toBe(201);
  });
});
