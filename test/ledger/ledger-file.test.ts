import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountOf } from '../../src/ledger/account.js';
import { LedgerFileError, LedgerLostError, postgresTrouble, sqliteTrouble } from '../../src/ledger/errors.js';
import { openLedger, resetLedger, type LedgerPlace } from '../../src/ledger/open.js';
import { sqliteLedgerPath } from '../../src/ledger/sqlite-store.js';
import { openSqlite } from '../../src/platform/sqlite.js';

// Where the record of used ledgers lives, what a ledger made anew or stripped of its tables does
// to money moves, and how a ledger that cannot be written is said: in words, with exit 2.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'payctl-ledger-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const same = (text: string) => text;
const place = (): LedgerPlace => ({ stateDir: join(dir, 'state'), configDir: join(dir, 'config') });
const live = () => accountOf({ isEmbedded: false, apiKey: 'zpk_test_x', marketplaceId: 'm' }, join(dir, 'state'));
const embedded = () => accountOf({ isEmbedded: true }, join(dir, 'state'));
const tables = async (file: string) => {
  const db = await openSqlite(file);
  try {
    return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name);
  } finally {
    db.close();
  }
};

describe('the record of the ledgers an operator used', () => {
  it("is in the config directory (0600), outside the state directory; the embedded sandbox's is in the state directory, with its sales", async () => {
    await (await openLedger(place(), live(), same)).close();
    const record = join(dir, 'config', 'ledgers.json');
    expect(statSync(record).mode & 0o777).toBe(0o600);
    expect(Object.keys(JSON.parse(readFileSync(record, 'utf8')))).toEqual([sqliteLedgerPath(join(dir, 'state'))]);
    expect(existsSync(join(dir, 'state', 'ledgers.json'))).toBe(false);

    rmSync(dir, { recursive: true, force: true });
    await (await openLedger(place(), embedded(), same)).close();
    expect(existsSync(join(dir, 'state', 'ledgers.json'))).toBe(true);
    expect(existsSync(join(dir, 'config', 'ledgers.json'))).toBe(false);
  });

  it('a known SQLite ledger whose tables were dropped stops money moves (exit 2) and is not made again; a reset makes it', async () => {
    const ledger = await openLedger(place(), live(), same);
    await ledger.record({ key: 'transaction:1', operation: 'transactions.void', target: '1', amount_cents: 100 });
    await ledger.close();
    const file = sqliteLedgerPath(join(dir, 'state'));
    const db = await openSqlite(file);
    db.exec('DROP TABLE payctl_intents; DROP TABLE payctl_locks');
    db.close();
    const error = await openLedger(place(), live(), same).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(LedgerLostError);
    expect((error as LedgerLostError).exitCode).toBe(2);
    expect((error as Error).message).toMatch(new RegExp(`^the ledger ${file} has no tables payctl_intents, payctl_locks \\(dropped, or another file put in its place\\), but payctl has kept its money moves there since .*; nothing was sent\\.`));
    expect(await tables(file)).toEqual(['payctl_meta', 'payctl_requests', 'payctl_rules', 'payctl_schema']);
    const { ledger: fresh } = await resetLedger(place(), live(), same);
    await fresh.close();
    expect(await tables(file)).toContain('payctl_intents');
    await (await openLedger(place(), live(), same)).close();
  });

  it('rows deleted with the identity whole: the newest move this operator recorded there is gone, so it is emptied (exit 2)', async () => {
    const ledger = await openLedger(place(), live(), same);
    await ledger.record({ key: 'transaction:1', operation: 'transactions.void', target: '1', amount_cents: 100 });
    const newest = await ledger.record({ key: 'transaction:2', operation: 'transactions.void', target: '2', amount_cents: 100 });
    await ledger.close();
    expect(JSON.parse(readFileSync(join(dir, 'config', 'ledgers.json'), 'utf8'))[sqliteLedgerPath(join(dir, 'state'))].latest).toEqual({ id: newest.id, at: newest.created_at });
    // A run that writes nothing notes nothing, and finds it whole.
    await (await openLedger(place(), live(), same)).close();
    const db = await openSqlite(sqliteLedgerPath(join(dir, 'state')));
    db.exec('DELETE FROM payctl_intents');
    db.close();
    const error = await openLedger(place(), live(), same).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(LedgerLostError);
    expect((error as Error).message).toContain(`was emptied (the newest money move payctl recorded there, #${newest.id}, is gone), but payctl has kept its money moves there since`);
  });
});

describe('a ledger that cannot be written, in words', () => {
  it('a full disk (SQLITE_FULL from SQLite itself): exit 2, "the disk is full", naming the file', async () => {
    const ledger = await openLedger(place(), live(), same);
    // SQLite answers SQLITE_FULL once the file may grow no more: as on a full disk.
    const db = (ledger.store as unknown as { db: { exec(sql: string): void; prepare(sql: string): { get(): unknown } } }).db;
    const { page_count: pages } = db.prepare('PRAGMA page_count').get() as { page_count: number };
    db.exec(`PRAGMA max_page_count = ${pages}`);
    const writes = Array.from({ length: 200 }, (_, i) => ({ key: `transaction:${i}`, operation: 'transactions.void', target: String(i), before: 'x'.repeat(2000) }));
    const error = await (async () => {
      for (const write of writes) await ledger.record(write);
    })().catch((err: unknown) => err);
    await ledger.close();
    expect(error).toBeInstanceOf(LedgerFileError);
    expect((error as LedgerFileError).exitCode).toBe(2);
    expect((error as LedgerFileError).saying('the refund of transaction 1 was not sent').message).toBe(
      `the ledger ${sqliteLedgerPath(join(dir, 'state'))} cannot be used (the disk is full); the refund of transaction 1 was not sent`,
    );
  });

  it.for<[unknown, string | undefined]>([
    [{ code: 'SQLITE_READONLY', message: 'attempt to write a readonly database' }, 'it is read-only'],
    [{ code: 'EACCES', message: 'permission denied' }, 'permission denied'],
    [{ code: 'SQLITE_IOERR', message: 'disk I/O error' }, 'a disk I/O error'],
    [new TypeError('a bug'), undefined],
  ])('SQLite: %o is %s', ([err, words]) => {
    expect(sqliteTrouble(err)).toBe(words);
  });

  it.for<[string, string | undefined]>([
    ['53100', "the database server's disk is full"],
    ['25006', 'it is read-only: a read-only database, or a standby'],
    ['42501', 'permission denied'],
    ['42P01', 'its tables are gone (dropped while in use)'],
    ['08006', undefined],
  ])('PostgreSQL: SQLSTATE %s is %s', ([code, words]) => {
    expect(postgresTrouble({ code })).toBe(words);
  });
});
