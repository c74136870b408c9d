import { parse as parseSync } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { groupRows } from '../helpers/printed.js';
import { SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { tempHome } from '../helpers/run.js';
import { expectJson, expectUsage, present, run } from './helpers.js';

// --group-by: one row per group, summed in cents. Each case sums the ungrouped list of the same
// period here and compares, to the centavo; the day groups are checked against local dates
// computed with Intl, nothing of payctl's.
let home: { home: string; cleanup: () => void };
const SP = { TZ: 'America/Sao_Paulo' };

beforeAll(async () => {
  home = tempHome();
  expect((await run(home.home, ['sandbox', 'generate', '--sales', '1500', '--days', '40', '-q'])).code).toBe(0);
  // Refunds of our own besides the volume's, so that the refunds column has something known to add up.
  const sales = expectJson(await run(home.home, ['transactions', 'list', '--limit', '30', '--status', 'succeeded', '--payment-type', 'credit', '-o', 'json']));
  for (const sale of sales.slice(0, 10)) expect((await run(home.home, ['transactions', 'refund', sale.id as string, '--amount', '1.23', '--yes', '-o', 'json'])).code).toBe(0);
}, 180_000);
afterAll(() => home.cleanup());

const cents = (s: unknown) => Math.round(Number(s) * 100);
const sum = <T>(rows: readonly T[], pick: (r: T) => number) => rows.reduce((total, r) => total + pick(r), 0);
const grouped = async (args: string[]) => {
  const result = await run(home.home, [...args, '-o', 'json'], { env: SP });
  expect(result.code, result.stderr).toBe(0);
  return z.parse(groupRows, JSON.parse(result.stdout));
};
const all = async <const A extends readonly string[]>(args: A) => expectJson(await run(home.home, [...args, '--all', '-o', 'json'], { env: SP }));
const localDate = (iso: string) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));

describe('transactions list --group-by', () => {
  for (const by of ['day', 'week', 'month', 'seller', 'payment-type', 'card-brand', 'status']) {
    it(`${by}: the groups add up to the ungrouped list, to the centavo`, async () => {
      const items = await all(['transactions', 'list']);
      const groups = await grouped(['transactions', 'list', '--group-by', by]);
      expect(sum(groups, (g) => g.count as number)).toBe(items.length);
      expect(sum(groups, (g) => cents(g.net))).toBe(sum(items, (t) => cents(t.amount) - cents(t.fees)));
      expect(sum(groups, (g) => cents(g.fees))).toBe(sum(items, (t) => cents(t.fees)));
      // Gross is what was sold; less the refunds, what remains (the ungrouped list's gross).
      expect(sum(groups, (g) => cents(g.gross) - cents(g.refunds))).toBe(sum(items, (t) => cents(t.amount)));
      // What was given back of each sale: refunds (the volume's and our ten) and chargebacks.
      const refunds = sum(items, (t) => cents(t.original_amount) - cents(t.amount));
      expect(refunds).toBeGreaterThan(10 * 123);
      expect(sum(groups, (g) => cents(g.refunds))).toBe(refunds);
      expect(new Set(groups.map((g) => g.group)).size).toBe(groups.length);
    });
  }

  it('day: the groups are the local days, each with the sales of that day', async () => {
    const items = await all(['transactions', 'list']);
    const groups = await grouped(['transactions', 'list', '--group-by', 'day']);
    const expected = new Map<string, number>();
    for (const t of items) expected.set(localDate(t.created_at as string), (expected.get(localDate(t.created_at as string)) ?? 0) + 1);
    expect(groups.map((g) => [g.group, g.count])).toEqual([...expected].sort(([a], [b]) => (a < b ? -1 : 1)));
  });

  it('a period: only its days; --limit still bounds what is read', async () => {
    const days = (await grouped(['transactions', 'list', '--group-by', 'day'])).map((g) => g.group as string);
    const [from, to] = [days[3] as string, days[9] as string];
    const period = await grouped(['transactions', 'list', '--group-by', 'day', '--from', from, '--to', to]);
    expect(period.map((g) => g.group)).toEqual(days.slice(3, 10));
    const limited = await grouped(['transactions', 'list', '--group-by', 'month', '--limit', '50']);
    expect(sum(limited, (g) => g.count as number)).toBe(50);
  });

  it('CSV is the rows as data; an unknown grouping is exit 2 naming those there are', async () => {
    const csv = await run(home.home, ['transactions', 'list', '--group-by', 'status', '-o', 'csv']);
    const rows = parseSync<Record<string, string>>(csv.stdout, { columns: true });
    expect(Object.keys(present(rows[0]))).toEqual(['group', 'count', 'gross', 'fees', 'refunds', 'net']);
    expect(rows.every((r) => /^-?\d+\.\d\d$/.test(present(r.net)))).toBe(true);
    expectUsage(await run(home.home, ['transactions', 'list', '--group-by', 'weekday']), '--group-by: "weekday" is not a grouping of transactions; use day, week, month, seller, payment-type, card-brand or status');
    expectUsage(await run(home.home, ['transfers', 'list', '--group-by', 'card-brand']), '--group-by: "card-brand" is not a grouping of transfers; use day, week, month, seller or status');
  });

  it('a table: a bar a group, the longest for the largest net; colour only when asked for', async () => {
    const plain = await run(home.home, ['transactions', 'list', '--group-by', 'payment-type', '-o', 'table']);
    const rows = plain.stdout.split('\n').filter((l) => /^(credit|pix|boleto) /.test(l));
    expect(rows).toHaveLength(3);
    const bars = rows.map((r) => (r.match(/[█▏▎▍▌▋▊▉]+$/) as RegExpMatchArray)[0]);
    expect(bars[0]).toBe('█'.repeat(20));
    expect(plain.stdout).not.toMatch(/\x1b\[/);
    // On a terminal: green bars; with NO_COLOR, none.
    const coloured = await run(home.home, ['transactions', 'list', '--group-by', 'payment-type'], { tty: true, columns: 100 });
    expect(coloured.stdout).toContain(`\x1b[32m${'█'.repeat(20)}\x1b[39m`);
    const noColor = await run(home.home, ['transactions', 'list', '--group-by', 'payment-type'], { tty: true, columns: 100, env: { NO_COLOR: '1' } });
    expect(noColor.stdout).not.toMatch(/\x1b\[/);
    expect(noColor.stdout).toContain('█'.repeat(20));
  });
});

describe('the other lists', () => {
  it('transfers by day and by seller add up to the list', async () => {
    const items = await all(['transfers', 'list']);
    for (const by of ['day', 'seller']) {
      const groups = await grouped(['transfers', 'list', '--group-by', by]);
      expect(sum(groups, (g) => g.count as number)).toBe(items.length);
      expect(sum(groups, (g) => cents(g.net))).toBe(sum(items, (t) => cents(t.amount)));
      expect(sum(groups, (g) => cents(g.gross))).toBe(sum(items, (t) => cents(t.amount) + cents(t.fees ?? '0')));
    }
  });

  it('balances history by month, a statement: credits, payouts, refunds, the net change and the closing balance add up', async () => {
    const items = await all(['balances', 'history']);
    const groups = await grouped(['balances', 'history', '--group-by', 'month']);
    expect(sum(groups, (g) => g.count as number)).toBe(items.length);
    expect(Object.keys(present(groups[0]))).toEqual(['group', 'count', 'credits', 'payouts', 'refunds', 'fees', 'other_debits', 'net', 'closing_balance']);
    expect(sum(groups, (g) => cents(g.net))).toBe(sum(items, (e) => cents(e.amount)));
    expect(sum(groups, (g) => cents(g.credits))).toBe(sum(items, (e) => Math.max(0, cents(e.amount))));
    expect(sum(groups, (g) => cents(g.payouts))).toBe(sum(items, (e) => (e.operation === 'transfer' ? cents(e.amount) : 0)));
    expect(sum(groups, (g) => cents(g.payouts))).toBeLessThan(0);
    // What went back to buyers: refunds and chargebacks (the volume has both).
    expect(items.some((e) => e.operation === 'chargeback')).toBe(true);
    expect(sum(groups, (g) => cents(g.refunds))).toBe(sum(items, (e) => (e.operation === 'refund' || e.operation === 'chargeback' ? cents(e.amount) : 0)));
    expect(sum(groups, (g) => cents(g.refunds))).toBeLessThan(0);
    for (const g of groups) expect(cents(g.credits) + cents(g.payouts) + cents(g.refunds) + cents(g.fees) + cents(g.other_debits)).toBe(cents(g.net));
    // Each month closes at the balance after its last entry; the last, at the balance now.
    const newest = new Map<string, (typeof items)[number]>();
    for (const e of [...items].reverse()) newest.set(localDate(e.created_at as string).slice(0, 7), e);
    expect(groups.map((g) => [g.group, g.closing_balance])).toEqual([...newest].sort(([a], [b]) => (a < b ? -1 : 1)).map(([month, e]) => [month, e.balance]));
    expect(groups.at(-1)?.closing_balance).toBe(expectJson(await run(home.home, ['balances', 'get', '-o', 'json'])).current_balance);
    // Filtered by operation, the entries are not all that moved the balance: no closing balance.
    expect(Object.keys(present((await grouped(['balances', 'history', '--group-by', 'month', '--operation', 'sale']))[0]))).not.toContain('closing_balance');
  });

  it('balances history by day on an 80-column terminal: the statement fits, and says the credits are net of fees', async () => {
    const table = await run(home.home, ['balances', 'history', '--group-by', 'day', '--no-color'], { tty: true, columns: 80, env: SP });
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^DAY +CREDITS +PAYOUTS +REFUNDS +NET +CLOSING/);
    expect(lines.every((l) => l.length <= 80)).toBe(true);
    expect(lines.slice(-2)).toEqual(['credits are sales net of their fees: the entries book no fee apart', 'times in America/Sao_Paulo (UTC−03:00)']);
  });

  it('future entries by day: the agenda, how much lands on which day', async () => {
    const items = await all(['future-entries', 'list']);
    const groups = await grouped(['future-entries', 'list', '--group-by', 'day']);
    expect(groups.length).toBeGreaterThan(5);
    const byDay = new Map<string, number>();
    for (const e of items) byDay.set((e.expected_on as string).slice(0, 10), (byDay.get((e.expected_on as string).slice(0, 10)) ?? 0) + cents(e.amount));
    expect(groups.map((g) => [g.group, cents(g.net)])).toEqual([...byDay].sort(([a], [b]) => (a < b ? -1 : 1)));
  });

  it("a seller's receivables by status", async () => {
    const items = await all(['receivables', 'list', '--seller', SANDBOX_SELLER_ID]);
    const groups = await grouped(['receivables', 'list', '--seller', SANDBOX_SELLER_ID, '--group-by', 'status']);
    expect(sum(groups, (g) => g.count as number)).toBe(items.length);
    expect(sum(groups, (g) => cents(g.net))).toBe(sum(items, (r) => cents(r.amount)));
  });
});
