import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { describe, expect } from 'vitest';
import * as z from 'zod/mini';
import { it } from '../helpers/fixtures.js';
import { parse as parseCsv } from '../helpers/csv.js';
import { testEnv } from '../helpers/run.js';
import { createCard, expectJson, expectUsage, present, run } from './helpers.js';
import { transactionStrict } from '../../src/provider/schemas/transaction.js';
import type { Transaction } from '../../src/sandbox/types.js';

// `payctl export` against the embedded sandbox: a first run, a second run that holds exactly what
// was created or changed in between, Parquet read back by a Parquet reader, an export killed with
// SIGKILL and run again, and flags refused before anything is read.
const BIN = fileURLToPath(new URL('../../bin/payctl.js', import.meta.url));
const file = (home: string, name: string) => join(home, name);

async function exported(home: string, args: string[]): Promise<string> {
  const result = await run(home, ['export', ...args]);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toBe('');
  return result.stderr;
}

/** An exported record: whatever the resource, it has its id. */
const exportedRecord = z.looseObject({ id: z.string() });
/** The records of an NDJSON export, each read with `schema`. */
const records = <S extends z.ZodMiniType>(path: string, schema: S) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => z.parse(schema, JSON.parse(line)));
const lines = (path: string) => records(path, exportedRecord);

async function generate(home: string, sales: number): Promise<void> {
  expectJson(await run(home, ['sandbox', 'generate', '--sales', String(sales), '--days', '1', '-o', 'json']));
}

const cents = (decimal: string): number => Math.round(Number(decimal) * 100);

const allTransactions = async (home: string) => expectJson(await run(home, ['transactions', 'list', '--all', '--sort', 'asc', '-o', 'json']));

describe('payctl export: incremental runs with a state file', () => {
  it('the second run holds exactly the 5 new sales and the 2 old sales refunded since the first; a third holds nothing', async ({ home }) => {
    await generate(home, 40);
    const state = file(home, 'tx.state.json');
    const first = await exported(home, ['transactions', '--out', file(home, 'run1.ndjson'), '--state', state]);
    expect(first).toContain(`exported 40 transactions to ${file(home, 'run1.ndjson')}; state saved in ${state}`);
    const run1 = lines(file(home, 'run1.ndjson'));
    expect(run1.map((t) => t.id)).toEqual((await allTransactions(home)).map((t) => t.id));
    expect(existsSync(`${file(home, 'run1.ndjson')}.partial`)).toBe(false);

    const old = run1.filter((t) => t.payment_type === 'credit').slice(0, 2);
    expect(old).toHaveLength(2);
    for (const sale of old) expectJson(await run(home, ['transactions', 'refund', sale.id, '--amount', '1.00', '--yes', '-o', 'json']));
    const sales: Transaction[] = [];
    for (let i = 0; i < 5; i += 1) sales.push(await createCard(home, `${20 + i}.00`));

    const second = await exported(home, ['transactions', '--out', file(home, 'run2.ndjson'), '--state', state]);
    expect(second).toMatch(/exported 7 transactions to .*run2\.ndjson \(\d+ read from \S+, \d+ unchanged since the last run\); state saved in/);
    const run2 = records(file(home, 'run2.ndjson'), transactionStrict);
    expect(run2.map((t) => t.id).sort()).toEqual([...old, ...sales].map((t) => t.id).sort());
    for (const sale of old) {
      const now = present(run2.find((t) => t.id === sale.id), sale.id);
      expect(now.amount).toBe((Number(sale.amount) - 1).toFixed(2));
      expect(now.history.at(-1)?.operation_type).toBe('void');
    }

    const third = await exported(home, ['transactions', '--out', file(home, 'run3.ndjson'), '--state', state]);
    expect(third).toMatch(/exported 0 transactions .*\(\d+ read from .*, (\d+) unchanged since the last run\)/);
    expect(readFileSync(file(home, 'run3.ndjson'), 'utf8')).toBe('');

    const saved = JSON.parse(readFileSync(state, 'utf8'));
    expect(saved).toMatchObject({ payctl_export: 1, resource: 'transactions', format: 'ndjson', lookback_days: 3, runs: 3, since: null });
    expect(saved.cursor).toBe(present(sales.at(-1)).created_at);
    expect(saved.seen.map((s: string[]) => s[0])).toContain(present(sales[0]).id);
  });

  it('--since starts the first run there, and later runs never read before it', async ({ home }) => {
    await generate(home, 10);
    const all = await allTransactions(home);
    const cut = present(all[5]).created_at;
    await exported(home, ['transactions', '--since', cut, '--out', file(home, 'a.ndjson'), '--state', file(home, 's.json')]);
    expect(lines(file(home, 'a.ndjson')).map((t) => t.id)).toEqual(all.slice(5).map((t) => t.id));
    expect(JSON.parse(readFileSync(file(home, 's.json'), 'utf8')).since).toBe(cut);
    await createCard(home, '12.00');
    await exported(home, ['transactions', '--lookback', '30', '--out', file(home, 'b.ndjson'), '--state', file(home, 's.json')]);
    expect(lines(file(home, 'b.ndjson'))).toHaveLength(1);
  });

  it('--out - (the default) streams NDJSON to stdout and saves the state once it is all written', async ({ home }) => {
    await generate(home, 8);
    const first = await run(home, ['export', 'balance-history', '--state', file(home, 'h.json')]);
    expect(first.code, first.stderr).toBe(0);
    const entries = expectJson(await run(home, ['balances', 'history', '--all', '--sort', 'asc', '-o', 'json']));
    expect(first.stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual(entries);
    expect(first.stderr).toBe(`exported ${entries.length} entries to stdout; state saved in ${file(home, 'h.json')}\n`);
    const second = await run(home, ['export', 'balance-history', '--state', file(home, 'h.json'), '--out', '-']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe('');
  });

  it('transfers, balance history and future entries export too, each as CSV with its fixed header', async ({ home }) => {
    await generate(home, 30);
    expectJson(await run(home, ['sandbox', 'advance', '--days', '40', '-o', 'json']));
    for (const [resource, list] of [
      ['transfers', ['transfers', 'list', '--all']],
      ['balance-history', ['balances', 'history', '--all']],
    ] as const) {
      await exported(home, [resource, '--format', 'csv', '--out', file(home, `${resource}.csv`), '--state', file(home, `${resource}.json`)]);
      const rows = parseCsv(readFileSync(file(home, `${resource}.csv`), 'utf8'));
      const listed = expectJson(await run(home, [...list, '-o', 'json']));
      expect(listed.length).toBeGreaterThan(0);
      expect(rows.slice(1).map((r) => r[0]).sort()).toEqual(listed.map((t) => t.id).sort());
      const again = await exported(home, [resource, '--format', 'csv', '--out', file(home, `${resource}-2.csv`), '--state', file(home, `${resource}.json`)]);
      expect(again).toContain(`exported 0 ${resource === 'transfers' ? 'transfers' : 'entries'}`);
      expect(parseCsv(readFileSync(file(home, `${resource}-2.csv`), 'utf8'))).toEqual([rows[0]]);
    }
    const sale = await createCard(home, '90.00');
    // Receivables: every one of the seller's, paid or pending; with a state, a run after nothing
    // changed holds none, and one after a new sale holds exactly that sale's.
    const seller = present(expectJson(await run(home, ['sellers', 'list', '-o', 'json']))[0]).id;
    await exported(home, ['receivables', '--format', 'csv', '--out', file(home, 'r0.csv')]);
    const listed = expectJson(await run(home, ['receivables', 'list', '--seller', seller, '--all', '-o', 'json']));
    const everything = parseCsv(readFileSync(file(home, 'r0.csv'), 'utf8'));
    expect(everything[0]?.slice(0, 6)).toEqual(['id', 'status', 'recipient', 'transaction', 'installment', 'amount']);
    expect(everything.slice(1).map((r) => r[0]).sort()).toEqual(listed.map((r) => r.id).sort());
    await exported(home, ['receivables', '--format', 'parquet', '--out', file(home, 'r1.parquet'), '--state', file(home, 'r.json')]);
    const parquet = await parquetReadObjects({ file: await asyncBufferFromFile(file(home, 'r1.parquet')) });
    expect(parquet).toHaveLength(listed.length);
    const one = parquet.find((r) => r.id === listed[0]?.id) as Record<string, unknown>;
    expect(typeof one.liable).toBe('boolean');
    expect(one.expected_on).toBeInstanceOf(Date);
    await exported(home, ['receivables', '--format', 'parquet', '--out', file(home, 'r2.parquet'), '--state', file(home, 'r.json')]);
    expect(await parquetReadObjects({ file: await asyncBufferFromFile(file(home, 'r2.parquet')) })).toHaveLength(0);
    const later = await createCard(home, '30.00');
    await exported(home, ['receivables', '--format', 'parquet', '--out', file(home, 'r3.parquet'), '--state', file(home, 'r.json')]);
    const fresh = await parquetReadObjects({ file: await asyncBufferFromFile(file(home, 'r3.parquet')) });
    expect(fresh.length).toBeGreaterThan(0);
    expect(new Set(fresh.map((r) => r.transaction))).toEqual(new Set([later.id]));
    await exported(home, ['future-entries', '--format', 'csv', '--out', file(home, 'fe.csv'), '--state', file(home, 'fe.json')]);
    const entries = parseCsv(readFileSync(file(home, 'fe.csv'), 'utf8'));
    expect(entries[0]).toEqual(['id', 'expected_on', 'installment', 'gross_amount', 'fee', 'amount', 'currency', 'transaction', 'receivable', 'on_behalf_of', 'created_at']);
    expect(entries.slice(1).map((r) => r[7])).toContain(sale.id);
  });
});

describe('payctl export --format parquet', () => {
  it('a Parquet reader reads back every row, the typed schema and the API values, over two row groups', async ({ home }) => {
    await generate(home, 10_050);
    const refunded = present((await allTransactions(home)).find((t) => t.payment_type === 'credit'));
    expectJson(await run(home, ['transactions', 'refund', refunded.id, '--amount', '0.99', '--yes', '-o', 'json']));
    const transactions = await allTransactions(home);
    await exported(home, ['transactions', '--format', 'parquet', '--out', file(home, 'tx.parquet'), '--state', file(home, 'pq.json')]);

    const source = await asyncBufferFromFile(file(home, 'tx.parquet'));
    const metadata = await parquetMetadataAsync(source);
    expect(Number(metadata.num_rows)).toBe(transactions.length);
    expect(metadata.row_groups.map((group) => Number(group.num_rows))).toEqual([10_000, transactions.length - 10_000]);
    const schema = Object.fromEntries(metadata.schema.slice(1).map((e) => [e.name, e]));
    expect(schema.amount).toMatchObject({ type: 'INT64', logical_type: { type: 'DECIMAL', scale: 2, precision: 18 } });
    expect(schema.created_at).toMatchObject({ type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' } });
    expect(schema.id).toMatchObject({ type: 'BYTE_ARRAY', converted_type: 'UTF8' });
    expect(schema.captured).toMatchObject({ type: 'BOOLEAN' });
    expect(schema.payment_method_card_brand).toMatchObject({ type: 'BYTE_ARRAY', converted_type: 'UTF8' });

    const rows = await parquetReadObjects({ file: source });
    // Money is stored as whole cents (INT64, scale 2); the reader hands DECIMAL back as a float.
    const read = rows.map((row) => ({
      id: row.id,
      amount: Math.round((row.amount as number) * 100),
      fees: Math.round((row.fees as number) * 100),
      created_at: (row.created_at as Date).toISOString(),
      status: row.status,
      captured: row.captured,
      card_brand: row.payment_method_card_brand,
    }));
    const listed = transactions.map((t) => ({
      id: t.id,
      amount: cents(t.amount),
      fees: cents(t.fees),
      created_at: t.created_at,
      status: t.status,
      captured: t.captured,
      card_brand: t.payment_method.resource === 'card' ? t.payment_method.card_brand : null,
    }));
    expect(read).toEqual(listed);
    const after = rows.find((r) => r.id === refunded.id) as Record<string, unknown>;
    expect(Math.round((after.original_amount as number) * 100) - Math.round((after.amount as number) * 100)).toBe(99);

    // The next run's file is a Parquet file too, with no rows when nothing changed.
    await exported(home, ['transactions', '--format', 'parquet', '--out', file(home, 'tx2.parquet'), '--state', file(home, 'pq.json')]);
    expect(Number((await parquetMetadataAsync(await asyncBufferFromFile(file(home, 'tx2.parquet')))).num_rows)).toBe(0);
  }, 60_000);
});

describe('payctl export: stopped runs', () => {
  it('killed with SIGKILL mid-export, the state is untouched, and the run again writes every record once', async ({ home }) => {
    await generate(home, 6000);
    const state = file(home, 'kill.json');
    const out = file(home, 'kill.ndjson');
    const child = spawn(process.execPath, [BIN, 'export', 'transactions', '--out', out, '--state', state], { env: testEnv(home), stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // Killed once the first records are in its partial file.
    while (!(existsSync(`${out}.partial`) && statSync(`${out}.partial`).size > 0)) await new Promise((resolve) => setTimeout(resolve, 5));
    child.kill('SIGKILL');
    expect(await exited).toBe(null);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(state)).toBe(false);

    await exported(home, ['transactions', '--out', out, '--state', state]);
    const ids = lines(out).map((t) => t.id);
    expect(ids).toEqual((await allTransactions(home)).map((t) => t.id));
    expect(new Set(ids).size).toBe(6000);
    expect(existsSync(`${out}.partial`)).toBe(false);
  }, 120_000);

  it('Ctrl-C mid-export removes the partial file and the lock, says what is as it was (exit 3), and saves no state', async ({ home }) => {
    await generate(home, 6000);
    const state = file(home, 'int.json');
    const out = file(home, 'int.ndjson');
    const child = spawn(process.execPath, [BIN, 'export', 'transactions', '--out', out, '--state', state], { env: testEnv(home), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    while (!(existsSync(`${out}.partial`) && statSync(`${out}.partial`).size > 0)) await new Promise((resolve) => setTimeout(resolve, 5));
    child.kill('SIGINT');
    expect(await exited).toBe(3);
    expect(stderr).toBe('\ncancelled: int.ndjson.partial removed; int.ndjson was not written and no state was saved. Run the same command again\n');
    expect(existsSync(`${out}.partial`)).toBe(false);
    expect(existsSync(`${state}.lock`)).toBe(false);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(state)).toBe(false);
  }, 120_000);

  it('stopped after its file took its name but before its state was saved, the next run saves that state and keeps the file', async ({ home }) => {
    await generate(home, 5);
    const state = file(home, 's.json');
    await exported(home, ['transactions', '--out', file(home, '1.ndjson'), '--state', state]);
    const before = readFileSync(state, 'utf8');
    await createCard(home, '11.00');
    await exported(home, ['transactions', '--out', file(home, '2.ndjson'), '--state', state]);
    const after = readFileSync(state, 'utf8');
    const second = readFileSync(file(home, '2.ndjson'), 'utf8');
    // As the run left things when stopped between the rename and the save.
    const { ino, size } = statSync(file(home, '2.ndjson'));
    writeFileSync(state, before);
    writeFileSync(`${state}.next`, JSON.stringify({ out: file(home, '2.ndjson'), ino, size, state: JSON.parse(after) }));

    const rerun = await exported(home, ['transactions', '--out', file(home, '2.ndjson'), '--state', state]);
    expect(rerun).toBe(`the last run had written ${file(home, '2.ndjson')} whole before it stopped; its state is saved now\n`);
    expect(readFileSync(state, 'utf8')).toBe(after);
    expect(readFileSync(file(home, '2.ndjson'), 'utf8')).toBe(second);
    expect(existsSync(`${state}.next`)).toBe(false);

    // A staged state whose file is not the one it names (the run stopped before the rename) is dropped.
    writeFileSync(`${state}.next`, JSON.stringify({ out: file(home, '1.ndjson'), ino: ino + 1, size, state: JSON.parse(before) }));
    await exported(home, ['transactions', '--out', file(home, '3.ndjson'), '--state', state]);
    expect(lines(file(home, '3.ndjson'))).toEqual([]);
    expect(JSON.parse(readFileSync(state, 'utf8')).runs).toBe(3);
  });
});

describe('payctl export: flags refused before anything is read (exit 2)', () => {
  it('one run per state file: a second one while the first runs stops at once (exit 8); a lock left by a dead run is taken over', async ({ home }) => {
    await createCard(home, '10.00');
    const state = file(home, 'one.json');
    // Another payctl process holding the state: here a process that is alive for the test's length.
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      const { currentOwner, startTimeOf } = await import('../../src/platform/owner.js');
      const { holder: who, host_id } = currentOwner();
      const record = { holder: who, host_id, pid: holder.pid, started: startTimeOf(holder.pid as number), since: '2026-11-24T00:00:00.000Z', expires: new Date(Date.now() + 3_600_000).toISOString() };
      writeFileSync(`${state}.lock`, JSON.stringify(record));
      const blocked = await run(home, ['export', 'transactions', '--out', file(home, 'blocked.ndjson'), '--state', state]);
      expect(blocked.code).toBe(8);
      expect(blocked.stderr).toContain(`an export with the state ${state} is already running in another payctl process (pid ${holder.pid}`);
      expect(existsSync(file(home, 'blocked.ndjson'))).toBe(false);
      expect(existsSync(file(home, 'blocked.ndjson.partial'))).toBe(false);
      expect(existsSync(state)).toBe(false);
    } finally {
      holder.kill('SIGKILL');
    }
    await new Promise((resolve) => holder.once('exit', resolve));
    // The holder is gone: its lock is taken over, and released when the run ends.
    await exported(home, ['transactions', '--out', file(home, 'after.ndjson'), '--state', state]);
    expect(lines(file(home, 'after.ndjson'))).toHaveLength(1);
    expect(existsSync(`${state}.lock`)).toBe(false);
  });

  it('names what is wrong', async ({ home }) => {
    await exported(home, ['transactions', '--out', file(home, 't.ndjson'), '--state', file(home, 't.json')]);
    mkdirSync(file(home, 'dir'));
    const cases: Array<[string[], string]> = [
      [['transaction'], '"transaction" is not something payctl exports (did you mean transactions?); use one of transactions, transfers, balance-history, receivables, future-entries'],
      [['transactions', '--format', 'xlsx'], '--format: "xlsx" is not an export format; use ndjson, csv, parquet'],
      [['transactions', '--since', 'yesterday'], '--since: "yesterday" is not a date'],
      [['transactions', '--since', '2026-02-30'], '--since: "2026-02-30" is not a real date'],
      [['transactions', '--lookback', '-1'], '--lookback: "-1" is not a number of days'],
      [['transactions', '--out', join(home, 'missing', 'x.ndjson')], `--out: cannot write ${join(home, 'missing', 'x.ndjson')} (ENOENT)`],
      [['transactions', '--out', file(home, 'dir')], `--out: cannot write ${file(home, 'dir')} (it is a directory)`],
      [['transactions', '--state', join(home, 'missing', 's.json')], `--state: cannot write ${join(home, 'missing', 's.json')} (ENOENT)`],
      [['transfers', '--state', file(home, 't.json')], `--state: ${file(home, 't.json')} is the state of an export of transactions, not transfers`],
      [['transactions', '--format', 'csv', '--state', file(home, 't.json')], `--state: ${file(home, 't.json')} is the state of a ndjson export, not csv`],
      [['transactions', '--since', '2026-01-01', '--state', file(home, 't.json')], '--since is for a first run'],
      [['future-entries', '--since', '2026-01-01'], 'future-entries are read whole on every run'],
      [['receivables', '--lookback', '2'], 'receivables are read whole on every run'],
      [['transactions', '--fields', 'id'], 'it takes no --fields'],
    ];
    for (const [args, message] of cases) expectUsage(await run(home, ['export', ...args, '--no-input']), message);
    writeFileSync(file(home, 'junk.json'), 'not json');
    expectUsage(await run(home, ['export', 'transactions', '--state', file(home, 'junk.json')]), `--state: ${file(home, 'junk.json')} is not a payctl export state file`);
    expectUsage(await run(home, ['export', 'transactions', '--format', 'parquet'], { tty: true }), '--format parquet is binary: give --out <file>, or pipe it');
  });
});
