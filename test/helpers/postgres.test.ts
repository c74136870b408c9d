import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freshDatabase, postgresForFile } from './postgres.js';

const server = postgresForFile();

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  // A server stopped or killed under an open connection reports it here; the queries reject anyway.
  client.on('error', () => {});
  await client.connect();
  return client;
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = await connect(url);
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Real, effective, saved and filesystem uid of a process. */
function uids(pid: number): number[] {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Uid:'));
  if (!line) throw new Error(`no Uid line for process ${pid}`);
  return line.split(/\s+/).slice(1).filter(Boolean).map(Number);
}

describe('a PostgreSQL server per test file', () => {
  it('serves the database payctl, as the role payctl, at its url', async () => {
    const { url, port } = server();
    expect(url).toBe(`postgres://payctl@127.0.0.1:${port}/payctl`);
    const rows = await query<{ one: number; db: string; role: string }>(url, 'SELECT 1 AS one, current_database() AS db, current_user AS role');
    expect(rows).toEqual([{ one: 1, db: 'payctl', role: 'payctl' }]);
  });

  it('freshDatabase: an empty database of its own on the same server', async () => {
    const url = await freshDatabase(server());
    expect(url).toMatch(new RegExp(`^postgres://payctl@127\\.0\\.0\\.1:${server().port}/test_[0-9a-f]{12}$`));
    const name = url.slice(url.lastIndexOf('/') + 1);
    await query(url, 'CREATE TABLE mine (id int)');
    expect(await query(url, 'SELECT current_database() AS db')).toEqual([{ db: name }]);
    // Its table is not in the file's database, nor in another fresh one.
    const other = await freshDatabase(server(), 'another one');
    expect(other).toBe(`postgres://payctl@127.0.0.1:${server().port}/another%20one`);
    for (const elsewhere of [server().url, other]) {
      expect(await query(elsewhere, "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'")).toEqual([{ n: 0 }]);
    }
  });

  it('does not run as root: the postmaster, its backends and the data directory belong to another user', async () => {
    const { url, dataDir } = server();
    // Open while the backend serving it is looked at: it exits with the connection.
    const client = await connect(url);
    try {
      const { rows } = await client.query<{ dir: string; backend: number }>("SELECT current_setting('data_directory') AS dir, pg_backend_pid() AS backend");
      expect(rows[0]!.dir).toBe(dataDir);
      const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      for (const pid of [postmaster, rows[0]!.backend]) {
        const ids = uids(pid);
        expect(ids).toHaveLength(4);
        expect(ids.every((id) => id !== 0)).toBe(true);
      }
    } finally {
      await client.end();
    }
    expect(statSync(dataDir).uid).not.toBe(0);
  });

  it('stop() refuses connections; start() brings back the same data on the same port', async () => {
    const pgServer = server();
    const { port } = pgServer;
    const url = await freshDatabase(pgServer);
    await query(url, 'CREATE TABLE kept (v text); INSERT INTO kept VALUES ($$still here$$)');

    await pgServer.stop();
    await expect(connect(url)).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    await pgServer.start();
    expect(pgServer.port).toBe(port);
    expect(await query(url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    expect(await query(url, 'SELECT v FROM kept')).toEqual([{ v: 'still here' }]);
  });

  it('kill() drops open connections at once; start() recovers the server', async () => {
    const pgServer = server();
    const url = await freshDatabase(pgServer);
    const open = await connect(url);
    await open.query('SELECT 1');

    await pgServer.kill();
    await expect(open.query('SELECT 1')).rejects.toThrow();
    await expect(connect(url)).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    await pgServer.start();
    expect(await query(url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });
});
