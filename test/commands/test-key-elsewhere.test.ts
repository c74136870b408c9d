import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.js';
import { payctl } from '../helpers/run.js';
import { providerError, sentFields, type RecordedRequest, type Reply } from '../helpers/recording-server.js';

// A test key is not a sandbox: the provider issues `zpk_test_` keys too, for a test environment
// of its own that has no sandbox clock and keeps real time. Whatever payctl takes from the sandbox
// clock (the window of a search, a due date left out, whether `webhooks listen` registers itself)
// is asked of the service, once a command, and a service that has no clock gives no error.
const MKT = 'a'.repeat(32);
const SELLER = 'b'.repeat(32);
const BUYER = 'd'.repeat(32);
const PLAN = 'c'.repeat(32);
const CARD = 'e'.repeat(32);
const KEY = 'zpk_test_provider0000000001';
const CLOCK_PATH = '/v1/sandbox/clock';

/** Today where the tests run (their TZ is UTC), and `days` before it. */
const localDay = (days = 0) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** What a service that is not payctl's sandbox may answer a question it has no path for. */
const NO_CLOCK: Array<[string, Reply]> = [
  ['a 404', { status: 404, body: providerError(404, 'resource_not_found', 'Not found') }],
  ['another object', { status: 200, body: { id: 'x', resource: 'marketplace' } }],
  ['a clock that is no time', { status: 200, body: { now: 'soon' } }],
  ['junk', { status: 200, raw: '<html>not here</html>', headers: { 'content-type': 'text/html' } }],
  ['a 500', { status: 500, body: providerError(500, 'server_error', 'oops') }],
  ['a 401', { status: 401, body: providerError(401, 'unauthorized', 'no') }],
  ['a redirect', { status: 302, headers: { location: '/login' } }],
];

const SALE = {
  id: '1'.repeat(32),
  resource: 'transaction',
  status: 'succeeded',
  amount: '10.00',
  original_amount: '10.00',
  currency: 'BRL',
  payment_type: 'credit',
  reference_id: 'order-1',
  created_at: `${localDay(2)}T10:00:00.000Z`,
  payment_method: { resource: 'card', card_brand: 'Visa', first4_digits: '4111', last4_digits: '1111', holder_name: 'Maria Silva' },
};

/** The service: `clock` for its clock's path, and what the provider answers for the rest. */
const service = (clock: Reply) => (req: RecordedRequest): Reply => {
  if (req.path === CLOCK_PATH) return clock;
  if (req.path.endsWith('/transactions')) return { status: 200, body: { resource: 'list', items: [SALE], has_more: false, total: 1 } };
  if (req.path.endsWith(`/recurrence_plans/${PLAN}`)) return { status: 200, body: { uuid: PLAN, amount: 2990, status: 'active' } };
  if (req.path.endsWith('/recurrence_subscriptions')) return { status: 201, body: { uuid: 'sub1', amount: 2990, status: 'active', due_date: sentFields(req).due_date } };
  if (req.path.endsWith('/invoices')) return { status: 201, body: { id: 'f'.repeat(32), due_date: sentFields(req).due_date, amount: 1000, status: 'pending' } };
  return { status: 404, body: providerError(404, 'resource_not_found', `no ${req.path} here`) };
};

const it = test.extend<{ against: (clock: Reply, args: string[], key?: string) => Promise<{ code: number; stdout: string; stderr: string; requests: RecordedRequest[] }> }>({
  against: async ({ home, recording }, use) => {
    await use(async (clock, args, key = KEY) => {
      const server = await recording(service(clock));
      const result = await payctl(args, { home, env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: key, PAYCTL_MARKETPLACE_ID: MKT, PAYCTL_SELLER_ID: SELLER } });
      return { ...result, requests: server.requests };
    });
  },
});

const FIND = ['transactions', 'list', '--card-last4', '1111', '--amount', '10', '-o', 'json'];
const clockAsked = (requests: RecordedRequest[]) => requests.filter((r) => r.path === CLOCK_PATH).length;
const listQuery = (requests: RecordedRequest[]) => new URL(requests.find((r) => r.path.endsWith('/transactions'))!.url, 'http://x').searchParams;

describe('a test key on a service that is not payctl\'s sandbox', () => {
  it.for(NO_CLOCK)('transactions list --card-last4 --amount finds the sale when the clock is answered with %s: real time, no error', async ([, clock], { against }) => {
    const result = await against(clock, FIND);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).map((t: { id: string }) => t.id)).toEqual([SALE.id]);
    expect(result.stderr).toContain(`searching the sales of the last 30 days (since ${localDay(30)})`);
    expect(result.stderr).not.toContain('sandbox clock');
    // Asked once, before the list; the window is 30 local days back.
    expect(clockAsked(result.requests)).toBe(1);
    expect(result.requests[0]!.path).toBe(CLOCK_PATH);
    expect(Number(listQuery(result.requests).get('date_range[gte]'))).toBe(Date.parse(`${localDay(30)}T00:00:00Z`) / 1000);
  });

  it('a clock that does not answer holds the command up for at most its timeout, asked once', async ({ against }) => {
    const started = Date.now();
    const result = await against({ hang: true }, [...FIND, '--timeout', '1']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(1);
    expect(clockAsked(result.requests)).toBe(1);
    // Its timeout (1 s here; 5 s at most, whatever --timeout says), once: not the command's 30 s, nor retried.
    expect(Date.now() - started).toBeLessThan(8_000);
  });

  it('payctl\'s sandbox served elsewhere (`sandbox serve`) is known by its clock: the window starts from its day', async ({ against }) => {
    const ahead = new Date(Date.now() + 400 * 86_400_000);
    const result = await against({ status: 200, body: { now: ahead.toISOString(), offset_seconds: 400 * 86_400 } }, FIND);
    expect(result.code, result.stderr).toBe(0);
    const since = new Date(ahead.getTime() - 30 * 86_400_000).toISOString().slice(0, 10);
    expect(result.stderr).toContain(`(since ${since})`);
    expect(clockAsked(result.requests)).toBe(1);
  });

  it('invoices create and subscriptions create fall due on the local day, asking the clock once', async ({ against }) => {
    const [, notFound] = NO_CLOCK[0]!;
    const invoice = await against(notFound, ['invoices', 'create', '--customer', BUYER, '--amount', '10', '-o', 'json']);
    expect(invoice.code, invoice.stderr).toBe(0);
    expect(sentFields(invoice.requests.at(-1)!).due_date).toBe(localDay());
    expect(clockAsked(invoice.requests)).toBe(1);
    // The notice says what is true of any test key: no real money moves.
    expect(invoice.stderr).toContain('SANDBOX (test API key: no real money moves)');
    const subscription = await against(notFound, ['subscriptions', 'create', '--plan', PLAN, '--customer', BUYER, '--card', CARD, '-o', 'json']);
    expect(subscription.code, subscription.stderr).toBe(0);
    expect(sentFields(subscription.requests.at(-1)!).due_date).toBe(localDay());
    expect(clockAsked(subscription.requests)).toBe(1);
  });

  it('webhooks listen does not register itself there: it needs --secret, as with a live key', async ({ against }) => {
    const [, notFound] = NO_CLOCK[0]!;
    const result = await against(notFound, ['webhooks', 'listen', '--max-events', '1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--secret');
    expect(result.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${CLOCK_PATH}`]);
  });

  it('a live key is never sent a sandbox\'s question (payctl\'s sandbox refuses every key but a test one)', async ({ against }) => {
    const result = await against({ status: 500 }, FIND, 'zpk_live_provider0000000001');
    expect(result.code, result.stderr).toBe(0);
    expect(clockAsked(result.requests)).toBe(0);
  });
});
