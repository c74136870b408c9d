import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import * as z from 'zod/mini';
import type { Transfer } from '../../src/sandbox/types.js';
import { it } from '../helpers/fixtures.js';
import { groupRows, reconcileReport } from '../helpers/printed.js';
import type { RecordedRequest, Reply } from '../helpers/recording-server.js';
import { tempHome } from '../helpers/run.js';
import { expectJson, run, runAgainst } from './helpers.js';

// A month's close: the transfers of a month are exactly those whose transfer_date is in it, in São
// Paulo as in UTC, for the list, its groups, reconcile and export; and the balance statement's
// payouts of a month or a day are those transfers, since the sandbox makes a transfer and books
// its entry at 12:00 UTC of its date, 09:00 of that same date in São Paulo. What each case expects
// is worked out here from the transfers' own transfer_date, nothing of payctl's filters. Then a
// service that ignores the filter, and makes its transfers at 00:00 UTC (21:00 the evening before
// in São Paulo): nothing of another month gets into the list, the groups, the export or the
// reconciliation.
const ZONES = ['America/Sao_Paulo', 'UTC'];
let home: { home: string; cleanup: () => void };
let transfers: Transfer[];
/** The month whose first day and the first day of the next both have transfers. */
let month: { from: string; to: string; next: string };

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

beforeAll(async () => {
  home = tempHome();
  // The clock is moved to two days before the first of a month, then 35 days are traded: payouts
  // (PIX and boleto the next day, cards 30 days on) from before that first through the next one,
  // whose payout hour has come whatever the hour the test runs at.
  const now = Date.parse(expectJson(await run(home.home, ['sandbox', 'clock', '-o', 'json'])).now as string);
  const at = new Date(now);
  let first = Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);
  if (first - now < 3 * DAY_MS) first = Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 2, 1);
  const days = Math.floor((first - now) / DAY_MS) - 2;
  if (days > 0) expect((await run(home.home, ['sandbox', 'advance', '--days', String(days), '-q'])).code).toBe(0);
  expect((await run(home.home, ['sandbox', 'generate', '--sales', '500', '--days', '35', '-q'])).code).toBe(0);
  transfers = expectJson(await run(home.home, ['transfers', 'list', '--all', '-o', 'json']));
  const next = new Date(first);
  month = { from: isoDay(first), to: isoDay(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)), next: isoDay(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 1)) };
}, 120_000);
afterAll(() => home.cleanup());

/** The ids of the transfers dated from `from` to `to`, as their transfer_date says. */
const datedIn = (from: string, to: string) =>
  transfers
    .filter((t) => t.transfer_date >= from && t.transfer_date <= to)
    .map((t) => t.id as string)
    .sort();
const ids = (items: readonly { id: string }[]) => items.map((t) => t.id).sort();
const cents = (s: unknown) => Math.round(Number(s) * 100);
const json = async <const A extends readonly string[]>(zone: string, args: A) => expectJson(await run(home.home, [...args, '-o', 'json'], { env: { TZ: zone } }));

it('the generated month has transfers on its first day and on the first of the next, each made at 12:00 UTC of its date', () => {
  expect(datedIn(month.from, month.to).length).toBeGreaterThan(100);
  expect(datedIn(month.from, month.from).length).toBeGreaterThan(0);
  expect(datedIn(month.next, month.next).length).toBeGreaterThan(0);
  expect(transfers.every((t) => t.created_at === `${t.transfer_date}T12:00:00.000Z`)).toBe(true);
  // 09:00 in São Paulo: the same date there as in UTC.
  const spDay = (iso: string) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(iso));
  expect(transfers.every((t) => spDay(t.created_at) === t.transfer_date)).toBe(true);
});

describe.each(ZONES)('TZ=%s', (zone) => {
  it('transfers list: a month and a day are exactly the transfers dated in them', async () => {
    expect(ids(await json(zone, ['transfers', 'list', '--all', '--from', month.from, '--to', month.to]))).toEqual(datedIn(month.from, month.to));
    for (const day of [month.from, month.next]) expect(ids(await json(zone, ['transfers', 'list', '--all', '--from', day, '--to', day]))).toEqual(datedIn(day, day));
  });

  it('--group-by day and month: each group is the transfers of that date as written', async () => {
    const expected = new Map<string, { count: number; net: number }>();
    for (const t of transfers.filter((x) => x.transfer_date >= month.from && x.transfer_date <= month.to)) {
      const group = expected.get(t.transfer_date) ?? { count: 0, net: 0 };
      expected.set(t.transfer_date, { count: group.count + 1, net: group.net + cents(t.amount) });
    }
    const byDay = await json(zone, ['transfers', 'list', '--from', month.from, '--to', month.to, '--group-by', 'day']);
    expect(byDay.map((g) => [g.group, g.count, cents(g.net)])).toEqual([...expected].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, g]) => [day, g.count, g.net]));
    const byMonth = await json(zone, ['transfers', 'list', '--group-by', 'month']);
    expect(byMonth.find((g) => g.group === month.from.slice(0, 7))?.count).toBe(datedIn(month.from, month.to).length);
  });

  it('reconcile --from/--to covers exactly the transfers dated in the month, each adding up', async () => {
    const result = await run(home.home, ['reconcile', '--from', month.from, '--to', month.to, '-o', 'json'], { env: { TZ: zone } });
    expect(result.code, result.stderr).toBe(0);
    const report = z.parse(reconcileReport, JSON.parse(result.stdout));
    expect(report.transfers.map((t) => t.transfer).sort()).toEqual(datedIn(month.from, month.to));
    expect(report.orphans).toEqual([]);
    expect(result.stderr).toMatch(new RegExp(`^${datedIn(month.from, month.to).length} transfers \\(R\\$ [\\d.]+,\\d\\d\\), ${month.from} to ${month.to}: every one adds up\\n$`));
  });

  it("balances history --group-by: a month's and a day's payouts are the transfers dated in them", async () => {
    // What went out, by the transfers' own dates: a month's (YYYY-MM) and a day's.
    const out = new Map<string, number>();
    for (const t of transfers) for (const key of [t.transfer_date.slice(0, 7), t.transfer_date]) out.set(key, (out.get(key) ?? 0) - cents(t.amount));
    const byMonth = await json(zone, ['balances', 'history', '--group-by', 'month']);
    expect(byMonth.map((g) => g.group)).toContain(month.next.slice(0, 7));
    for (const g of byMonth) expect([g.group, cents(g.payouts)]).toEqual([g.group, out.get(g.group as string) ?? 0]);
    const byDay = await json(zone, ['balances', 'history', '--from', month.from, '--to', month.to, '--group-by', 'day']);
    expect(byDay.filter((g) => cents(g.payouts) !== 0).map((g) => [g.group, cents(g.payouts)])).toEqual(
      [...new Set(transfers.map((t) => t.transfer_date as string))].filter((day) => day >= month.from && day <= month.to).sort().map((day) => [day, out.get(day)]),
    );
  });

  it('export transfers --since/--until writes exactly the transfers dated in the month', async () => {
    const out = join(home.home, `transfers-${zone.replace('/', '-')}.ndjson`);
    const result = await run(home.home, ['export', 'transfers', '--since', month.from, '--until', month.to, '--out', out], { env: { TZ: zone } });
    expect(result.code, result.stderr).toBe(0);
    expect(ids(readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line)))).toEqual(datedIn(month.from, month.to));
  });
});

describe('a service that ignores the date filter: nothing of another month gets in', () => {
  const id = (n: number, c: string) => `${c}${String(n).padStart(31, '0')}`;
  // Two transfers of November, and one each of the days either side, made at 00:00 UTC (21:00 the evening before in São Paulo).
  const dates = ['2026-10-31', '2026-11-01', '2026-11-30', '2026-12-01'];
  const made = dates.map((date, n) => ({ id: id(n, 't'), resource: 'transfer', status: 'succeeded', amount: '10.00', fees: '0.00', on_behalf_of: 's'.repeat(32), transfer_date: date, receivables: [id(n, 'r')], transactions: [], created_at: `${date}T00:00:00.000Z` }));
  const receivable = (n: number) => ({ id: id(n, 'r'), resource: 'receivable', status: 'paid', amount: '10.00', gross_amount: '10.00', transaction: null, transfer: id(n, 't'), installment: '1', expected_on: `${dates[n]}T00:00:00.000Z` });
  const route = (req: RecordedRequest): Reply => {
    const path = req.path;
    const list = (items: unknown[]) => ({ status: 200, body: { resource: 'list', items, has_more: false, total: items.length } });
    if (/\/receivables\/r\d+$/.test(path)) return { status: 200, body: receivable(Number(path.slice(-31))) };
    if (path.endsWith('/receivables')) return list(dates.map((_, n) => receivable(n)));
    if (path.endsWith('/transfers')) return list([...made].reverse());
    return { status: 404, body: { error: { status: 'Not Found', status_code: 404, category: 'resource_not_found', message: 'no' } } };
  };
  const november = ['--from', '2026-11-01', '--to', '2026-11-30'];
  const left = (what: string) => `left out 2 ${what} the service answered whose ${what === 'transfers' ? 'transfer_date' : 'expected_on'} is not 2026-11-01 to 2026-11-30\n`;

  for (const zone of ZONES) {
    it(`TZ=${zone}: list, groups, export and reconcile hold to November, and say what they left out`, async ({ home }) => {
      const env = { TZ: zone };
      const inNovember = [made[1]?.id, made[2]?.id].sort();
      const listed = await runAgainst(home, ['transfers', 'list', '--all', ...november, '-o', 'json'], route, { env });
      expect(ids(JSON.parse(listed.result.stdout))).toEqual(inNovember);
      expect(listed.result.stderr).toBe(left('transfers'));
      expect(listed.requests[0]?.url).toContain('transfer_date%5Bgte%5D=2026-11-01&transfer_date%5Blte%5D=2026-11-30');

      const groups = await runAgainst(home, ['transfers', 'list', ...november, '--group-by', 'day', '-o', 'json'], route, { env });
      expect(z.parse(groupRows, JSON.parse(groups.result.stdout)).map((g) => [g.group, g.count])).toEqual([['2026-11-01', 1], ['2026-11-30', 1]]);

      const out = join(home, 'november.ndjson');
      const exported = await runAgainst(home, ['export', 'transfers', '--since', '2026-11-01', '--until', '2026-11-30', '--out', out], route, { env });
      expect(exported.result.code, exported.result.stderr).toBe(0);
      expect(ids(readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line)))).toEqual(inNovember);
      expect(exported.result.stderr).toContain(left('transfers'));

      const reconciled = await runAgainst(home, ['reconcile', ...november, '-o', 'json'], route, { env });
      expect(reconciled.result.code, reconciled.result.stderr).toBe(0);
      expect(z.parse(reconcileReport, JSON.parse(reconciled.result.stdout)).transfers.map((t) => t.transfer).sort()).toEqual(inNovember);
      expect(reconciled.result.stderr).toBe(`${left('transfers')}${left('receivables')}2 transfers (R$ 20,00), 2026-11-01 to 2026-11-30: every one adds up\n`);
    });
  }
});
