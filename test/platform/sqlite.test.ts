import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isNativeLoadFailure, openSqlite, SqliteUnavailableError, type SqlDatabase } from '../../src/platform/sqlite.js';

// Rows are read as arrays where the driver can, and made into objects by the shim: what a caller
// gets must be what the driver's own row objects would be.

let dir: string;
let db: SqlDatabase;

afterEach(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(): Promise<SqlDatabase> {
  dir = mkdtempSync(path.join(tmpdir(), 'payctl-sqlite-'));
  db = await openSqlite(path.join(dir, 'test.db'));
  db.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, name TEXT, cents INTEGER, note ANY)');
  return db;
}

describe('openSqlite rows', () => {
  it('gives each row as an object keyed by its column names, values as stored', async () => {
    const sql = await open();
    const insert = sql.prepare('INSERT INTO t (name, cents, note) VALUES (?, ?, ?)');
    expect(Number(insert.run('a', 100, null).changes)).toBe(1);
    insert.run('b', -5, 7);
    insert.run(null, 0, 'x');
    expect(sql.prepare('SELECT * FROM t ORDER BY k').all()).toEqual([
      { k: 1, name: 'a', cents: 100, note: null },
      { k: 2, name: 'b', cents: -5, note: 7 },
      { k: 3, name: null, cents: 0, note: 'x' },
    ]);
    expect(sql.prepare('SELECT count(*) AS n, sum(cents) AS total FROM t WHERE k > ?').get(1)).toEqual({ n: 2, total: -5 });
    expect(sql.prepare('SELECT * FROM t WHERE k = ?').get(99)).toBeUndefined();
    expect(sql.prepare('SELECT t.*, t.cents AS at FROM t t WHERE k = 2').all()).toEqual([{ k: 2, name: 'b', cents: -5, note: 7, at: -5 }]);
  });

  it('keeps a column named __proto__ as a property of the row, not its prototype', async () => {
    const sql = await open();
    const [row] = sql.prepare(`SELECT x'00' AS "__proto__", 2 AS other`).all() as Array<Record<string, unknown>>;
    expect(row?.other).toBe(2);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    // A blob: a Buffer from better-sqlite3, a Uint8Array from node:sqlite.
    expect([...(Object.getOwnPropertyDescriptor(row, '__proto__')?.value as Uint8Array)]).toEqual([0]);
  });

  it('runs statements that return no rows', async () => {
    const sql = await open();
    const update = sql.prepare('UPDATE t SET cents = cents + 1');
    expect(Number(update.run().changes)).toBe(0);
  });
});

describe('SQLite that did not load', () => {
  // The errors Node.js and better-sqlite3's loader really throw when its native part is missing or
  // is not a library, against one from a file SQLite cannot open: only the first two are "reinstall".
  it('is told from a database that cannot be opened', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'payctl-sqlite-'));
    const notALibrary = path.join(dir, 'better_sqlite3.node');
    writeFileSync(notALibrary, 'not a library');
    const failures: unknown[] = [];
    try {
      process.dlopen({ exports: {} } as NodeJS.Module, notALibrary);
    } catch (err) {
      failures.push(err);
    }
    try {
      createRequire(import.meta.url)('bindings')({ bindings: 'better_sqlite3.node', module_root: path.join(dir, 'nowhere') });
    } catch (err) {
      failures.push(err);
    }
    expect(failures).toHaveLength(2);
    for (const err of failures) expect(isNativeLoadFailure(err), String(err)).toBe(true);
    // A directory where the file should be: SQLite loaded, the file is what failed.
    const notAFile = await openSqlite(dir).then(
      (opened) => {
        opened.close();
        return undefined;
      },
      (err: unknown) => err,
    );
    expect(notAFile).not.toBeInstanceOf(SqliteUnavailableError);
    if (notAFile !== undefined) expect(isNativeLoadFailure(notAFile)).toBe(false);
  });
});
