import { mkdtemp, readFile, rm, truncate, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { statePaths } from '../../src/sandbox/store.js';
import { startChildSandboxes } from './child-sandboxes.js';
import { integrityCheck, one, rows, withDb } from './db-helpers.js';
import { SANDBOX_BUYER_ID, SANDBOX_CARD_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import * as z from 'zod/mini';
import { eventStrict } from '../../src/provider/schemas/events.js';
import { transactionStrict } from '../../src/provider/schemas/transaction.js';
import { cardData, client, countedPageOf, directCardBody, expectAnswer, expectError, pageOf, ref, VISA, type Client } from './helpers.js';
import { clockAdvance, clockOf } from './recurrence-helpers.js';

// What the sandbox's state survives: several OS processes writing at once, a process killed in
// the middle of a write, and a write-ahead log cut short or followed by garbage.

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'payctl-durability-'));
  dirs.push(dir);
  return dir;
}

/** Runs `fn` against an in-process sandbox on `dir`, closing it after. */
async function withSandbox<T>(dir: string, fn: (api: Client) => Promise<T>): Promise<T> {
  const sandbox = await startSandbox({ stateDir: dir });
  try {
    return await fn(client(sandbox.url));
  } finally {
    await sandbox.close();
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every page of a list, for more items than one page holds. */
async function listAll(api: Client, urlPath: string): Promise<Array<z.infer<typeof transactionStrict>>> {
  const items: Array<z.infer<typeof transactionStrict>> = [];
  for (let offset = 0; ; offset += 100) {
    const page = expectAnswer(await api.get(`${urlPath}${urlPath.includes('?') ? '&' : '?'}limit=100&offset=${offset}`), 200, pageOf(transactionStrict));
    items.push(...page.items);
    if (!page.has_more) return items;
  }
}

describe('several OS processes', () => {
  it('lose none of 200 creates made through 4 processes at once', async () => {
    const dir = await tempDir();
    const children = await startChildSandboxes(await tempDir(), dir, 4);
    try {
      const apis = children.urls.map((u) => client(u));
      const refs = Array.from({ length: 200 }, () => ref('four'));
      const replies = await Promise.all(refs.map((reference, i) => (apis[i % 4] as Client).post('/v1/transactions', { ...directCardBody(VISA, 100 + i), reference_id: reference })));
      expect(
        replies.map((r) => r.status),
        JSON.stringify(replies.find((r) => r.status !== 201)?.body),
      ).toEqual(Array(200).fill(201));
      const listed = await listAll(apis[1] as Client, '/v1/transactions');
      expect(listed).toHaveLength(200);
      expect(listed.map((t) => t.reference_id).sort()).toEqual([...refs].sort());
      expect(new Set(listed.map((t) => t.transaction_number)).size).toBe(200);
      expect(new Set(listed.map((t) => t.id))).toEqual(new Set(replies.map((r) => expectAnswer(r, 201, transactionStrict).id)));
    } finally {
      await children.stop();
    }
    expect(await withDb(dir, (db) => one<{ n: number }>(db, "SELECT count(DISTINCT src_key) AS n FROM events WHERE type = 'transaction.created'").n)).toBe(200);
  }, 30_000);
});

/** The checks of a database a writer may have left at any point: intact, and every record's parts present. */
function consistency(stateDir: string) {
  return withDb(stateDir, (db) => ({
    integrity: integrityCheck(db),
    transactions: one<{ n: number }>(db, 'SELECT count(*) AS n FROM transactions').n,
    // A collected sale without its receivables, or a receivable whose transaction is missing.
    collected: one<{ n: number }>(db, "SELECT count(*) AS n FROM transactions WHERE status = 'succeeded'").n,
    missingReceivables: one<{ n: number }>(
      db,
      "SELECT count(*) AS n FROM transactions t WHERE t.status = 'succeeded' AND NOT EXISTS (SELECT 1 FROM receivables r WHERE r.txn = t.id)",
    ).n,
    orphanReceivables: one<{ n: number }>(db, "SELECT count(*) AS n FROM receivables r WHERE NOT EXISTS (SELECT 1 FROM transactions t WHERE t.id = r.txn)").n,
    // A version kept for no event; an event referring to a version that is not there.
    strayVersions: one<{ n: number }>(db, 'SELECT count(*) AS n FROM versions v WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.src_top = v.top AND e.src_key = v.k AND e.src_version = v.version)').n,
    danglingEvents: one<{ n: number }>(
      db,
      // (Positions are bound as numbers and ids as text: a position's key is compared as a number.)
      `SELECT count(*) AS n FROM events e WHERE e.src_top IS NOT NULL AND NOT EXISTS (SELECT 1 FROM versions v WHERE v.top = e.src_top
         AND v.k = (CASE e.src_top WHEN 'transactions' THEN CAST(e.src_key AS INTEGER) ELSE e.src_key END) AND v.version = e.src_version)`,
    ).n,
    // Transactions with the event of their creation (generated volume makes none).
    created: one<{ n: number }>(db, "SELECT count(DISTINCT src_key) AS n FROM events WHERE type = 'transaction.created'").n,
    references: rows<{ reference_id: string }>(db, 'SELECT reference_id FROM transactions ORDER BY k').map((r) => r.reference_id),
  }));
}

describe('what a process keeps between requests', () => {
  it('a change another process commits is seen at once: the clock, a new event, a new sale', async () => {
    const dir = await tempDir();
    const children = await startChildSandboxes(await tempDir(), dir, 1);
    try {
      const other = client(children.urls[0] as string);
      await withSandbox(dir, async (here) => {
        // Both have read the clock and the events, so each keeps them.
        const clock = await clockOf(other);
        expect((await clockOf(here)).offset_seconds).toBe(clock.offset_seconds);
        const eventsBefore = expectAnswer(await other.get('/v1/events?limit=1'), 200, countedPageOf(eventStrict)).total;
        expect(expectAnswer(await here.get('/v1/events?limit=1'), 200, countedPageOf(eventStrict)).total).toBe(eventsBefore);

        expectAnswer(await here.post('/v1/sandbox/clock/advance', { days: 2 }), 200, clockAdvance);
        expect((await clockOf(other)).offset_seconds).toBe(clock.offset_seconds + 2 * 86_400);
        const sale = expectAnswer(await here.post('/v1/transactions', directCardBody(VISA)), 201, transactionStrict);
        const events = expectAnswer(await other.get('/v1/events?limit=1'), 200, countedPageOf(eventStrict));
        expect(events.total).toBeGreaterThan(eventsBefore);
        expect((await other.get(`/v1/transactions/${sale.id}`)).status).toBe(200);

        // And the other way round: a sale made over there gets the next position here.
        const theirs = expectAnswer(await other.post('/v1/transactions', directCardBody(VISA)), 201, transactionStrict);
        const mine = expectAnswer(await here.post('/v1/transactions', directCardBody(VISA)), 201, transactionStrict);
        const numbers = [sale, theirs, mine].map((r) => Number(r.transaction_number));
        expect(new Set(numbers).size).toBe(3);
      });
    } finally {
      await children.stop();
    }
  });

  it('a token another process makes is spent by a sale here, though this process found no token before', async () => {
    const dir = await tempDir();
    const children = await startChildSandboxes(await tempDir(), dir, 1);
    const byCardId = (id: string) => ({
      payment_type: 'credit',
      on_behalf_of: SANDBOX_SELLER_ID,
      amount: 1500,
      currency: 'BRL',
      source: { type: 'card', usage: 'single_use', amount: 1500, currency: 'BRL', card: { id } },
    });
    try {
      const other = client(children.urls[0] as string);
      await withSandbox(dir, async (here) => {
        // A sale on a card on file looks for the card's tokens: here there are none yet, which this process keeps.
        expect((await here.post('/v1/transactions', byCardId(SANDBOX_CARD_ID))).status).toBe(201);
        const token = expectAnswer(await other.post('/v1/cards/tokens', cardData(VISA)), 200, z.looseObject({ id: z.string(), card: z.looseObject({ id: z.string() }) }));
        expect((await here.post('/v1/transactions', byCardId(token.card.id))).status).toBe(201);
        expectError(await other.post('/v1/cards', { token: token.id, customer: SANDBOX_BUYER_ID }), 400, 'token_already_used');
      });
    } finally {
      await children.stop();
    }
  });
});

describe('a process killed in the middle of a write', () => {
  it('leaves the database intact, with every change it committed whole and none of the one it was making', async () => {
    const dir = await tempDir();
    const children = await startChildSandboxes(await tempDir(), dir, 1);
    const api = client(children.urls[0] as string);
    let killed = false;
    try {
      expect((await api.get('/v1/transactions')).status).toBe(200); // seeds
      // Sales in parts of 10,000, each part one write transaction: far more than it makes before the kill.
      const running = api.post('/v1/sandbox/generate', { sales: 20_000, days: 30 }).then(
        (reply) => reply,
        () => undefined,
      );
      const count = () => withDb(dir, (db) => one<{ n: number }>(db, 'SELECT count(*) AS n FROM transactions').n);
      // The first part commits after 10,000 sales: seconds alone, far longer on a loaded machine.
      const deadline = Date.now() + 60_000;
      while ((await count()) === 0 && Date.now() < deadline) await wait(25);
      expect(await count()).toBeGreaterThan(0);
      // Well into the next batch's write.
      await wait(300);
      process.kill(children.pids[0] as number, 'SIGKILL');
      killed = true;
      expect(await running).toBeUndefined();
    } finally {
      await children.stop();
    }
    expect(killed).toBe(true);

    const after = await withSandbox(dir, async (next) => {
      const listed = expectAnswer(await next.get('/v1/transactions?limit=1'), 200, countedPageOf(transactionStrict));
      // Still writable.
      const more = expectAnswer(await next.post('/v1/transactions', directCardBody(VISA)), 201, transactionStrict);
      return { total: listed.total, extra: more.reference_id };
    });
    const found = await consistency(dir);
    expect(found.integrity).toEqual(['ok']);
    expect(found.transactions).toBe(after.total + 1);
    expect(after.total).toBeGreaterThan(0);
    expect(after.total).toBeLessThan(20_000);
    // The sales made are exactly the first ones, with nothing of a sale half made.
    expect(found.references).toEqual([...Array.from({ length: after.total }, (_, i) => `generated-${i + 1}`), after.extra]);
    expect(found.collected).toBeGreaterThan(0);
    expect(found).toMatchObject({ missingReceivables: 0, orphanReceivables: 0, strayVersions: 0, danglingEvents: 0 });
  }, 120_000);
});

interface WalFrame {
  offset: number;
  commit: boolean;
}

/** The frames of the current generation of a write-ahead log (those salted as its header is). */
function walFrames(wal: Buffer): { pageSize: number; frames: WalFrame[] } {
  expect(wal.length).toBeGreaterThan(32);
  expect([0x377f0682, 0x377f0683]).toContain(wal.readUInt32BE(0));
  const pageSize = wal.readUInt32BE(8);
  const salt = wal.subarray(16, 24);
  const frames: WalFrame[] = [];
  for (let offset = 32; offset + 24 + pageSize <= wal.length; offset += 24 + pageSize) {
    if (!wal.subarray(offset + 8, offset + 16).equals(salt)) break;
    frames.push({ offset, commit: wal.readUInt32BE(offset + 4) !== 0 });
  }
  return { pageSize, frames };
}

describe('a write-ahead log damaged on disk', () => {
  /**
   * Five sales made one by one through a process that is then killed, so its log is left as it
   * was written (a clean close would have folded it into the database and removed it).
   */
  async function afterFiveSales(): Promise<{ dir: string; wal: string; ids: string[] }> {
    const dir = await tempDir();
    const children = await startChildSandboxes(await tempDir(), dir, 1);
    const ids: string[] = [];
    try {
      const api = client(children.urls[0] as string);
      for (let i = 0; i < 5; i += 1) {
        ids.push(expectAnswer(await api.post('/v1/transactions', directCardBody(VISA)), 201, transactionStrict).id);
      }
      process.kill(children.pids[0] as number, 'SIGKILL');
    } finally {
      await children.stop();
    }
    return { dir, wal: `${statePaths(dir).file}-wal`, ids };
  }

  async function expectServes(dir: string, present: string[], absent: string[]): Promise<void> {
    await withSandbox(dir, async (api) => {
      const listed = expectAnswer(await api.get('/v1/transactions?limit=100'), 200, pageOf(transactionStrict));
      expect(listed.items.map((t) => t.id).sort()).toEqual([...present].sort());
      for (const id of present) expect((await api.get(`/v1/transactions/${id}`)).status).toBe(200);
      for (const id of absent) expect((await api.get(`/v1/transactions/${id}`)).status).toBe(404);
      expect((await api.post('/v1/transactions', directCardBody(VISA))).status).toBe(201);
    });
    const found = await consistency(dir);
    expect(found.integrity).toEqual(['ok']);
    expect(found.collected).toBe(present.length + 1);
    expect(found).toMatchObject({ transactions: present.length + 1, missingReceivables: 0, orphanReceivables: 0, strayVersions: 0, danglingEvents: 0, created: present.length + 1 });
  }

  it('cut off in the middle of its last frame: the state up to the commit before it', async () => {
    const { dir, wal, ids } = await afterFiveSales();
    const { pageSize, frames } = walFrames(await readFile(wal));
    const commits = frames.filter((f) => f.commit);
    expect(commits.length).toBeGreaterThanOrEqual(6); // the seeding and the five sales at least
    const last = frames.at(-1) as WalFrame;
    // The log ends with the last sale's commit.
    expect(last.commit).toBe(true);
    await truncate(wal, last.offset + 24 + pageSize / 2);
    await expectServes(dir, ids.slice(0, 4), ids.slice(4));
  }, 20_000);

  it('followed by garbage: all of it, the garbage ignored', async () => {
    const { dir, wal, ids } = await afterFiveSales();
    const { pageSize, frames } = walFrames(await readFile(wal));
    // Something shaped like one more frame (the same salt, a page's worth of bytes) but not one.
    const header = await readFile(wal).then((b) => b.subarray(0, 32));
    const fake = Buffer.alloc(24 + pageSize, 0x5a);
    fake.writeUInt32BE(2, 0);
    fake.writeUInt32BE(1000, 4);
    header.copy(fake, 8, 16, 24);
    await appendFile(wal, Buffer.concat([fake, Buffer.from('garbage after the last frame')]));
    expect(frames.at(-1)?.commit).toBe(true);
    await expectServes(dir, ids, []);
  }, 20_000);

  it('left as garbage beside a database closed cleanly: ignored', async () => {
    const dir = await tempDir();
    const ids = await withSandbox(dir, async (api) => {
      const made: string[] = [];
      for (let i = 0; i < 3; i += 1) made.push(expectAnswer(await api.post('/v1/transactions', directCardBody(VISA)), 201, transactionStrict).id);
      return made;
    });
    const wal = `${statePaths(dir).file}-wal`;
    await writeFile(wal, Buffer.alloc(5000, 0xa5));
    await expectServes(dir, ids, []);
  });
});
