import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, vi } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { SANDBOX_API_KEY } from '../../src/provider/sandbox-account.js';
import { readStateFiles } from '../../src/sandbox/store.js';
import { payctl, tempHome, testEnv } from '../helpers/run.js';
import { MAX_PAUSE_MS, Pace } from '../../src/commands/transactions/bulk/pace.js';
import { createCard, expectJson, expectUsage, getTx, present, run } from './helpers.js';
import type { Transaction } from '../../src/sandbox/types.js';

// Bulk refunds: rows from CSV or NDJSON, one confirmation, one result line per row, a ledger
// that makes every refund happen exactly once however the run is interrupted, checked against
// the sandbox's own state under injected faults and repeated SIGKILLs.
const BIN = fileURLToPath(new URL('../../bin/payctl.js', import.meta.url));

const voids = (tx: Transaction) => tx.history.filter((h) => h.operation_type === 'void' && h.status === 'succeeded').length;
const results = (stdout: string) => stdout.trimEnd().split('\n').filter(Boolean).map((l) => JSON.parse(l));

describe('pace: adaptive to 429', () => {
  it('halves the workers in flight and holds everyone for Retry-After, then grows back', async () => {
    const pace = new Pace(4);
    for (let i = 0; i < 4; i += 1) await pace.acquire();
    // A burst of 429s from the workers in flight is one cut, not four.
    pace.rateLimited(150);
    pace.rateLimited(150);
    for (let i = 0; i < 4; i += 1) pace.release(false);
    const started = Date.now();
    await pace.acquire();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    await pace.acquire();
    // Two in flight: the limit is now 2, so a third waits until one is released.
    let third = false;
    const waiting = pace.acquire().then(() => (third = true));
    await new Promise((r) => setTimeout(r, 60));
    expect(third).toBe(false);
    pace.release(true);
    await waiting;
    expect(third).toBe(true);
    // Two successes (a window of the limit) grow it to 3: three may be in flight again.
    pace.release(true);
    pace.release(true);
    for (let i = 0; i < 3; i += 1) await pace.acquire();
  });
});

describe('pace: a freed slot is taken at once', () => {
  it('a worker waiting for a slot gets it when one is released, without waiting for a timer', async () => {
    vi.useFakeTimers();
    try {
      const pace = new Pace(1);
      await pace.acquire();
      let acquired = false;
      const waiting = pace.acquire().then(() => (acquired = true));
      for (let i = 0; i < 5; i += 1) await Promise.resolve();
      expect(acquired).toBe(false);
      pace.release(true);
      // Timers are frozen: only a wake-up on release, not a poll, lets the waiter through.
      for (let i = 0; i < 5; i += 1) await Promise.resolve();
      expect(acquired).toBe(true);
      await waiting;
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('pace: every wait bounded', () => {
  it('a 429 asking for hours pauses the batch for at most MAX_PAUSE_MS', async () => {
    vi.useFakeTimers();
    try {
      const pace = new Pace(2);
      pace.rateLimited(99_999 * 1000);
      let acquired = false;
      const waiting = pace.acquire().then(() => (acquired = true));
      await vi.advanceTimersByTimeAsync(MAX_PAUSE_MS - 1000);
      expect(acquired).toBe(false);
      await vi.advanceTimersByTimeAsync(1100);
      await waiting;
      expect(acquired).toBe(true);
      expect(MAX_PAUSE_MS).toBe(60_000);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a batch from a file', () => {
  it('refuses the same transaction on two rows before sending anything, unless --allow-duplicates', async ({ home }) => {
    const sale = await createCard(home, '10.00');
    const other = await createCard(home, '10.00');
    const csv = `id,amount\n${sale.id},4.00\n${other.id},1.00\n${sale.id},4.00\n`;
    expectUsage(
      await run(home, ['transactions', 'refund', '--file', '-', '--yes'], { stdin: csv }),
      `--file: the same transaction is on more than one row: rows 1 and 3 (${sale.id}). Nothing was sent.`,
      '--allow-duplicates',
    );
    expect(voids(await getTx(home, sale.id))).toBe(0);
    expect(voids(await getTx(home, other.id))).toBe(0);
    // Meant: two partial refunds of one sale, one after the other.
    const meant = await run(home, ['transactions', 'refund', '--file', '-', '--yes', '--allow-duplicates'], { stdin: csv });
    expect(meant.code, meant.stderr).toBe(0);
    expect(results(meant.stdout).map((l) => l.status)).toEqual(['refunded', 'refunded', 'refunded']);
    const tx = await getTx(home, sale.id);
    expect([tx.amount, voids(tx)]).toEqual(['2.00', 2]);
    // The same input again: payctl refunded each sale as many times as the file asks, nothing moves.
    const again = await run(home, ['transactions', 'refund', '--file', '-', '--yes', '--allow-duplicates'], { stdin: csv });
    expect(again.code, again.stderr).toBe(0);
    expect(results(again.stdout).map((l) => l.status)).toEqual(['skipped', 'skipped', 'skipped']);
    expect(voids(await getTx(home, sale.id))).toBe(2);
  });

  it('shows done, failed and left on a terminal stderr', async ({ home }) => {
    const sales = [await createCard(home, '10.00'), await createCard(home, '11.00')] as const;
    const csv = `id\n${sales[0].id}\nbad\n${sales[1].id}\n`;
    const result = await run(home, ['transactions', 'refund', '--file', '-', '--yes', '--full'], { stdin: csv, stderrTty: true });
    expect(result.code).toBe(10);
    expect(result.stderr).toMatch(/2 done \| 1 failed \| 0 left \| [\d,]+\/s/);
  });

  it('on a terminal: a readable line per row; NDJSON with -o ndjson there too', async ({ home }) => {
    const sales = [await createCard(home, '10.00'), await createCard(home, '11.00')] as const;
    const csv = `id,amount\n${sales[0].id},2.50\nbad\n${sales[1].id},tudo\n`;
    const result = await run(home, ['transactions', 'refund', '--file', '-', '--yes', '--no-color'], { stdin: csv, tty: true });
    expect(result.code).toBe(10);
    const lines = result.stdout.trimEnd().split('\n').sort();
    expect(lines).toHaveLength(3);
    expect(lines).toContain(`row  1  refunded  R$ 2,50  ${sales[0].id}`);
    expect(lines).toContain(`row  3  refunded  R$ 11,00  ${sales[1].id}`);
    expect(lines.find((l) => l.startsWith('row  2'))).toMatch(/^row {2}2 {2}invalid {3}\S.*id/);
    const piped = await run(home, ['transactions', 'refund', '--file', '-', '--yes', '-o', 'ndjson'], { stdin: `id,amount\n${(await createCard(home, '5.00')).id},all\n`, tty: true });
    expect(results(piped.stdout).map((l) => l.status)).toEqual(['refunded']);
  });

  it('one row is one row: counted in the singular', async ({ home }) => {
    const file = join(home, 'one.csv');
    writeFileSync(file, 'id,amount\nnot-an-id,1.00\n');
    const dry = await run(home, ['transactions', 'refund', '--file', file, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain('dry run: 1 row read, nothing was sent');
    const result = await run(home, ['transactions', 'refund', '--file', file, '--yes']);
    expect(result.code, result.stderr).toBe(10);
    expect(result.stderr).toContain('Refunded 0 of 1 row (R$ 0,00); 0 failed, 1 invalid');
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe('error: 1 of 1 row was not refunded (see their result lines)');
  });

  it('CSV with amounts in reais or cents; bad rows reported without stopping; exit 10 when some fail', async ({ home }) => {
    const [a, b, c] = [await createCard(home, '30.00'), await createCard(home, '40.00'), await createCard(home, '50.00')];
    const csv = ['id,amount,amount_cents', `${a.id},5.00,`, `${b.id},ALL,`, 'not-an-id,1.00,', `${c.id},,1250`, `${a.id},abc,`].join('\n');
    const file = join(home, 'refunds.csv');
    writeFileSync(file, csv);
    const result = await run(home, ['transactions', 'refund', '--file', file, '--yes']);
    expect(result.code, result.stderr).toBe(10);
    const lines = results(result.stdout).sort((x, y) => x.row - y.row);
    expect(lines.map((l) => [l.row, l.status, l.refunded_amount])).toEqual([
      [1, 'refunded', '5.00'],
      [2, 'refunded', '40.00'],
      [3, 'invalid', null],
      [4, 'refunded', '12.50'],
      [5, 'invalid', null],
    ]);
    expect(lines[2].error).toContain('not a transaction id');
    expect(Object.keys(lines[0]).sort()).toEqual(['error', 'id', 'refunded_amount', 'row', 'status']);
    expect(result.stderr).toContain('Refunded 3 of 5 rows (R$ 57,50); 0 failed, 2 invalid');
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe('error: 2 of 5 rows were not refunded (see their result lines)');
    expect((await getTx(home, a.id)).amount).toBe('25.00');
    expect((await getTx(home, b.id)).status).toBe('canceled');
    expect((await getTx(home, c.id)).amount).toBe('37.50');

    // The same input again: every refunded row is skipped, nothing is sent twice.
    const again = await run(home, ['transactions', 'refund', '--file', file, '--yes']);
    expect(again.code).toBe(10);
    const skipped = results(again.stdout).filter((l) => l.status === 'skipped');
    expect(skipped.map((l) => l.row).sort()).toEqual([1, 2, 4]);
    const skippedRow = (row: number) => skipped.find((l) => l.row === row);
    expect(skippedRow(1).reason).toMatch(/^already refunded R\$ 5,00 by payctl on \d{4}-\d\d-\d\d at \d\d:\d\d:\d\d UTC \(\S+@\S+, batch refunds\.csv\)$/);
    expect(skippedRow(2).reason).toMatch(/^already fully refunded \(R\$ 40,00 by payctl on .* \(\S+@\S+, batch refunds\.csv\)\)$/);
    expect(again.stderr).toContain(
      'Refunded 0 of 5 rows (R$ 0,00); 0 failed, 2 invalid.\nSkipped 2 rows refunded earlier (--again refunds them).\nSkipped 1 row already refunded, with too little left to refund it again.\n',
    );
    expect(voids(await getTx(home, a.id))).toBe(1);
    // --again refunds them again: the partial refund is made again; all that remains finds the sale already fully refunded.
    const again2 = await run(home, ['transactions', 'refund', '--file', file, '--yes', '--again']);
    const byRow = new Map(results(again2.stdout).map((l) => [l.row, l]));
    expect(byRow.get(1)).toMatchObject({ status: 'refunded', refunded_amount: '5.00' });
    expect(byRow.get(2)).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^already fully refunded \(/) });
    expect(voids(await getTx(home, b.id))).toBe(1);
    expect(voids(await getTx(home, a.id))).toBe(2);
  });

  it('NDJSON piped from transactions list; one confirmation for the batch, --yes needed without prompts', async ({ home }) => {
    const sales = [await createCard(home, '10.00'), await createCard(home, '20.00')] as const;
    const listed = await run(home, ['transactions', 'list', '--all', '-o', 'ndjson']);
    const refused = await run(home, ['transactions', 'refund', '--file', '-'], { stdin: listed.stdout });
    expectUsage(refused, '--yes required to refund in bulk');
    expect(voids(await getTx(home, sales[0].id))).toBe(0);
    const done = await run(home, ['transactions', 'refund', '--file', '-', '--yes'], { stdin: listed.stdout });
    expect(done.code, done.stderr).toBe(0);
    expect(results(done.stdout).map((l) => l.status)).toEqual(['refunded', 'refunded']);
    expect(done.stderr).toContain('Refunded 2 of 2 rows (R$ 30,00)');
    for (const sale of sales) expect((await getTx(home, sale.id)).status).toBe('canceled');
  });

  it('refuses a bad batch before sending: no rows, no id column, --amount with --file, id with --file', async ({ home }) => {
    const sale = await createCard(home, '10.00');
    expectUsage(await run(home, ['transactions', 'refund', '--file', '-', '--yes'], { stdin: '' }), '--file', 'no rows');
    expectUsage(await run(home, ['transactions', 'refund', '--file', '-', '--yes'], { stdin: 'transaction,amount\nx,1\n' }), 'id');
    expectUsage(await run(home, ['transactions', 'refund', '--file', '-', '--amount', '1', '--yes'], { stdin: `id\n${sale.id}\n` }), '--file');
    expectUsage(await run(home, ['transactions', 'refund', sale.id, '--file', '-'], { stdin: `id\n${sale.id}\n` }), 'not both');
    expectUsage(await run(home, ['transactions', 'refund', '--file', '-', '--concurrency', '0', '--yes'], { stdin: `id\n${sale.id}\n` }), '--concurrency');
    const dry = await run(home, ['transactions', 'refund', '--file', '-', '--dry-run'], { stdin: `id,amount\n${sale.id},2.50\n` });
    expect(results(dry.stdout)).toEqual([{ row: 1, id: sale.id, amount_cents: 250, error: null }]);
    expect(voids(await getTx(home, sale.id))).toBe(0);
  });
});

// --- against `sandbox serve --faults`: the service fails a fifth of requests, on purpose --------

const FAULTS = '500-before=0.04,500-after=0.04,reset-before=0.03,reset-after=0.03,429=0.04,slow=0.02,retry-after=0,slow-ms=800';
let serverHome: { home: string; cleanup: () => void };
let server: ChildProcess;
let env: Record<string, string>;

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (d: Buffer) => {
      buffer += d.toString();
      if (buffer.includes('\n')) resolve(buffer.slice(0, buffer.indexOf('\n')));
    });
    child.once('exit', (code) => reject(new Error(`sandbox serve exited ${code}`)));
  });
}

/** `count` refundable sales (cards and PIX) as NDJSON rows, as `transactions list` prints them. */
async function salesFile(clientHome: string, count: number): Promise<string> {
  const clean = { ...env, PAYCTL_BASE_URL: env.PAYCTL_BASE_URL as string };
  expectJson(await payctl(['sandbox', 'generate', '--sales', String(Math.ceil(count * 1.2)), '--days', '1', '-o', 'json'], { home: clientHome, env: clean }));
  // Listed through the embedded sandbox on the server's own state directory, which injects no
  // faults: the batch under test is the refund, not this lookup (through the server, a page
  // failing three tries in a row made this setup fail about one run in ten).
  const listed = await payctl(['transactions', 'list', '--all', '--payment-type', 'credit,pix', '-o', 'ndjson'], { home: serverHome.home });
  expect(listed.code, listed.stderr).toBe(0);
  const lines = listed.stdout.trimEnd().split('\n').filter((l) => JSON.parse(l).status === 'succeeded').slice(0, count);
  expect(lines).toHaveLength(count);
  const file = join(clientHome, 'sales.ndjson');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** Every row's transaction, from the sandbox's files: refunded exactly once. */
async function expectRefundedOnce(file: string): Promise<void> {
  const ids: string[] = (await import('node:fs')).readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l).id);
  const state = present(await readStateFiles(join(serverHome.home, 'state')), 'the sandbox state');
  const byId = new Map(state.transactions.map((s) => [s.txn.id, s.txn]));
  const counts = ids.map((id) => voids(present(byId.get(id), id)));
  expect(counts.filter((n) => n !== 1)).toEqual([]);
  expect(ids.every((id) => byId.get(id)?.status === 'canceled')).toBe(true);
}

describe('against sandbox serve --faults', () => {
  beforeAll(async () => {
    serverHome = tempHome();
    server = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--faults', FAULTS], { env: testEnv(serverHome.home) });
    // The built-in key's marketplace is the embedded sandbox's state, listed and checked through serverHome.
    // A short settle window: this server drops answers but never applies a request late.
    env = { PAYCTL_BASE_URL: await firstLine(server), PAYCTL_API_KEY: SANDBOX_API_KEY, PAYCTL_MARKETPLACE_ID: '', PAYCTL_SETTLE_WINDOW: '2' };
  });
  afterAll(async () => {
    server.kill('SIGINT');
    await new Promise((resolve) => server.once('exit', resolve));
    serverHome.cleanup();
  });

  it('1,000 refunds with a fifth of requests failing: every transaction refunded exactly once, no row lost', async ({ home }) => {
    const file = await salesFile(home, 1000);
    const result = await payctl(['transactions', 'refund', '--file', file, '--yes', '--timeout', '0.5'], { home, env });
    expect(result.code, result.stderr).toBe(0);
    const lines = results(result.stdout);
    expect(lines).toHaveLength(1000);
    expect(new Set(lines.map((l) => l.row)).size).toBe(1000);
    expect(lines.every((l) => l.status === 'refunded' && l.error === null)).toBe(true);
    expect(result.stderr).toMatch(/Refunded 1.000 of 1.000 rows \(R\$ [\d.,]+\)\.\nLedger: .*\/state\/ledger\/ledger\.sqlite\n$/);
    await expectRefundedOnce(file);
  }, 120_000);

  it('killed with SIGKILL at random moments 10 times and resumed each time: still exactly once', async ({ home }) => {
    const file = await salesFile(home, 1000);
    const args = [BIN, 'transactions', 'refund', '--file', file, '--yes', '--timeout', '0.5'];
    for (let kill = 0; kill < 10; kill += 1) {
      const child = spawn(process.execPath, args, { env: testEnv(home, env), stdio: 'ignore' });
      // Listened for from the start: a resumed run may finish before its kill comes.
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 700));
      child.kill('SIGKILL');
      await exited;
    }
    const last = await payctl(['transactions', 'refund', '--file', file, '--yes', '--timeout', '0.5'], { home, env });
    expect(last.code, last.stderr).toBe(0);
    const lines = results(last.stdout);
    expect(lines).toHaveLength(1000);
    expect(lines.every((l) => l.status === 'refunded' || (l.status === 'skipped' && /by payctl on .*batch sales\.ndjson/.test(l.reason)))).toBe(true);
    // The earlier runs got somewhere: the last one skipped what they did rather than did it all.
    expect(lines.some((l) => l.status === 'skipped')).toBe(true);
    expect(readdirSync(join(home, 'state', 'ledger')).filter((f) => f.endsWith('.sqlite'))).toEqual(['ledger.sqlite']);
    await expectRefundedOnce(file);
  }, 180_000);
});
