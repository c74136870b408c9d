import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { testEnv } from '../helpers/run.js';
import { BIN } from '../helpers/serve.js';
import { createCard, expectUsage, getTx, run } from './helpers.js';
import type { Transaction } from '../../src/sandbox/types.js';

// A bulk refund's input is read strictly: a column, a cell or a line payctl cannot read is an
// error naming it, and never "refund all that remains". Each case checks the sandbox's state:
// what could not be read moved no money.
const results = (stdout: string) => stdout.trimEnd().split('\n').filter(Boolean).map((l) => JSON.parse(l));
const voids = (tx: Transaction) => tx.history.filter((h) => h.operation_type === 'void' && h.status === 'succeeded').length;
const refund = (home: string, stdin: string, extra: string[] = []) => run(home, ['transactions', 'refund', '--file', '-', '--yes', ...extra], { stdin });

describe('amounts: one column payctl knows, one cell per row', () => {
  it('a column payctl does not read (refund_amount): exit 2 naming it, nothing sent', async ({ home }) => {
    const sale = await createCard(home, '100.00');
    expectUsage(await refund(home, `id,refund_amount\n${sale.id},1.00\n`), '--file: the header has a column payctl does not read: "refund_amount"', 'id, amount or valor (reais), amount_cents or valor_centavos (cents)', 'Nothing was sent');
    expectUsage(await refund(home, `id\n${sale.id}\n`), '--file: the header has no amount column', 'or pass --full');
    expect((await getTx(home, sale.id)).amount).toBe('100.00');
  });

  it('valor (reais) and valor_centavos are read as amount and amount_cents: exactly what they say', async ({ home }) => {
    const [a, b] = [await createCard(home, '100.00'), await createCard(home, '100.00')];
    const result = await refund(home, `id,valor,valor_centavos\n${a.id},1.00,\n${b.id},,250\n`);
    expect(result.code, result.stderr).toBe(0);
    expect((await getTx(home, a.id)).amount).toBe('99.00');
    expect((await getTx(home, b.id)).amount).toBe('97.50');
  });

  it('a blank cell, two amounts on a row, an unquoted decimal comma: that row is refused, the sale unchanged; the others go on', async ({ home }) => {
    const sales = await Promise.all(Array.from({ length: 4 }, () => createCard(home, '100.00')));
    const csv = ['id,amount,amount_cents', `${sales[0]!.id},,`, `${sales[1]!.id},1.00,500`, `${sales[2]!.id},10,50`, `${sales[3]!.id},2.00,`].join('\n');
    const result = await refund(home, `${csv}\n`);
    expect(result.code).toBe(10);
    const byRow = new Map(results(result.stdout).map((l) => [l.row, l]));
    expect(byRow.get(1)).toMatchObject({ status: 'invalid', error: expect.stringMatching(/^no amount: write one in amount or amount_cents, or all \(tudo\) to refund all that remains$/) });
    expect(byRow.get(2)).toMatchObject({ status: 'invalid', error: 'two amounts (amount 1.00, amount_cents 500): give one' });
    // 10,50 in a comma file is two cells: here they fill both amount columns, and are refused as two amounts.
    expect(byRow.get(3)).toMatchObject({ status: 'invalid', error: 'two amounts (amount 10, amount_cents 50): give one' });
    expect(byRow.get(4)).toMatchObject({ status: 'refunded', refunded_amount: '2.00' });
    for (const sale of sales.slice(0, 3)) expect((await getTx(home, sale.id)).amount).toBe('100.00');
    expect((await getTx(home, sales[3]!.id)).amount).toBe('98.00');
  });

  it('an unquoted decimal comma with two columns: more cells than columns, named', async ({ home }) => {
    const sale = await createCard(home, '100.00');
    const result = await refund(home, `id,amount\n${sale.id},10,50\n`);
    expect(result.code).toBe(10);
    expect(results(result.stdout)).toEqual([
      { row: 1, id: sale.id, status: 'invalid', refunded_amount: null, error: '3 cells for 2 columns; an unquoted decimal comma? write "10,50" in quotes, 10.50, or separate the cells with ;' },
    ]);
    expect((await getTx(home, sale.id)).amount).toBe('100.00');
  });

  it('all (or tudo) is all that remains, said in so many words; --full says it for every row of an id-only file', async ({ home }) => {
    const [a, b, c] = [await createCard(home, '30.00'), await createCard(home, '40.00'), await createCard(home, '50.00')];
    expect((await refund(home, `id,amount\n${a.id},all\n${b.id},TUDO\n`)).code).toBe(0);
    expect([(await getTx(home, a.id)).status, (await getTx(home, b.id)).status]).toEqual(['canceled', 'canceled']);
    const full = await refund(home, `id\n${c.id}\n`, ['--full']);
    expect(full.code, full.stderr).toBe(0);
    expect(results(full.stdout)).toMatchObject([{ status: 'refunded', refunded_amount: '50.00' }]);
    expectUsage(await refund(home, `id,amount\n${c.id},1.00\n`, ['--full']), '--full refunds all that remains of every row, but the file has an amount column (amount)');
  });

  it('NDJSON: the same amounts (valor too); a row without one is refused', async ({ home }) => {
    const [a, b] = [await createCard(home, '100.00'), await createCard(home, '100.00')];
    const result = await refund(home, `${JSON.stringify({ id: a.id, valor: '3,25' })}\n${JSON.stringify({ id: b.id, refund_amount: 5 })}\n`);
    expect(result.code).toBe(10);
    expect(results(result.stdout).sort((x, y) => x.row - y.row).map((l) => [l.row, l.status, l.refunded_amount])).toEqual([
      [1, 'refunded', '3.25'],
      [2, 'invalid', null],
    ]);
    expect((await getTx(home, b.id)).amount).toBe('100.00');
  });
});

describe('the formats a spreadsheet writes', () => {
  it('Excel pt-BR: a BOM, ; between cells, decimal commas, CRLF: refunds exactly R$ 10,50', async ({ home }) => {
    const sale = await createCard(home, '100.00');
    const file = join(home, 'estornos.csv');
    writeFileSync(file, `\ufeffID;Valor\r\n${sale.id};10,50\r\n`);
    const result = await run(home, ['transactions', 'refund', '--file', file, '--yes']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Refunded 1 of 1 row (R$ 10,50).');
    const tx = await getTx(home, sale.id);
    expect([tx.amount, voids(tx)]).toEqual(['89.50', 1]);
  });
});

describe('what --file may be', () => {
  it('a directory or a device is exit 2, one line, before anything is read', async ({ home }) => {
    mkdirSync(join(home, 'adir'));
    expectUsage(await run(home, ['transactions', 'refund', '--file', join(home, 'adir'), '--yes']), `--file: ${join(home, 'adir')} is a directory, not a file of rows`);
    expectUsage(await run(home, ['transactions', 'refund', '--file', '/dev/zero', '--yes']), '--file: /dev/zero is a device, not a file of rows');
  });

  it('a line longer than 64 KB is exit 2 naming its row; a file with none (endless zeros through a pipe) stops at the first, memory bounded', async ({ home }) => {
    const sale = await createCard(home, '100.00');
    const long = `id,amount\n${sale.id},1.00\n${'x'.repeat(70_000)},1.00\n`;
    expectUsage(await refund(home, long), '--file: row 2 is longer than 64 KB; not a refund file');
    expect((await getTx(home, sale.id)).amount).toBe('100.00');

    // The built binary fed from `cat /dev/zero`: its peak memory, written by the process itself at exit.
    const rssFile = join(home, 'rss');
    const reporter = join(home, 'report-rss.mjs');
    writeFileSync(reporter, `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(process.env.RSS_FILE, String(process.resourceUsage().maxRSS)));\n`);
    const child = spawn('sh', ['-c', `cat /dev/zero | "${process.execPath}" --import "${reporter}" "${BIN}" transactions refund --file - --yes`], { env: testEnv(home, { RSS_FILE: rssFile }) });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(code).toBe(2);
    expect(stderr).toBe('error: --file: the first line is longer than 64 KB; not a refund file (a refund row is a few dozen bytes). Nothing was sent\n');
    expect(Number(readFileSync(rssFile, 'utf8')) / 1024).toBeLessThan(200);
  });
});
