// Shared by the tests that look at the sandbox's SQLite database itself: a connection of the test's
// own (through the same SQLite the sandbox uses on this Node.js, so the two never disagree about
// locks), the raw bytes of the database files, everything stored as text, and a write lock held by
// another OS process.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { openSqlite, type SqlDatabase } from '../../src/platform/sqlite.js';
import { IdCodes } from '../../src/sandbox/db/id-codes.js';
import { statePaths } from '../../src/sandbox/store.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The database and the files SQLite keeps beside it in WAL mode. */
export const DB_FILES = ['sandbox.db', 'sandbox.db-wal', 'sandbox.db-shm'] as const;

/** Runs `fn` on a connection of the test's own to a state directory's database, then closes it. */
export async function withDb<T>(stateDir: string, fn: (db: SqlDatabase) => T): Promise<T> {
  const db = await openSqlite(statePaths(stateDir).file);
  try {
    db.exec('PRAGMA busy_timeout = 10000');
    return fn(db);
  } finally {
    db.close();
  }
}

export function rows<T>(db: SqlDatabase, sql: string, ...params: Array<string | number | null>): T[] {
  return db.prepare(sql).all(...params) as T[];
}

export function one<T>(db: SqlDatabase, sql: string, ...params: Array<string | number | null>): T {
  return db.prepare(sql).get(...params) as T;
}

/** The id codes of a state directory's database (its own salt): what its rows' ids are read with. */
export function idCodesOf(stateDir: string): Promise<IdCodes> {
  return withDb(stateDir, (db) => new IdCodes(Number(one<{ doc: string }>(db, "SELECT doc FROM meta WHERE name = 'id_salt'").doc)));
}

export function integrityCheck(db: SqlDatabase): string[] {
  return rows<Record<string, string>>(db, 'PRAGMA integrity_check').map((row) => Object.values(row)[0] as string);
}

/** The database files present in a state directory, byte for byte. */
export async function rawDbFiles(stateDir: string): Promise<Array<{ name: string; bytes: Buffer }>> {
  const out: Array<{ name: string; bytes: Buffer }> = [];
  for (const name of DB_FILES) {
    const bytes = await readFile(path.join(statePaths(stateDir).dir, name)).catch(() => undefined);
    if (bytes) out.push({ name, bytes });
  }
  return out;
}

/** Every text value of every table (a value long enough to span pages is whole here, unlike in the raw bytes). */
export function storedTexts(db: SqlDatabase): string[] {
  const texts: string[] = [];
  for (const { name } of rows<{ name: string }>(db, "SELECT name FROM sqlite_master WHERE type = 'table'")) {
    for (const row of rows<Record<string, unknown>>(db, `SELECT * FROM "${name}"`)) {
      for (const value of Object.values(row)) if (typeof value === 'string') texts.push(value);
    }
  }
  return texts;
}

/** Every scalar inside the JSON documents stored, whatever its key. */
export function storedJsonValues(texts: string[]): unknown[] {
  const values: unknown[] = [];
  const walk = (v: unknown): void => {
    if (v && typeof v === 'object') Object.values(v).forEach(walk);
    else values.push(v);
  };
  for (const text of texts) {
    if (!/^[[{]/.test(text)) continue;
    try {
      walk(JSON.parse(text));
    } catch {
      // Not a document: a plain text column, already scanned as text.
    }
  }
  return values;
}

/** A key of raw card data (a card's verification_checklist has a `security_code_check`, which is fine). */
const RAW_CARD_FIELD = /"(card_number|security_code)"/;

/**
 * No card number, no CVV and no raw card field anywhere in a state directory's database: neither
 * in the bytes of the files (which also hold pages freed since, and the WAL not yet checkpointed)
 * nor in any value stored (which a raw scan could miss where a value spans two pages).
 */
export async function expectNoCardData(stateDir: string, pans: string[], cvv: string): Promise<void> {
  const files = await rawDbFiles(stateDir);
  expect(files.map((f) => f.name)).toContain('sandbox.db');
  for (const { name, bytes } of files) {
    const text = bytes.toString('latin1');
    for (const pan of pans) expect(text.includes(pan), `${pan} in ${name}`).toBe(false);
    expect(text.includes(`"${cvv}"`), `the CVV in ${name}`).toBe(false);
    expect(RAW_CARD_FIELD.test(text), `a raw card field in ${name}`).toBe(false);
  }
  const texts = await withDb(stateDir, storedTexts);
  expect(texts.length).toBeGreaterThan(0);
  for (const text of texts) {
    for (const pan of pans) expect(text.includes(pan), `${pan} stored`).toBe(false);
    expect(RAW_CARD_FIELD.test(text), 'a raw card field stored').toBe(false);
  }
  const values = storedJsonValues(texts);
  expect(values.length).toBeGreaterThan(0);
  expect(values).not.toContain(cvv);
  expect(values).not.toContain(Number(cvv));
}

// Runs in another OS process: within one process, a request waiting for SQLite's write lock
// blocks the event loop, so the lock must be let go of by someone who is not waiting on it.
const HOLDER = `
import { createRequire } from 'node:module';
const [file, hold] = process.argv.slice(1);
let db;
try {
  const { DatabaseSync } = await import('node:sqlite');
  db = new DatabaseSync(file);
} catch {
  const Database = createRequire(process.cwd() + '/package.json')('better-sqlite3');
  db = new Database(file);
}
db.exec('PRAGMA busy_timeout = 10000');
db.exec('BEGIN IMMEDIATE');
console.log('locked');
setTimeout(() => {
  console.log('releasing ' + Date.now());
  db.exec('COMMIT');
  db.close();
}, Number(hold));
`;

export interface HeldLock {
  /** When the holder let go (ms since the epoch, taken just before its COMMIT). */
  released: Promise<number>;
  /** Ends the holder with SIGKILL, as a crash would, holding the lock. */
  kill(): Promise<void>;
}

/** Takes the database's write lock (BEGIN IMMEDIATE) in another process and holds it for `holdMs`. */
export function holdWriteLock(dbFile: string, holdMs: number): Promise<HeldLock> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--no-warnings', '--input-type=module', '-e', HOLDER, dbFile, String(holdMs)], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    let onRelease: (at: number) => void = () => undefined;
    const released = new Promise<number>((done) => (onRelease = done));
    child.once('error', reject);
    void exited.then(() => reject(new Error('the lock holder exited before it held the lock')));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line === 'locked') {
        resolve({
          released,
          kill: async () => {
            child.kill('SIGKILL');
            await exited;
          },
        });
      }
      const at = /^releasing (\d+)$/.exec(line)?.[1];
      if (at) onRelease(Number(at));
    });
  });
}
