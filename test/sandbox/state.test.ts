import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_BUYER_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { resetSandbox, startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { transactionStrict } from '../../src/provider/schemas/transaction.js';
import { cardData, client, CVV, DECLINED, directCardBody, expectAnswer, expectError, MASTERCARD, pageOf, ref, VISA } from './helpers.js';
import { statePaths } from '../../src/sandbox/store.js';
import { startChildSandboxes } from './child-sandboxes.js';
import { DB_FILES, expectNoCardData, holdWriteLock, integrityCheck, withDb } from './db-helpers.js';

const dirs: string[] = [];

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'payctl-sandbox-state-'));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full)));
    else out.push(full);
  }
  return out;
}

describe('the state file', () => {
  it('is created and seeded on first use, in a 0700 directory with mode 0600', async () => {
    const dir = await tempDir();
    const sandbox = await startSandbox({ stateDir: dir });
    try {
      const api = client(sandbox.url);
      const charge = await api.post('/v1/transactions', { payment_type: 'credit', on_behalf_of: SANDBOX_SELLER_ID, customer: SANDBOX_BUYER_ID, amount: 100, currency: 'BRL' });
      expect(charge.status).toBe(201);
      const files = await filesUnder(dir);
      // The database, and (WAL mode) its write-ahead log and shared-memory index while it is open.
      const names = files.map((f) => path.relative(path.join(dir, 'sandbox'), f)).sort();
      expect(names).toContain('sandbox.db');
      expect(names.every((n) => (DB_FILES as readonly string[]).includes(n)), names.join(', ')).toBe(true);
      expect((await stat(path.join(dir, 'sandbox'))).mode & 0o777).toBe(0o700);
      // The log holds the same records as the database, so it is as private.
      for (const file of files) expect({ file: path.basename(file), mode: ((await stat(file)).mode & 0o777).toString(8) }).toEqual({ file: path.basename(file), mode: '600' });
    } finally {
      await sandbox.close();
    }
  });

  it('outlives the server: a new server on the same directory sees the same transactions', async () => {
    const dir = await tempDir();
    const first = await startSandbox({ stateDir: dir });
    const created = await client(first.url).post('/v1/transactions', directCardBody(VISA));
    await first.close();
    await first.close(); // idempotent
    await expect(fetch(`${first.url}/v1/transactions`)).rejects.toThrow();
    const second = await startSandbox({ stateDir: dir });
    try {
      const got = await client(second.url).get(`/v1/transactions/${expectAnswer(created, 201, transactionStrict).id}`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(created.body);
    } finally {
      await second.close();
    }
  });

  it('never holds a card number or CVV, whatever path the card came in by', async () => {
    const dir = await tempDir();
    const sandbox = await startSandbox({ stateDir: dir });
    const pans = [VISA, MASTERCARD, DECLINED, '378282246310005'];
    const all = [...pans, '4111111111111112'];
    try {
      const api = client(sandbox.url);
      for (const pan of pans) {
        expect((await api.post('/v1/transactions', directCardBody(pan))).status).toBe(201);
        expect((await api.post('/v1/cards/tokens', cardData(pan))).status).toBe(200);
      }
      // Rejected requests must not leave the card behind either.
      expect((await api.post('/v1/transactions', directCardBody('4111111111111112'))).status).toBe(400);
      // While the server is open (the log not yet folded into the database) …
      await expectNoCardData(dir, all, CVV);
    } finally {
      await sandbox.close();
    }
    // … and after it closed.
    await expectNoCardData(dir, all, CVV);
  });
});

describe('concurrency', () => {
  it('loses no write when 20 creates race through 4 servers on one state directory', async () => {
    const dir = await tempDir();
    const servers = await Promise.all([0, 1, 2, 3].map(() => startSandbox({ stateDir: dir })));
    try {
      const refs = Array.from({ length: 20 }, () => ref('race'));
      const replies = await Promise.all(
        refs.map((reference, i) => client((servers[i % 4] as SandboxHandle).url).post('/v1/transactions', { ...directCardBody(VISA, 100 + i), reference_id: reference })),
      );
      expect(replies.map((r) => r.status)).toEqual(Array(20).fill(201));
      const listed = expectAnswer(await client((servers[3] as SandboxHandle).url).get('/v1/transactions?limit=100'), 200, pageOf(transactionStrict));
      expect(listed.total).toBe(20);
      expect(listed.items.map((t) => t.reference_id).sort()).toEqual([...refs].sort());
      expect(new Set(listed.items.map((t) => t.transaction_number)).size).toBe(20);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });

  it('loses no write when the servers are separate OS processes', async () => {
    const dir = await tempDir();
    const children = await startChildSandboxes(await tempDir(), dir, 4);
    const { urls } = children;
    try {
      const refs = Array.from({ length: 20 }, () => ref('proc'));
      const replies = await Promise.all(refs.map((reference, i) => client(urls[i % 4] as string).post('/v1/transactions', { ...directCardBody(VISA), reference_id: reference })));
      expect(replies.map((r) => r.status), JSON.stringify(replies.find((r) => r.status !== 201)?.body)).toEqual(Array(20).fill(201));
      const listed = expectAnswer(await client(urls[0] as string).get('/v1/transactions?limit=100'), 200, pageOf(transactionStrict));
      expect(listed.items.map((t) => t.reference_id).sort()).toEqual([...refs].sort());
    } finally {
      await children.stop();
    }
  }, 20_000);

  it('waits for a lock held elsewhere instead of writing around it', async () => {
    const dir = await tempDir();
    const sandbox = await startSandbox({ stateDir: dir });
    try {
      const api = client(sandbox.url);
      await api.get('/v1/transactions'); // seeds
      // Another process is in the middle of a change.
      const lock = await holdWriteLock(statePaths(dir).file, 300);
      const reply = await api.post('/v1/transactions', directCardBody(VISA));
      const at = Date.now();
      const releasedAt = await lock.released;
      expect(reply.status).toBe(201);
      expect(at).toBeGreaterThanOrEqual(releasedAt);
      expect((await api.get(`/v1/transactions/${expectAnswer(reply, 201, transactionStrict).id}`)).status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });

  it('a fresh sandbox opened while another process holds its new database waits for it, not 500', async () => {
    const dir = await tempDir();
    await mkdir(statePaths(dir).dir, { recursive: true, mode: 0o700 });
    // Another process has just created the database (not yet in WAL mode) and is writing to it:
    // switching it to WAL takes a lock SQLite's busy timeout does not wait for.
    const lock = await holdWriteLock(statePaths(dir).file, 300);
    const sandbox = await startSandbox({ stateDir: dir });
    try {
      const reply = await client(sandbox.url).post('/v1/transactions', directCardBody(VISA));
      const at = Date.now();
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      expect(at).toBeGreaterThanOrEqual(await lock.released);
    } finally {
      await sandbox.close();
    }
  });

  it('is not held up by a process that died in the middle of a change', async () => {
    const dir = await tempDir();
    const sandbox = await startSandbox({ stateDir: dir });
    try {
      const api = client(sandbox.url);
      await api.get('/v1/transactions'); // seeds
      const lock = await holdWriteLock(statePaths(dir).file, 60_000);
      await lock.kill();
      const started = Date.now();
      const reply = await api.post('/v1/transactions', directCardBody(VISA));
      expect(reply.status).toBe(201);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await sandbox.close();
    }
  });
});

describe('resetSandbox', () => {
  it('wipes the state; the next request re-seeds', async () => {
    const dir = await tempDir();
    const sandbox = await startSandbox({ stateDir: dir });
    try {
      const api = client(sandbox.url);
      const created = expectAnswer(await api.post('/v1/transactions', directCardBody(VISA)), 201, transactionStrict);
      expect(expectAnswer(await api.get('/v1/transactions'), 200, pageOf(transactionStrict)).total).toBe(1);
      await resetSandbox(dir);
      expect(expectAnswer(await api.get('/v1/transactions'), 200, pageOf(transactionStrict)).total).toBe(0);
      expectError(await api.get(`/v1/transactions/${created.id}`), 404, 'resource_not_found');
      // The seeded buyer and card are back.
      const charge = await api.post('/v1/transactions', { payment_type: 'credit', on_behalf_of: SANDBOX_SELLER_ID, customer: SANDBOX_BUYER_ID, amount: 100, currency: 'BRL' });
      expect(charge.status).toBe(201);
    } finally {
      await sandbox.close();
    }
  });

  it('recovers a corrupt database (500 until reset)', async () => {
    const dir = await tempDir();
    const first = await startSandbox({ stateDir: dir });
    await client(first.url).post('/v1/transactions', directCardBody(VISA));
    await first.close();
    // Not a database at all any more, where the server will look next.
    const { dir: sandboxDir, file } = statePaths(dir);
    for (const name of DB_FILES.slice(1)) await rm(path.join(sandboxDir, name), { force: true });
    await writeFile(file, '{"half": '.repeat(1000));
    const sandbox = await startSandbox({ stateDir: dir });
    try {
      const api = client(sandbox.url);
      expect(expectError(await api.get('/v1/transactions'), 500, 'server_api_error').message).toMatch(/payctl sandbox reset/);
      // It stays broken, not half-working, until reset.
      expectError(await api.post('/v1/transactions', directCardBody(VISA)), 500, 'server_api_error');
      await resetSandbox(dir);
      expect(expectAnswer(await api.get('/v1/transactions'), 200, pageOf(transactionStrict)).total).toBe(0);
      expect((await api.post('/v1/transactions', directCardBody(VISA))).status).toBe(201);
    } finally {
      await sandbox.close();
    }
    expect(await withDb(dir, integrityCheck)).toEqual(['ok']);
  });
});
