import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { afterAll, describe, expect, it } from 'vitest';
import {
  resetSandbox,
  SANDBOX_BUYER_ID,
  SANDBOX_SELLER_ID,
  startSandbox,
  type SandboxHandle,
} from '../../src/sandbox/index.js';
import { cardData, client, CVV, DECLINED, directCardBody, expectError, MASTERCARD, ref, VISA, type Json } from './helpers.js';
import { statePaths } from '../../src/sandbox/store.js';
import { startChildSandboxes } from './child-sandboxes.js';

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
      // The snapshot, and the log of the change the charge made since.
      const names = files.map((f) => path.relative(path.join(dir, 'sandbox'), f)).sort();
      expect(names).toEqual([expect.stringMatching(/^changes-[0-9a-f]{16}\.ndjson$/), 'state.ndjson']);
      expect((await stat(path.join(dir, 'sandbox'))).mode & 0o777).toBe(0o700);
      for (const file of files) expect((await stat(file)).mode & 0o777).toBe(0o600);
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
      const got = await client(second.url).get(`/v1/transactions/${created.body.id}`);
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
    try {
      const api = client(sandbox.url);
      for (const pan of pans) {
        expect((await api.post('/v1/transactions', directCardBody(pan))).status).toBe(201);
        expect((await api.post('/v1/cards/tokens', cardData(pan))).status).toBe(200);
      }
      // Rejected requests must not leave the card behind either.
      expect((await api.post('/v1/transactions', directCardBody('4111111111111112'))).status).toBe(400);
    } finally {
      await sandbox.close();
    }
    const files = await filesUnder(dir);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      for (const pan of [...pans, '4111111111111112']) expect(text, `${pan} in ${file}`).not.toContain(pan);
      expect(text).not.toContain(`"${CVV}"`);
      expect(text).not.toMatch(/card_number|security_code/);
      // No stored value at all equals the CVV, whatever its key.
      const values: unknown[] = [];
      const walk = (v: unknown): void => {
        if (v && typeof v === 'object') Object.values(v).forEach(walk);
        else values.push(v);
      };
      // Snapshot and change log alike: one JSON document per line.
      for (const line of text.split('\n').filter(Boolean)) walk(JSON.parse(line));
      expect(values).not.toContain(CVV);
      expect(values).not.toContain(Number(CVV));
    }
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
      const listed = await client((servers[3] as SandboxHandle).url).get('/v1/transactions?limit=100');
      expect(listed.body.total).toBe(20);
      expect(listed.body.items.map((t: Json) => t.reference_id).sort()).toEqual([...refs].sort());
      expect(new Set(listed.body.items.map((t: Json) => t.transaction_number)).size).toBe(20);
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
      expect(replies.map((r) => r.status)).toEqual(Array(20).fill(201));
      const listed = await client(urls[0] as string).get('/v1/transactions?limit=100');
      expect(listed.body.items.map((t: Json) => t.reference_id).sort()).toEqual([...refs].sort());
    } finally {
      await children.stop();
    }
  }, 20_000);

  it('waits for a lock held elsewhere instead of writing around it', async () => {
    const dir = await tempDir();
    const sandbox = await startSandbox({ stateDir: dir });
    try {
      const api = client(sandbox.url);
      await api.get('/v1/transactions'); // seeds, so the lock target exists
      const stateFile = statePaths(dir).file;
      const release = await lockfile.lock(stateFile, { realpath: false });
      const pending = api.post('/v1/transactions', directCardBody(VISA)).then((reply) => ({ reply, at: Date.now() }));
      await new Promise((r) => setTimeout(r, 300));
      const releasedAt = Date.now();
      await release();
      const { reply, at } = await pending;
      expect(reply.status).toBe(201);
      expect(at).toBeGreaterThanOrEqual(releasedAt);
    } finally {
      await sandbox.close();
    }
  });

  it('takes over a stale lock left by a process that died', async () => {
    const dir = await tempDir();
    const lockDir = `${statePaths(dir).file}.lock`;
    await mkdir(lockDir, { recursive: true });
    const old = new Date(Date.now() - 60_000);
    await utimes(lockDir, old, old);
    const sandbox = await startSandbox({ stateDir: dir });
    try {
      const started = Date.now();
      const reply = await client(sandbox.url).post('/v1/transactions', directCardBody(VISA));
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
      const created = await api.post('/v1/transactions', directCardBody(VISA));
      expect((await api.get('/v1/transactions')).body.total).toBe(1);
      await resetSandbox(dir);
      const listed = await api.get('/v1/transactions');
      expect(listed.body.total).toBe(0);
      expectError(await api.get(`/v1/transactions/${created.body.id}`), 404, 'resource_not_found');
      // The seeded buyer and card are back.
      const charge = await api.post('/v1/transactions', { payment_type: 'credit', on_behalf_of: SANDBOX_SELLER_ID, customer: SANDBOX_BUYER_ID, amount: 100, currency: 'BRL' });
      expect(charge.status).toBe(201);
    } finally {
      await sandbox.close();
    }
  });

  it('recovers a corrupt state file (500 until reset)', async () => {
    const dir = await tempDir();
    const sandbox = await startSandbox({ stateDir: dir });
    try {
      const api = client(sandbox.url);
      await api.get('/v1/transactions');
      await writeFile(statePaths(dir).file, '{"half": ');
      const broken = await api.get('/v1/transactions');
      expectError(broken, 500, 'server_api_error');
      expect(broken.body.error.message).toMatch(/reset/);
      await resetSandbox(dir);
      expect((await api.get('/v1/transactions')).status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });
});
