import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_ACCOUNT_ID, SANDBOX_BUYER_ID, SANDBOX_CARD_ID, SANDBOX_MARKETPLACE_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { transactionStrict } from '../../src/provider/schemas/transaction.js';
import { IdCodes } from '../../src/sandbox/db/id-codes.js';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { accountIdFor } from '../../src/sandbox/ledger.js';
import { marketplaceName, marketplaceStateDir } from '../../src/sandbox/marketplaces.js';
import { wipeState } from '../../src/sandbox/store.js';
import { spawnPayctl } from '../helpers/serve.js';
import { idCodesOf, one, rows, withDb } from './db-helpers.js';
import { client, directCardBody, expectAnswer, pageOf, VISA, type Client } from './helpers.js';

// The ids a sandbox database makes are its numbers 1, 2, 3, … mixed with its salt: they look like
// the provider's, the database keeps the number, and any other id is kept as the text it is.

describe('id codes', () => {
  const codes = new IdCodes(0x1234_5678);

  it('makes ids of 32 hex characters that come back as their numbers', () => {
    const made = [1, 2, 3, 1000, 2 ** 32 + 5, 2 ** 53 - 1].map((n) => codes.text(n));
    for (const id of made) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(made).size).toBe(made.length);
    expect(made.map((id) => codes.code(id))).toEqual([1, 2, 3, 1000, 2 ** 32 + 5, 2 ** 53 - 1]);
    for (const n of [1, 2, 1000, 2 ** 40]) expect(codes.id(codes.code(codes.text(n)))).toBe(codes.text(n));
    // Numbers one apart do not make ids alike.
    expect(made[0]?.slice(0, 8)).not.toBe(made[1]?.slice(0, 8));
  });

  it('codes an id it made lately as one it made long ago, and another database keeps it as text', () => {
    const maker = new IdCodes(0x1234_5678);
    const other = new IdCodes(0x1234_5679);
    const made = Array.from({ length: 5000 }, (_, i) => maker.make(i + 1));
    expect(made[0]).toBe(codes.text(1));
    expect(made.map((id) => maker.code(id))).toEqual(made.map((_, i) => i + 1));
    expect(other.code(made[4999] as string)).toBe(made[4999]);
  });

  it('keeps an id another database made, or any other text, as it is', () => {
    const other = new IdCodes(0x1234_5679);
    expect(codes.code(other.text(7))).toBe(other.text(7));
    for (const id of ['01a211c5ba384b34ad27d76238686c7c', 'abc', '', '123', 'F'.repeat(32), `${codes.text(7)} `]) {
      expect(codes.code(id)).toBe(id);
      expect(codes.id(codes.code(id))).toBe(id);
    }
  });

  it("keeps the sandbox account's fixed ids as small numbers", () => {
    expect(accountIdFor(SANDBOX_SELLER_ID)).toBe(SANDBOX_ACCOUNT_ID);
    for (const id of [SANDBOX_SELLER_ID, SANDBOX_ACCOUNT_ID, SANDBOX_MARKETPLACE_ID, SANDBOX_BUYER_ID, SANDBOX_CARD_ID]) {
      const kept = codes.code(id);
      expect(kept).toBeLessThan(0);
      expect(codes.id(kept)).toBe(id);
    }
  });
});

describe('ids in the sandbox database', () => {
  const dirs: string[] = [];
  const servers: SandboxHandle[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  async function sandbox(): Promise<{ dir: string; api: Client }> {
    const dir = await mkdtemp(path.join(tmpdir(), 'payctl-ids-'));
    dirs.push(dir);
    const handle = await startSandbox({ stateDir: dir });
    servers.push(handle);
    return { dir, api: client(handle.url) };
  }

  it('keeps the ids it made as numbers, serves and finds them as ids, and never makes one twice, a reset included', async () => {
    const { dir, api } = await sandbox();
    const first = expectAnswer(await api.post('/v1/transactions', directCardBody(VISA, 5_000)), 201, transactionStrict);
    expect(first.id).toMatch(/^[0-9a-f]{32}$/);
    expect((await api.get(`/v1/transactions/${first.id}`)).body).toEqual(first);
    expect((await api.get(`/v1/receipts/${first.sales_receipt}`)).status).toBe(200);
    const kept = await withDb(dir, (db) => one<{ id: unknown; sales_receipt: unknown; on_behalf_of: unknown }>(db, 'SELECT id, sales_receipt, on_behalf_of FROM transactions'));
    expect(typeof kept.id).toBe('number');
    expect(typeof kept.sales_receipt).toBe('number');
    expect(kept.on_behalf_of).toBeLessThan(0);

    // An id of the same shape that this database did not make is not found, and not taken for one.
    expect((await api.get('/v1/transactions/01a211c5ba384b34ad27d76238686c7c')).status).toBe(404);

    await wipeState(dir);
    const after = expectAnswer(await api.post('/v1/transactions', directCardBody(VISA, 5_000)), 201, transactionStrict);
    expect(after.id).not.toBe(first.id);
    expect(after.sales_receipt).not.toBe(first.sales_receipt);
    const salts = await withDb(dir, (db) => rows<{ name: string }>(db, "SELECT name FROM meta WHERE name IN ('id_salt', 'ids')"));
    expect(salts.map((r) => r.name).sort()).toEqual(['id_salt', 'ids']);
  });

  it('makes other ids in another database', async () => {
    const a = await sandbox();
    const b = await sandbox();
    const one = expectAnswer(await a.api.post('/v1/transactions', directCardBody(VISA, 5_000)), 201, transactionStrict);
    const two = expectAnswer(await b.api.post('/v1/transactions', directCardBody(VISA, 5_000)), 201, transactionStrict);
    expect(one.id).not.toBe(two.id);
    expect((await b.api.get(`/v1/transactions/${one.id}`)).status).toBe(404);
  });

  it('serves two marketplaces of their own salts from one process, their requests interleaved: each makes, keeps and finds its own ids', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'payctl-ids-served-'));
    dirs.push(dir);
    const handle = await startSandbox({ stateDir: dir, isolateKeys: true });
    servers.push(handle);
    const keys = ['zpk_test_alice_0123456789abcdef', 'zpk_test_bob_fedcba9876543210'];
    const apis = keys.map((key) => client(handle.url, key));
    // Sales of both, sent at once, so their changes are made in the same turns of the event loop.
    const sales = await Promise.all(Array.from({ length: 12 }, (_, i) => (apis[i % 2] as Client).post('/v1/transactions', directCardBody(VISA, 1_000 + i))));
    expect(sales.map((reply) => reply.status)).toEqual(sales.map(() => 201));
    const mine = (m: number) => sales.filter((_, i) => i % 2 === m).map((reply) => expectAnswer(reply, 201, transactionStrict));
    // Each refunds its own, read back through its codes, while the other reads and refunds its own.
    const refunds = await Promise.all([0, 1, 0, 1].map((m, i) => (apis[m] as Client).post(`/v1/transactions/${(mine(m)[i] as { id: string }).id}/void`, { amount: 100, on_behalf_of: SANDBOX_SELLER_ID })));
    expect(refunds.map((reply) => reply.status)).toEqual([200, 200, 200, 200]);
    for (const m of [0, 1]) {
      const api = apis[m] as Client;
      for (const sale of mine(m)) {
        const got = expectAnswer(await api.get(`/v1/transactions/${sale.id}`), 200, transactionStrict);
        expect([got.id, got.sales_receipt]).toEqual([sale.id, sale.sales_receipt]);
        // The other marketplace has no such sale.
        expect((await (apis[1 - m] as Client).get(`/v1/transactions/${sale.id}`)).status).toBe(404);
      }
      const listed = expectAnswer(await api.get('/v1/transactions?limit=100'), 200, pageOf(transactionStrict)).items.map((tx) => tx.id);
      expect(listed).toEqual(expect.arrayContaining(mine(m).map((sale) => sale.id)));
      expect(listed.filter((id) => mine(1 - m).some((sale) => sale.id === id))).toEqual([]);
      // Kept as this database's numbers: an id coded with the other's salt would be kept as its
      // text, and a number read back with it would be another id.
      const stateDir = marketplaceStateDir(dir, marketplaceName(keys[m] as string)) as string;
      const codes = await idCodesOf(stateDir);
      const numbers = mine(m).map((sale) => codes.code(sale.id));
      expect(numbers).toEqual(numbers.map(() => expect.any(Number)));
      const kept = await withDb(stateDir, (db) => rows<{ id: unknown; sales_receipt: unknown }>(db, `SELECT id, sales_receipt FROM transactions WHERE id IN (${numbers.join(', ')}) ORDER BY id`));
      expect(kept.map((row) => [codes.id(row.id), codes.id(row.sales_receipt)])).toEqual(
        [...mine(m)].sort((a, b) => (codes.code(a.id) as number) - (codes.code(b.id) as number)).map((sale) => [sale.id, sale.sales_receipt]),
      );
    }
  });

  it('makes no id twice when two processes trade on one database at once', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'payctl-ids-two-'));
    dirs.push(home);
    // Each process runs its own embedded sandbox on the same state directory's database.
    const runs = [spawnPayctl(['sandbox', 'generate', '--sales', '300', '--days', '2', '-q', '-o', 'json'], home, {}), spawnPayctl(['sandbox', 'generate', '--sales', '300', '--days', '2', '-q', '-o', 'json'], home, {})];
    const codes = await Promise.all(runs.map((run) => run.exited));
    expect(codes, runs.map((run) => run.stderr()).join('\n')).toEqual([0, 0]);
    // The database of PAYCTL_HOME's state directory.
    const dir = path.join(home, 'state');
    const kept = await withDb(dir, (db) => one<{ n: number; ids: number; receipts: number }>(db, 'SELECT count(*) AS n, count(DISTINCT id) AS ids, count(DISTINCT sales_receipt) AS receipts FROM transactions'));
    expect(kept).toEqual({ n: 600, ids: 600, receipts: 600 });
    const entries = await withDb(dir, (db) => one<{ n: number; ids: number }>(db, 'SELECT count(*) AS n, count(DISTINCT id) AS ids FROM balance_entries'));
    expect(entries.ids).toBe(entries.n);
  }, 60_000);
});
