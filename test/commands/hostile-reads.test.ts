// The finance reads that take many pages or items (reconcile, transfers explain, --group-by and a
// list --all) against a service whose answers cannot be used: a list with no end, a repeated page,
// junk, an answer too large; and, for a transfer's items, an item listed twice, an answer for
// another item, one not of the transfer. Each is exit 8 with one line naming the cause, never a
// difference in money (exit 12), and never a result made of what was read.
import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.js';
import { payctl, type RunOptions, type RunResult } from '../helpers/run.js';
import { listPage, numberedId, queryNumber, transferItem, transfersList } from '../helpers/hostile-lists.js';
import type { RecordingServer, Reply, Route } from '../helpers/recording-server.js';

const T = 't'.repeat(32);

const it = test.extend<{
  against: (route: Route, args: string[], env?: Record<string, string>, options?: Partial<RunOptions>) => Promise<{ result: RunResult; server: RecordingServer }>;
}>({
  against: async ({ home, recording }, use) => {
    await use(async (route, args, env = {}, options = {}) => {
      const server = await recording(route);
      const result = await payctl(args, { home, ...options, env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: 'zpk_test_x', PAYCTL_MARKETPLACE_ID: '', ...env } });
      return { result, server };
    });
  },
});

/** The last line of stderr, after checking the run ended with exit 8 and a single error line. */
function failure(result: RunResult): string {
  expect(result.code, result.stderr).toBe(8);
  const lines = result.stderr.trimEnd().split('\n');
  const last = lines.at(-1) as string;
  expect(last.startsWith('error: ')).toBe(true);
  expect(lines.filter((l) => l.startsWith('error: '))).toHaveLength(1);
  return last;
}

const HOSTILE_LISTS = {
  'an endless list (has_more true forever, always new ids)': {
    route: transfersList(),
    env: { PAYCTL_MAX_LIST_ITEMS: '250' },
    cause: /^error: the service's lists did not end within payctl's bound: the reads went past 250 items, the most one command reads \(PAYCTL_MAX_LIST_ITEMS\): a list with no end, or one longer than that; stopped after 200 items in 2 pages \([\d.]+ m?s\), the last from GET http:\/\/127\.0\.0\.1:\d+\/v1\/transfers; the result is incomplete$/,
  },
  'a repeated page': {
    route: transfersList(() => listPage(Array.from({ length: 100 }, (_, i) => transferItem(i)), true)),
    env: {},
    cause: /^error: the service answered a repeated page: GET http:\/\/127\.0\.0\.1:\d+\/v1\/transfers at offset 100 gave the same 100 items it had already sent; stopped after 100 items in 1 page \([\d.]+ m?s\) rather than read the list forever, the list is incomplete$/,
  },
  'a junk page': {
    route: transfersList((offset) => (offset === 100 ? { status: 200, raw: '<html>502 Bad Gateway</html>' } : undefined)),
    env: {},
    cause: /^error: the service answered HTTP 200 with a body that is not JSON \(GET http:\/\/127\.0\.0\.1:\d+\/v1\/transfers\)$/,
  },
  'a page of items that are not transfers': {
    route: transfersList((offset) => (offset === 100 ? listPage([{ id: 'x', status: 'succeeded', amount: 3 }], true) : undefined)),
    env: {},
    cause: /^error: the service's answer to GET http:\/\/127\.0\.0\.1:\d+\/v1\/transfers is not a transfer list \(items\[0\]\.amount: expected a decimal string like "10\.00", got a number\)$/,
  },
  'an answer too large': {
    route: transfersList((offset) => (offset === 100 ? listPage([transferItem(100, { description: 'x'.repeat(100_000) })], true) : undefined)),
    env: { PAYCTL_MAX_ANSWER_MB: '0.05' },
    cause: /^error: the service's answer to GET http:\/\/127\.0\.0\.1:\d+\/v1\/transfers is larger than 0\.05 MB \(PAYCTL_MAX_ANSWER_MB\)(: its Content-Length says 0\.\d+ MB; not read|; stopped reading it)$/,
  },
};

const LIST_READERS = {
  reconcile: { args: ['reconcile', '--from', '2026-11-01', '--to', '2026-11-30', '-o', 'json'], printsAsItReads: false },
  '--group-by': { args: ['transfers', 'list', '--group-by', 'day', '-o', 'json'], printsAsItReads: false },
  'list --all': { args: ['transfers', 'list', '--all', '-o', 'ndjson'], printsAsItReads: true },
};

describe('reads of many pages against a list gone wrong: exit 8 naming the cause', () => {
  const cases = Object.entries(LIST_READERS).flatMap(([reader, how]) => Object.entries(HOSTILE_LISTS).map(([list, hostile]) => ({ reader, list, how, hostile })));
  it.for(cases)('$reader against $list', async ({ how, hostile }, { against }) => {
    const { result, server } = await against(hostile.route, how.args, hostile.env);
    expect(failure(result)).toMatch(hostile.cause);
    expect(result.stderr).not.toContain('difference');
    // A summary or a reconciliation made of part of a list is not printed; a stream keeps what it wrote, whole.
    if (how.printsAsItReads) expect(result.stdout === '' || result.stdout.endsWith('}\n')).toBe(true);
    else expect(result.stdout).toBe('');
    // Stopped within the bound: the page that passed it, and at most one asked for ahead.
    expect(server.requests.filter((r) => r.path.endsWith('/transfers')).length).toBeLessThanOrEqual(4);
  });

  it('list --all prints what it read before the bound, each item once', async ({ against }) => {
    const { result } = await against(HOSTILE_LISTS['an endless list (has_more true forever, always new ids)'].route, LIST_READERS['list --all'].args, { PAYCTL_MAX_LIST_ITEMS: '250' });
    failure(result);
    expect(result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line).id)).toEqual(Array.from({ length: 200 }, (_, i) => numberedId('tr', i)));
  });
});

describe('transfers explain against answers about its items that cannot be used: exit 8 naming them, never a difference', () => {
  const R1 = '1'.repeat(32);
  const R2 = '2'.repeat(32);
  const S1 = 'a'.repeat(32);
  const receivable = (rid: string, extra: Record<string, unknown> = {}) => ({ id: rid, resource: 'receivable', status: 'paid', amount: '1.50', gross_amount: '1.55', transaction: S1, transfer: T, installment: '1', ...extra });
  const sale = (sid: string) => ({ id: sid, status: 'succeeded', amount: '1.55', history: [] });
  /** The transfer (R$ 3,00 of R1 and R2, which add up to it), its receivables and their sale, each answered by `replies` where it has one. */
  function service(replies: { transfer?: Record<string, unknown>; receivable?: (rid: string) => Reply; sale?: () => Reply } = {}): Route {
    return (req) => {
      if (req.path.endsWith(`/transfers/${T}`)) return { status: 200, body: transferItem(0, { id: T, receivables: [R1, R2], ...replies.transfer }) };
      const rid = /\/receivables\/(\w+)$/.exec(req.path)?.[1];
      if (rid) return replies.receivable?.(rid) ?? { status: 200, body: receivable(rid) };
      if (req.path.endsWith(`/transactions/${S1}`)) return replies.sale?.() ?? { status: 200, body: sale(S1) };
      return { status: 500, body: { error: { message: `no stub for ${req.path}` } } };
    };
  }
  const explain = ['transfers', 'explain', T, '-o', 'json'];
  const NOT_ADDED_UP = `error: transfer ${T} was not added up (no difference is reported): `;

  it('the same transfer with sound answers adds up (exit 0): the cases below differ from it only in the answer named', async ({ against }) => {
    const { result } = await against(service(), explain);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ amount: '3.00', expected: '3.00', difference: '0.00', matched: true });
  });

  const CASES: Array<{ name: string; route: () => Route; env?: Record<string, string>; cause: RegExp; reads?: number }> = [
    {
      name: 'a transfer that lists more receivables than a command reads: stopped before any is read',
      route: () => service({ transfer: { receivables: Array.from({ length: 300 }, (_, n) => numberedId('rc', n)) } }),
      env: { PAYCTL_MAX_LIST_ITEMS: '250' },
      cause: new RegExp(
        `^the service's lists did not end within payctl's bound: the reads went past 250 items, the most one command reads \\(PAYCTL_MAX_LIST_ITEMS\\): a list with no end, or one longer than that; stopped with nothing read, the last from the 300 receivables transfer ${T} lists; the result is incomplete$`,
      ),
      reads: 1,
    },
    {
      name: 'a receivable listed twice (a repeated item)',
      route: () => service({ transfer: { receivables: [R1, R2, R1] } }),
      cause: new RegExp(`^the service's answers about its items are bad: it lists receivable ${R1} more than once$`),
      reads: 1,
    },
    {
      name: 'every receivable answered as the same one (the answer repeats)',
      route: () => service({ receivable: () => ({ status: 200, body: receivable(R1) }) }),
      cause: new RegExp(`^the service's answers about its items are bad: asked for receivable ${R2}, it answered receivable ${R1}$`),
    },
    {
      name: 'a junk answer for a receivable',
      route: () => service({ receivable: () => ({ status: 200, raw: '<html>oops</html>' }) }),
      cause: /^the service answered HTTP 200 with a body that is not JSON \(GET http:\/\/127\.0\.0\.1:\d+\/v1\/receivables\/\w+\)$/,
    },
    {
      name: 'a receivable answer that is not a receivable',
      route: () => service({ receivable: (rid) => ({ status: 200, body: { id: rid, status: 'paid', amount: 150 } }) }),
      cause: /^the service's answer to GET http:\/\/127\.0\.0\.1:\d+\/v1\/receivables\/\w+ is not a receivable \(amount: expected a decimal string like "10\.00", got a number\)$/,
    },
    {
      name: 'a receivable answer too large',
      route: () => service({ receivable: (rid) => ({ status: 200, body: receivable(rid, { description: 'x'.repeat(100_000) }) }) }),
      env: { PAYCTL_MAX_ANSWER_MB: '0.05' },
      cause: /^the service's answer to GET http:\/\/127\.0\.0\.1:\d+\/v1\/receivables\/\w+ is larger than 0\.05 MB \(PAYCTL_MAX_ANSWER_MB\)/,
    },
    {
      name: 'a receivable not of this transfer (it says another paid it)',
      route: () => service({ receivable: (rid) => ({ status: 200, body: receivable(rid, { transfer: rid === R2 ? 'u'.repeat(32) : T }) }) }),
      cause: new RegExp(`^the service's answers about its items are bad: receivable ${R2}, which it lists, says transfer ${'u'.repeat(32)} paid it$`),
    },
    {
      name: "a receivable's sale answered as another sale",
      route: () => service({ sale: () => ({ status: 200, body: sale('b'.repeat(32)) }) }),
      cause: new RegExp(`^the service's answers about its items are bad: asked for sale ${S1} \\(of receivable ${R1}\\), it answered sale ${'b'.repeat(32)}$`),
    },
  ];

  it.for(CASES)('$name', async ({ route, env, cause, reads }, { against }) => {
    const { result, server } = await against(route(), explain, env);
    const line = failure(result);
    expect(line.startsWith(NOT_ADDED_UP), line).toBe(true);
    expect(line.slice(NOT_ADDED_UP.length)).toMatch(cause);
    expect(line).not.toMatch(/difference of|does not add up/);
    expect(result.stdout).toBe('');
    if (reads !== undefined) expect(server.requests).toHaveLength(reads);
  });

  it('reconcile stops on such a transfer with the same cause (exit 8), not a line of difference', async ({ against }) => {
    const bad = service({ receivable: () => ({ status: 200, body: receivable(R1) }) });
    const route: Route = (req, index) => {
      if (req.path.endsWith('/transfers')) return listPage([transferItem(0, { id: T, receivables: [R1, R2] })], false);
      if (req.path.endsWith('/receivables')) return listPage([], false);
      return bad(req, index);
    };
    const { result } = await against(route, ['reconcile', '--from', '2026-11-01', '--to', '2026-11-30', '-o', 'json']);
    expect(failure(result)).toBe(`${NOT_ADDED_UP}the service's answers about its items are bad: asked for receivable ${R2}, it answered receivable ${R1}`);
    expect(result.stdout).toBe('');
  });
});

describe('reconcile on a terminal', () => {
  it('shows how far it has got on stderr while it reads (transfers explained, then receivables checked); nothing when piped', async ({ against }) => {
    const paced = (delayMs: number): Route => (req) => {
      const offset = queryNumber(req, 'offset');
      if (req.path.endsWith('/receivables')) {
        const paid = Array.from({ length: Math.max(0, Math.min(100, 500 - offset)) }, (_, i) => ({ id: numberedId('rc', offset + i), status: 'paid', amount: '1.00', transfer: null, expected_on: '2026-11-10' }));
        return { ...listPage(paid, offset + paid.length < 500), delayMs };
      }
      const items = Array.from({ length: Math.max(0, Math.min(100, 500 - offset)) }, (_, i) => transferItem(offset + i));
      return { status: 200, body: { resource: 'list', items, has_more: offset + items.length < 500, total: 500 }, delayMs };
    };
    const args = ['reconcile', '--from', '2026-11-01', '--to', '2026-11-30', '-o', 'json'];
    // Paced so that it takes longer than a bar waits before it shows (400 ms), for each list.
    const watched = await against(paced(150), args, {}, { stderrTty: true });
    // Each transfer here adds up to nothing (no receivables), and the receivables paid are in no transfer: exit 12.
    expect(watched.result.code, watched.result.stderr).toBe(12);
    expect(watched.result.stderr).toMatch(/\/500 transfers explained \| \d+ pages \| [\d.]+\/s/);
    expect(watched.result.stderr).toMatch(/\d+\/\d+ paid receivables checked \| \d+ pages/);
    expect(JSON.parse(watched.result.stdout).transfers).toHaveLength(500);

    const piped = await against(paced(0), args);
    expect(piped.result.code).toBe(12);
    expect(piped.result.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
