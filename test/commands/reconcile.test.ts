import { join } from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import * as z from 'zod/mini';
import { it } from '../helpers/fixtures.js';
import { reconcileReport } from '../helpers/printed.js';
import { providerError, type RecordedRequest, type Reply } from '../helpers/recording-server.js';
import { tempHome } from '../helpers/run.js';
import { expectError, expectJson, present, run, runAgainst } from './helpers.js';

// A transfer explains itself: the receivables it paid add up to it, to the centavo, or the
// difference is named (exit 12). reconcile does it for every transfer of a period, and lists what
// no transfer accounts for.

describe('the sandbox: transfers that add up', () => {
  let home: { home: string; cleanup: () => void };
  beforeAll(async () => {
    home = tempHome();
    expect((await run(home.home, ['sandbox', 'generate', '--sales', '400', '--days', '20', '-q'])).code).toBe(0);
  }, 120_000);
  afterAll(() => home.cleanup());

  /** The calendar month most of the transfers fall in, first day to last. */
  const period = async () => {
    const transfers = expectJson(await run(home.home, ['transfers', 'list', '--all', '-o', 'json']));
    const months = transfers.map((t) => (t.created_at as string).slice(0, 7)).sort();
    const month = months[Math.floor(months.length / 2)] as string;
    const [y, m] = month.split('-').map(Number) as [number, number];
    return { from: `${month}-01`, to: new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10) };
  };

  it('reconcile over a month lists every transfer of it once, each matched; totals per seller; exit 0', async () => {
    const { from, to } = await period();
    const listed = expectJson(await run(home.home, ['transfers', 'list', '--all', '--from', from, '--to', to, '-o', 'json'])).map((t) => t.id).sort();
    expect(listed.length).toBeGreaterThan(50);
    const result = await run(home.home, ['reconcile', '--from', from, '--to', to, '-o', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const report = z.parse(reconcileReport, JSON.parse(result.stdout));
    expect(report.transfers.map((t) => t.transfer).sort()).toEqual(listed);
    expect(report.transfers.every((t) => t.result === 'matched' && t.difference === '0.00')).toBe(true);
    expect(report.orphans).toEqual([]);
    expect(report.matched).toBe(true);
    const cents = (s: string) => Math.round(Number(s) * 100);
    expect(report.sellers.reduce((sum, s) => sum + cents(s.amount), 0)).toBe(report.transfers.reduce((sum, t) => sum + cents(t.amount), 0));
    expect(result.stderr).toMatch(new RegExp(`^${listed.length} transfers \\(R\\$ [\\d.]+,\\d\\d\\), ${from} to ${to}: every one adds up\\n$`));
  });

  it('the lines as CSV and as Parquet: the same transfers', async () => {
    const { from, to } = await period();
    const file = join(home.home, 'reconcile.parquet');
    const result = await run(home.home, ['reconcile', '--from', from, '--to', to, '-o', 'csv', '--parquet', file]);
    expect(result.code, result.stderr).toBe(0);
    const csvIds = result.stdout.trim().split('\n').slice(1).map((l) => l.split(',')[0]).sort();
    const rows = (await parquetReadObjects({ file: await asyncBufferFromFile(file) })) as Array<{ transfer: string; result: string }>;
    expect(rows.map((r) => r.transfer).sort()).toEqual(csvIds);
    expect(rows.every((r) => r.result === 'matched')).toBe(true);
  });

  it('explain: each item with its gross, fee and net; a refund before the payout is already out of the gross; exit 0', async () => {
    const fresh = tempHome();
    try {
      const sale = expectJson(await run(fresh.home, ['transactions', 'create', '--payment-type', 'pix', '--amount', '100.00']));
      expect((await run(fresh.home, ['sandbox', 'pay', sale.id as string])).code).toBe(0);
      expect((await run(fresh.home, ['transactions', 'refund', sale.id as string, '--amount', '30.00', '--yes'])).code).toBe(0);
      expect((await run(fresh.home, ['sandbox', 'advance', '--days', '3'])).code).toBe(0);
      const transfer = present(expectJson(await run(fresh.home, ['transfers', 'list', '-o', 'json']))[0], 'a transfer');
      const result = await run(fresh.home, ['transfers', 'explain', transfer.id, '-o', 'json']);
      expect(result.code, result.stderr).toBe(0);
      const explained = JSON.parse(result.stdout);
      expect(explained.items).toHaveLength(1);
      expect(explained.items[0]).toMatchObject({ transaction: sale.id, gross: '70.00', refunded: '30.00', net: transfer.amount });
      expect(explained).toMatchObject({ amount: transfer.amount, expected: transfer.amount, difference: '0.00', matched: true, unexplained: [] });
      const table = await run(fresh.home, ['transfers', 'explain', transfer.id, '-o', 'table']);
      expect(table.stdout).toContain('it adds up (difference R$ 0,00)');
    } finally {
      fresh.cleanup();
    }
  });
});

describe('views that read like a transaction\'s', () => {
  it('transfers get, receivables get and plans get on a terminal: the summary first, in words', async () => {
    const fresh = tempHome();
    try {
      const sale = expectJson(await run(fresh.home, ['transactions', 'create', '--payment-type', 'pix', '--amount', '100.00']));
      expect((await run(fresh.home, ['sandbox', 'pay', sale.id as string])).code).toBe(0);
      expect((await run(fresh.home, ['sandbox', 'advance', '--days', '3'])).code).toBe(0);
      const transfer = present(expectJson(await run(fresh.home, ['transfers', 'list', '-o', 'json']))[0], 'a transfer');
      const tty = { tty: true, columns: 80 } as const;
      const shown = (await run(fresh.home, ['transfers', 'get', transfer.id as string, '--no-pager', '--no-color'], tty)).stdout.split('\n');
      expect(shown[0]).toBe(`Transfer ${transfer.id}  succeeded`);
      expect(shown.find((l) => l.startsWith('Amount'))).toMatch(/^Amount +R\$ \d+,\d\d$/);
      expect(shown.find((l) => l.startsWith('Paid'))).toMatch(/^Paid +1 receivable of 1 sale$/);
      expect(shown.find((l) => l.startsWith('Explained by'))).toBe(`Explained by  payctl transfers explain ${transfer.id}`);
      const receivable = (transfer.receivables as string[])[0] as string;
      const view = (await run(fresh.home, ['receivables', 'get', receivable, '--no-pager', '--no-color'], tty)).stdout.split('\n');
      expect(view[0]).toBe(`Receivable ${receivable}  paid`);
      expect(view.find((l) => l.startsWith('Transfer'))).toMatch(new RegExp(`^Transfer +${transfer.id}$`));
      const plan = expectJson(await run(fresh.home, ['plans', 'create', '--name', 'Ouro', '--amount', '29.90', '--frequency', 'monthly', '--interval', '3']));
      const planView = (await run(fresh.home, ['plans', 'get', plan.uuid as string, '--no-pager', '--no-color'], tty)).stdout.split('\n');
      expect(planView[0]).toBe(`Plan ${plan.uuid}  active`);
      expect(planView.find((l) => l.startsWith('Amount'))).toMatch(/^Amount +R\$ 29,90$/);
      expect(planView.find((l) => l.startsWith('Charged'))).toMatch(/^Charged +every 3 months$/);
    } finally {
      fresh.cleanup();
    }
  });
});

describe('a service whose transfer does not add up', () => {
  const T = 't'.repeat(32);
  const R1 = '1'.repeat(32);
  const R2 = '2'.repeat(32);
  const R3 = '3'.repeat(32);
  const transfer = { id: T, resource: 'transfer', status: 'succeeded', amount: '100.00', fees: '0.00', currency: 'BRL', on_behalf_of: 's'.repeat(32), transfer_date: '2026-11-20', receivables: [R1, R2], transactions: [], created_at: '2026-11-20T12:00:00.000Z' };
  const receivable = (id: string, net: string, gross: string, extra: Record<string, unknown> = {}) => ({ id, resource: 'receivable', status: 'paid', amount: net, gross_amount: gross, transaction: null, transfer: T, installment: '1', ...extra });
  const route = (req: RecordedRequest): Reply => {
    if (req.path.endsWith(`/transfers/${T}`)) return { status: 200, body: transfer };
    if (req.path.endsWith(`/receivables/${R1}`)) return { status: 200, body: receivable(R1, '60.00', '62.00') };
    if (req.path.endsWith(`/receivables/${R2}`)) return { status: 200, body: receivable(R2, '30.00', '31.00', { transaction: 'x'.repeat(32) }) };
    if (req.path.includes('/transactions/')) return { status: 404, body: providerError(404, 'resource_not_found', 'Sorry, the transaction does not exist') };
    if (req.path.endsWith('/transfers')) return { status: 200, body: { items: [transfer], has_more: false, total: 1 } };
    // A receivable the period paid out that no transfer lists.
    if (req.path.includes('/receivables')) return { status: 200, body: { items: [receivable(R3, '5.00', '5.00', { transfer: null, expected_on: '2026-11-20T00:00:00.000Z' })], has_more: false, total: 1 } };
    return { status: 500, body: providerError(500, 'server_error', 'unexpected') };
  };

  it('explain: exit 12 naming the difference; the item whose sale is missing is not explained', async ({ home }) => {
    const { result } = await runAgainst(home, ['transfers', 'explain', T, '-o', 'json'], route);
    const line = expectError({ ...result, stdout: '' }, 12);
    expect(line).toBe(`error: transfer ${T} does not add up: its items come to R$ 60,00 and it is R$ 100,00: a difference of R$ 40,00; 1 item cannot be explained`);
    const explained = JSON.parse(result.stdout);
    expect(explained).toMatchObject({ amount: '100.00', expected: '60.00', difference: '40.00', matched: false });
    expect(explained.unexplained).toEqual([{ receivable: R2, transaction: 'x'.repeat(32), sale_missing: true, why: `its sale ${'x'.repeat(32)} is missing` }]);
  });

  it('reconcile: exit 12, the transfer and the orphans named', async ({ home }) => {
    const { result } = await runAgainst(home, ['reconcile', '--from', '2026-11-01', '--to', '2026-11-30', '-o', 'json'], route);
    expect(result.code).toBe(12);
    const report = z.parse(reconcileReport, JSON.parse(result.stdout));
    expect(report.transfers).toEqual([expect.objectContaining({ transfer: T, result: 'unexplained', difference: '40.00', unexplained: 1 })]);
    expect(report.orphans.map((o) => [o.kind, o.receivable])).toEqual([
      ['sale missing', R2],
      ['paid, in no transfer', R3],
    ]);
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe(`error: 1 transfer (R$ 100,00), 2026-11-01 to 2026-11-30: 1 transfer does not add up (${T}: 1 item not explained); 2 receivables no transfer accounts for`);
  });
});
