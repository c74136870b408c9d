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

/** A driver's statement, with what reading rows as arrays needs where the driver has it. */
interface DriverStatement extends SqlStatement {
  readonly reader?: boolean;
  columns?(): Array<{ name: string }>;
  /** better-sqlite3 */
  raw?(on: boolean): DriverStatement;
  /** node:sqlite from Node.js 22.16 */
  setReturnArrays?(on: boolean): void;
}

interface NodeSqliteModule {
  DatabaseSync: new (file: string) => { exec(sql: string): void; prepare(sql: string): DriverStatement; close(): void };
}

const objectMakers = new Map<string, (row: unknown[]) => unknown>();

/** The function that makes a row of these columns an object (one per list of names the program's SQL has). */
function objectMaker(names: string[]): (row: unknown[]) => unknown {
  // Made from the statement's own column names (the SQL is the program's), each as a JSON string.
  // A computed key: a literal's plain `__proto__` would set the prototype, not a property.
  const body = names.map((name, i) => `${name === '__proto__' ? '["__proto__"]' : JSON.stringify(name)}: row[${i}]`).join(', ');
  let maker = objectMakers.get(body);
  if (!maker) objectMakers.set(body, (maker = new Function('row', `return { ${body} };`) as (row: unknown[]) => unknown));
  return maker;
}

/**
 * `statement`, its rows read as arrays and made into objects by a function written for its
 * columns: both drivers make a row object property by property, which took more than twice as
 * long as this over a page of 100 rows of 30 columns (a listing of every sale is mostly that).
 */
function fastRows(statement: DriverStatement): SqlStatement {
  // Only statements that return rows have columns; better-sqlite3 throws when asked for others'.
  if (statement.reader === false) return statement;
  const columns = statement.columns?.();
  if (!columns || columns.length === 0 || !(statement.raw || statement.setReturnArrays)) return statement;
  if (statement.raw) statement.raw(true);
  else statement.setReturnArrays?.(true);
  const objectOf = objectMaker(columns.map((column) => column.name));
  return {
    run: (...params) => statement.run(...params),
    get: (...params) => {
      const row = statement.get(...params) as unknown[] | undefined;
      return row === undefined ? undefined : objectOf(row);
    },
    all: (...params) => (statement.all(...params) as unknown[][]).map(objectOf),
  };
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

/**
 * SQLite itself did not load: better-sqlite3 is native, built for one Node.js version and platform,
 * and a copy missing its build or built for another cannot open any file. Not the file's fault, so
 * no reset of it helps; reinstalling does.
 */
export class SqliteUnavailableError extends Error {}

/** Whether `err`, thrown opening a database with better-sqlite3, says its native part did not load. */
export function isNativeLoadFailure(err: unknown): boolean {
  const message = err instanceof Error ? err.message : String(err);
  return /bindings file|NODE_MODULE_VERSION|was compiled against a different Node\.js|invalid ELF header|Cannot find module '(better-sqlite3|bindings)'|ERR_DLOPEN_FAILED/.test(message) || (err as { code?: unknown })?.code === 'ERR_DLOPEN_FAILED';
}

export async function openSqlite(file: string): Promise<SqlDatabase> {
  const builtin = await nodeSqlite();
  if (builtin) {
    const db = new builtin.DatabaseSync(file);
    return { driver: 'node:sqlite', exec: (sql) => db.exec(sql), prepare: (sql) => fastRows(db.prepare(sql)), close: () => db.close() };
  }
  let db: BetterSqlite3.Database;
  try {
    const { default: Database } = await import('better-sqlite3');
    db = new Database(file);
  } catch (err) {
    if (isNativeLoadFailure(err)) throw new SqliteUnavailableError(`SQLite did not load (${(err as Error).message.split('\n')[0]})`, { cause: err });
    throw err;
  }
  return {
    driver: 'better-sqlite3',
    exec: (sql) => void db.exec(sql),
    prepare: (sql) => fastRows(db.prepare(sql) as unknown as DriverStatement),
    close: () => db.close(),
  };
}
