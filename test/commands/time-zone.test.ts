import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/run.js';
import { expectJson, expectUsage, run } from './helpers.js';

// One time zone: a day on the command line is 00:00–24:00 where payctl shows times (the profile's
// timezone, else TZ), for lists and exports alike. Each case compares what payctl lists with the
// sales whose local date, computed here with Intl and nothing of payctl's, falls in the period.
let home: { home: string; cleanup: () => void };
let sales: Array<{ id: string; created_at: string }>;

beforeAll(async () => {
  home = tempHome();
  // 3,000 sales over 30 days, about one every 15 minutes: every day's edges hold sales.
  expect((await run(home.home, ['sandbox', 'generate', '--sales', '3000', '--days', '30', '-q'])).code).toBe(0);
  sales = expectJson(await run(home.home, ['transactions', 'list', '--all', '-o', 'json', '--fields', 'id,created_at'])) as Array<{ id: string; created_at: string }>;
}, 120_000);
afterAll(() => home.cleanup());

/** The local calendar date of an instant in `zone`, as YYYY-MM-DD. */
const localDate = (iso: string, zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
const expected = (zone: string, from: string, to: string) =>
  sales
    .filter((s) => localDate(s.created_at, zone) >= from && localDate(s.created_at, zone) <= to)
    .map((s) => s.id)
    .sort();
const listed = async (zone: string, from: string, to: string, env: Record<string, string> = {}) =>
  expectJson(await run(home.home, ['transactions', 'list', '--all', '--from', from, '--to', to, '-o', 'json', '--fields', 'id'], { env: { TZ: zone, ...env } })).map((t) => t.id as string).sort();

/** A day in the middle of the generated span, and the month of its first days. */
function periods(): { day: string; month: [string, string] } {
  const days = [...new Set(sales.map((s) => s.created_at.slice(0, 10)))].sort();
  const day = days[Math.floor(days.length / 2)] as string;
  const first = days[1] as string;
  const [y, m] = first.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
  return { day, month: [`${first.slice(0, 7)}-01`, last] };
}

describe('a day is a day where payctl shows times', () => {
  for (const zone of ['America/Sao_Paulo', 'UTC']) {
    it(`${zone}: a day and a month list exactly the sales whose local date is in them`, async () => {
      const { day, month } = periods();
      const oneDay = await listed(zone, day, day);
      expect(oneDay.length).toBeGreaterThan(50);
      expect(oneDay).toEqual(expected(zone, day, day));
      const wholeMonth = await listed(zone, ...month);
      expect(wholeMonth.length).toBeGreaterThan(100);
      expect(wholeMonth).toEqual(expected(zone, ...month));
    });

    it(`${zone}: export --since/--until writes exactly the sales of those local days`, async () => {
      const { day } = periods();
      const out = join(home.home, `export-${zone.replace('/', '-')}.ndjson`);
      const result = await run(home.home, ['export', 'transactions', '--since', day, '--until', day, '--out', out], { env: { TZ: zone } });
      expect(result.code, result.stderr).toBe(0);
      const ids = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l).id as string).sort();
      expect(ids).toEqual(expected(zone, day, day));
    });
  }

  it('the two zones disagree at the edges: the three hours São Paulo is behind UTC', async () => {
    const { day } = periods();
    const paulista = expected('America/Sao_Paulo', day, day);
    const utc = expected('UTC', day, day);
    expect(paulista).not.toEqual(utc);
    expect(await listed('America/Sao_Paulo', day, day)).toEqual(paulista);
  });

  it("a profile's timezone wins over TZ (a UTC server working for a Brazilian account), PAYCTL_TIMEZONE over both; an unknown zone is exit 2", async () => {
    const { day } = periods();
    const profileHome = tempHome();
    try {
      // The same service, another home: the profile is what differs.
      const env = { PAYCTL_HOME: profileHome.home };
      expectUsage(await run(home.home, ['config', 'set', 'timezone', 'Mars/Olympus_Mons'], { env }), 'timezone: "Mars/Olympus_Mons" is not a time zone; use an IANA name such as America/Sao_Paulo');
      expect((await run(home.home, ['config', 'set', 'timezone', 'America/Sao_Paulo'], { env })).code).toBe(0);
      expect((await run(home.home, ['config', 'get', 'timezone'], { env })).stdout.trim()).toBe('America/Sao_Paulo');
    } finally {
      profileHome.cleanup();
    }
    expect((await run(home.home, ['config', 'set', 'timezone', 'America/Sao_Paulo'])).code).toBe(0);
    try {
      expect(await listed('UTC', day, day)).toEqual(expected('America/Sao_Paulo', day, day));
      // PAYCTL_TIMEZONE, said for payctl alone, wins over the profile.
      expect(await listed('America/Sao_Paulo', day, day, { PAYCTL_TIMEZONE: 'UTC' })).toEqual(expected('UTC', day, day));
    } finally {
      expect((await run(home.home, ['config', 'unset', 'timezone'])).code).toBe(0);
    }
    expect(await listed('UTC', day, day)).toEqual(expected('UTC', day, day));
    expectUsage(await run(home.home, ['transactions', 'list', '--from', day], { env: { PAYCTL_TIMEZONE: 'Sao Paulo' } }), 'PAYCTL_TIMEZONE: "Sao Paulo" is not a time zone');
  });

  it('a table says its zone once, under it, UTC too', async () => {
    const { day } = periods();
    const table = async (zone: string) => (await run(home.home, ['transactions', 'list', '--from', day, '--to', day, '--limit', '3', '-o', 'table'], { env: { TZ: zone } })).stdout.trimEnd().split('\n');
    const paulista = await table('America/Sao_Paulo');
    expect(paulista.at(-1)).toBe('times in America/Sao_Paulo (UTC−03:00)');
    expect(paulista.filter((l) => l.startsWith('times in'))).toHaveLength(1);
    // On a UTC machine too: a reader cannot tell UTC from local time by looking.
    const utc = await table('UTC');
    expect(utc.at(-1)).toBe('times in UTC');
    expect(utc.filter((l) => l.startsWith('times in'))).toHaveLength(1);
  });
});
