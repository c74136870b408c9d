// The SQLite the ledger runs on: Node's own `node:sqlite` where it is there without a flag
// (Node.js 22.13 and later), else better-sqlite3 (Node.js 20, early 22). Both speak the small
// synchronous interface below. Node's own is preferred because better-sqlite3 12, the last major
// that supports Node.js 20, aborts the process at exit on Node.js 24 (its statements' destructors
// run after Node's environment is gone); better-sqlite3 13 fixes that but needs Node.js 22.
import type BetterSqlite3 from 'better-sqlite3';

export type SqlValue = string | number | bigint | null;

export interface SqlStatement {
  run(...params: SqlValue[]): { lastInsertRowid: number | bigint; changes: number | bigint };
  get(...params: SqlValue[]): unknown;
  all(...params: SqlValue[]): unknown[];
}

export interface SqlDatabase {
  readonly driver: 'node:sqlite' | 'better-sqlite3';
  exec(sql: string): void;
  prepare(sql: string): SqlStatement;
  close(): void;
}

interface NodeSqliteModule {
  DatabaseSync: new (file: string) => { exec(sql: string): void; prepare(sql: string): SqlStatement; close(): void };
}

/** `node:sqlite` if this Node.js has it unflagged; its one-time "experimental" warning is not the user's business. */
async function nodeSqlite(): Promise<NodeSqliteModule | undefined> {
  const original = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    if (String(typeof warning === 'string' ? warning : warning?.message).includes('SQLite is an experimental feature')) return;
    return (original as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    // A specifier the bundler leaves alone: Node.js 20's type definitions do not know this module.
    const specifier = 'node:sqlite';
    return (await import(specifier)) as NodeSqliteModule;
  } catch {
    return undefined;
  } finally {
    process.emitWarning = original;
  }
}

export async function openSqlite(file: string): Promise<SqlDatabase> {
  const builtin = await nodeSqlite();
  if (builtin) {
    const db = new builtin.DatabaseSync(file);
    return { driver: 'node:sqlite', exec: (sql) => db.exec(sql), prepare: (sql) => db.prepare(sql), close: () => db.close() };
  }
  const { default: Database } = await import('better-sqlite3');
  const db: BetterSqlite3.Database = new Database(file);
  return {
    driver: 'better-sqlite3',
    exec: (sql) => void db.exec(sql),
    prepare: (sql) => db.prepare(sql) as unknown as SqlStatement,
    close: () => db.close(),
  };
}
