// A sandbox database written by another build of payctl is not read: nothing of payctl was
// released before this format, so such a database is recreated with a fresh seed, and the user is
// told in one line naming it.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_BUYER_ID } from '../../src/provider/sandbox-account.js';
import { listPageSchema } from '../../src/provider/schemas/index.js';
import { transactionStrict } from '../../src/provider/schemas/transaction.js';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { DB_FORMAT } from '../../src/sandbox/db/schema.js';
import { statePaths } from '../../src/sandbox/store.js';
import { one, rows, withDb } from './db-helpers.js';
import { client, directCardBody, expectAnswer } from './helpers.js';

let dir: string | undefined;
let sandbox: SandboxHandle | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A state directory holding a database as another build left it: `format` in meta (none when null), and a sale. */
async function otherBuildDb(format: string | null): Promise<string> {
  dir = await mkdtemp(path.join(tmpdir(), 'payctl-db-format-'));
  await mkdir(statePaths(dir).dir, { recursive: true, mode: 0o700 });
  await withDb(dir, (db) => {
    db.exec('CREATE TABLE meta (name TEXT PRIMARY KEY, doc TEXT NOT NULL)');
    if (format !== null) db.prepare("INSERT INTO meta (name, doc) VALUES ('format', ?)").run(format);
    db.exec('CREATE TABLE transactions (k INTEGER PRIMARY KEY, doc TEXT NOT NULL, id TEXT)');
    db.prepare('INSERT INTO transactions (k, doc, id) VALUES (0, ?, ?)').run(JSON.stringify({ txn: { id: 'a'.repeat(32) } }), 'a'.repeat(32));
  });
  return dir;
}

async function start(stateDir: string, notices: string[]): Promise<ReturnType<typeof client>> {
  sandbox = await startSandbox({ stateDir, onNotice: (line) => notices.push(line) });
  return client(sandbox.url);
}

describe('a database of another format', () => {
  it.each([
    ['an older format', '3', '3'],
    ['no format at all', null, 'unknown'],
  ])('%s: recreated with a fresh seed, said once, naming the file; requests then work', async (_what, format, shown) => {
    const stateDir = await otherBuildDb(format);
    const notices: string[] = [];
    const api = await start(stateDir, notices);

    expect(expectAnswer(await api.get('/v1/transactions'), 200, listPageSchema).total).toBe(0);
    expect(notices).toEqual([
      `the sandbox database ${statePaths(stateDir).file} was of another payctl build (format ${shown}, this one uses ${DB_FORMAT}); it was recreated with a fresh seed`,
    ]);
    expect((await api.get(`/v1/buyers/${SANDBOX_BUYER_ID}`)).status).toBe(200);
    expect((await api.post('/v1/transactions', directCardBody())).status).toBe(201);
    await withDb(stateDir, (db) => {
      expect(one<{ doc: string }>(db, "SELECT doc FROM meta WHERE name = 'format'").doc).toBe(String(DB_FORMAT));
      expect(rows(db, 'SELECT id FROM transactions')).toHaveLength(1);
    });
  });

  it("this build's database is kept as it is, and nothing is said", async () => {
    const stateDir = await otherBuildDb('15');
    const first: string[] = [];
    let api = await start(stateDir, first);
    const sale = expectAnswer(await api.post('/v1/transactions', directCardBody()), 201, transactionStrict);
    expect(first).toHaveLength(1);
    await sandbox?.close();

    const second: string[] = [];
    api = await start(stateDir, second);
    expect((await api.get(`/v1/transactions/${sale.id}`)).status).toBe(200);
    expect(second).toEqual([]);
  });
});
