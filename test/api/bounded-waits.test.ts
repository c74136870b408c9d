// Every wait ends: --timeout is a deadline for the whole exchange, a Retry-After longer than payctl
// waits is refused at once, and a list that would never end is stopped.
import { describe, expect } from 'vitest';
import { UncertainOutcomeError, type ApiClient, type ClientOptions } from '../../src/api/client.js';
import { partWorkMs } from '../../src/commands/sandbox/clock.js';
import { ApiError, NetworkError } from '../../src/errors.js';
import { test } from '../helpers/fixtures.js';
import { payctl, type RunResult } from '../helpers/run.js';
import { providerError, times, type RecordedRequest, type RecordingServer, type Reply, type Route } from '../helpers/recording-server.js';

const TX = '0123456789abcdef0123456789abcdef';
const TRANSACTION = { id: TX, status: 'succeeded', amount: '10.00' };

/**
 * `service.client` is an ApiClient against a recording server answering `route`; `service.serve`
 * starts a server for `service.cli`, which runs payctl against the last server started, `service.server`.
 */
const it = test.extend<{
  service: {
    client: (route: Route | Reply[], options?: Partial<ClientOptions>) => Promise<ApiClient>;
    serve: (route: Route | Reply[]) => Promise<RecordingServer>;
    cli: (args: string[]) => Promise<RunResult>;
    readonly server: RecordingServer;
  };
}>({
  service: async ({ home, recording, apiClient }, use) => {
    let server: RecordingServer | undefined;
    const last = () => server ?? expect.fail('no server yet');
    await use({
      client: async (route, options) => apiClient((server = await recording(route)).url, options),
      serve: async (route) => (server = await recording(route)),
      cli: (args) => payctl(args, { home, env: { PAYCTL_BASE_URL: last().url, PAYCTL_API_KEY: 'zpk_test_x', PAYCTL_MARKETPLACE_ID: '' } }),
      get server() {
        return last();
      },
    });
  },
});

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

/** Resolves when `check` holds, failing after `ms`: for what the server sees after the client is done. */
async function eventually(check: () => boolean, ms = 1000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('--timeout is a deadline for the whole exchange', () => {
  it('a server trickling a byte every 50 ms (never idle long enough for a read timeout) is cut off at the deadline', async ({ service }) => {
    const api = await service.client([{ trickle: true, everyMs: 50 }], { timeoutMs: 400, maxAttempts: 1 });
    const started = Date.now();
    const error = await failureOf(api.call('transactions.get', { params: { id: TX } }));
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).not.toBeInstanceOf(UncertainOutcomeError);
    expect(error.message).toBe(`no answer within 0.4 s (timeout) (GET ${service.server.url}/v1/transactions/${TX})`);
    expect(elapsed).toBeGreaterThanOrEqual(350);
    expect(elapsed).toBeLessThan(1500);
    // The half-read answer's connection is closed, not left open for the server to keep writing to.
    await eventually(() => service.server.openConnections === 0);
  });

  it('a money-moving POST cut off mid-answer has an unknown outcome and is not sent again', async ({ service }) => {
    const api = await service.client([{ trickle: true, everyMs: 50 }], { timeoutMs: 300 });
    const error = await failureOf(api.call('transactions.void', { params: { id: TX }, body: { on_behalf_of: 'f'.repeat(32), amount: 100 } }));
    expect(error).toBeInstanceOf(UncertainOutcomeError);
    expect(error.message).toMatch(/^no answer within 0\.3 s \(timeout\) \(POST /);
    expect(service.server.requests).toHaveLength(1);
  });

  it('a GET is retried after a deadline, each attempt with a deadline of its own', async ({ service }) => {
    const api = await service.client([{ trickle: true, everyMs: 50 }, { trickle: true, everyMs: 50 }, { status: 200, body: TRANSACTION }], { timeoutMs: 300 });
    expect(await api.call('transactions.get', { params: { id: TX } })).toEqual(TRANSACTION);
    expect(service.server.requests).toHaveLength(3);
  });

  it('nothing is left behind by a deadline: the connection is closed and the client closes at once', async ({ service }) => {
    const api = await service.client([{ trickle: true, everyMs: 50 }], { timeoutMs: 300, maxAttempts: 1 });
    await failureOf(api.call('transactions.get', { params: { id: TX } }));
    await eventually(() => service.server.openConnections === 0);
    const started = Date.now();
    await api.close();
    expect(Date.now() - started).toBeLessThan(200);
  });

  it('nor by an answer that came in time: the deadline timer goes with the exchange, so nothing holds the process open', async ({ service }) => {
    const api = await service.client([{ status: 200, body: TRANSACTION }, { status: 404, body: providerError(404, 'resource_not_found', 'gone') }], { timeoutMs: 30_000 });
    const armed = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = armed();
    await api.call('transactions.get', { params: { id: TX } });
    await failureOf(api.call('transactions.get', { params: { id: TX } }));
    expect(armed()).toBeLessThanOrEqual(before);
  });

  it('through the CLI: --timeout 0.3 against a trickling server exits 8 with one line, promptly', async ({ service }) => {
    const server = await service.serve(times(3, { trickle: true, everyMs: 50 }));
    const started = Date.now();
    const result = await service.cli(['transactions', 'get', TX, '--timeout', '0.3']);
    expect(result.code).toBe(8);
    expect(result.stderr).toBe(`error: no answer within 0.3 s (timeout) (GET ${server.url}/v1/transactions/${TX})\n`);
    expect(server.requests).toHaveLength(3);
    // Three attempts of 0.3 s and two short back-offs: well under what a trickle would last.
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe('a request that does much work is given longer than --timeout, within its own bound', () => {
  const generated = { now: '2030-01-01T00:00:00.000Z', offset_seconds: 0, transactions: 3, transfers: 0, buyers: 1 };

  it('a part of a generated volume answering after --timeout is waited for; a request without such work is not', async ({ service }) => {
    const api = await service.client([{ status: 200, body: generated, delayMs: 700 }], { timeoutMs: 300, maxAttempts: 1 });
    const body = { sales: 3, days: 1, first: 0, total: 3, seed: 1 };
    expect(await api.call('sandbox.generate', { body, workMs: 5_000 })).toEqual(generated);
    const plain = await service.client([{ status: 200, body: generated, delayMs: 700 }], { timeoutMs: 300, maxAttempts: 1 });
    expect((await failureOf(plain.call('sandbox.generate', { body }))).message).toMatch(/^no answer within 0\.3 s \(timeout\) \(POST /);
    // Its own bound holds too: work given less time than the answer takes fails at that.
    const bounded = await service.client([{ status: 200, body: generated, delayMs: 700 }], { timeoutMs: 100, maxAttempts: 1 });
    expect((await failureOf(bounded.call('sandbox.generate', { body, workMs: 300 }))).message).toMatch(/^no answer within 0\.3 s \(timeout\) \(POST /);
  });

  it('sandbox generate gives each part time by its sales, the last part more for packing the database, at most 10 minutes', () => {
    expect(partWorkMs(10_000, false, 100_000)).toBe(100_000);
    expect(partWorkMs(10_000, true, 100_000)).toBe(120_000);
    expect(partWorkMs(10_000, true, 1_000_000)).toBe(300_000);
    expect(partWorkMs(1_000_000, true, 1_000_000)).toBe(600_000);
  });
});

describe('a read payctl can do without (a name beside an id) is bounded tighter', () => {
  it('its own deadline, shorter than --timeout, and one attempt: no retry after a timeout, a 503 or a 429', async ({ service }) => {
    const sleeps: number[] = [];
    const api = await service.client([{ hang: true }, { status: 503, body: providerError(503, 'service_unavailable', 'down') }, { status: 429, body: providerError(429, 'rate_limit', 'slow down'), headers: { 'retry-after': '1' } }], {
      timeoutMs: 30_000,
      sleep: async (ms) => void sleeps.push(ms),
    });
    const started = Date.now();
    const timedOut = await failureOf(api.call('buyers.get', { params: { id: TX }, optionalWithinMs: 300 }));
    expect(Date.now() - started).toBeLessThan(1500);
    expect(timedOut).toBeInstanceOf(NetworkError);
    expect(timedOut.message).toMatch(/^no answer within 0\.3 s \(timeout\)/);
    expect(service.server.requests).toHaveLength(1);
    expect(await failureOf(api.call('buyers.get', { params: { id: TX }, optionalWithinMs: 300 }))).toBeInstanceOf(ApiError);
    expect(service.server.requests).toHaveLength(2);
    expect(((await failureOf(api.call('buyers.get', { params: { id: TX }, optionalWithinMs: 300 }))) as ApiError).details.httpStatus).toBe(429);
    expect(service.server.requests).toHaveLength(3);
    expect(sleeps).toEqual([]);
  });

  it('--timeout, when shorter, is its deadline', async ({ service }) => {
    const api = await service.client([{ hang: true }], { timeoutMs: 200 });
    const error = await failureOf(api.call('buyers.get', { params: { id: TX }, optionalWithinMs: 3000 }));
    expect(error.message).toMatch(/^no answer within 0\.2 s \(timeout\)/);
    expect(service.server.requests).toHaveLength(1);
  });
});

describe('Retry-After is capped for every status', () => {
  it('a 503 asking for 99999 s is not waited for: the GET fails at once with the 503 (exit 8)', async ({ service }) => {
    const sleeps: number[] = [];
    const api = await service.client([{ status: 503, body: providerError(503, 'service_unavailable', 'down'), headers: { 'retry-after': '99999' } }], {
      sleep: async (ms) => void sleeps.push(ms),
    });
    const error = await failureOf(api.call('transactions.get', { params: { id: TX } }));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).exitCode).toBe(8);
    expect(error.message).toBe('down; the service asked to wait 99999 s before retrying, more than payctl waits (60 s)');
    expect(sleeps).toEqual([]);
    expect(service.server.requests).toHaveLength(1);
  });

  it('a 503 asking for a pause within the cap is waited for and retried', async ({ service }) => {
    const sleeps: number[] = [];
    const api = await service.client(
      [
        { status: 503, body: providerError(503, 'service_unavailable', 'down'), headers: { 'retry-after': '2' } },
        { status: 200, body: TRANSACTION },
      ],
      { maxRetryAfterMs: 5000, sleep: async (ms) => void sleeps.push(ms) },
    );
    expect(await api.call('transactions.get', { params: { id: TX } })).toEqual(TRANSACTION);
    expect(sleeps).toEqual([2000]);
  });

  it('a 503 with an HTTP-date Retry-After past the cap is refused too', async ({ service }) => {
    const later = new Date(Date.now() + 3_600_000).toUTCString();
    const api = await service.client([{ status: 503, raw: 'busy', headers: { 'retry-after': later } }], { sleep: async () => undefined });
    const error = await failureOf(api.call('transactions.get', { params: { id: TX } }));
    expect(error.message).toMatch(/; the service asked to wait 3\d{3} s before retrying, more than payctl waits \(60 s\)$/);
    expect(service.server.requests).toHaveLength(1);
  });

  it('a money-moving DELETE (invoice refund) given a 503 is not retried, whatever its Retry-After: outcome unknown, at once', async ({ service }) => {
    const api = await service.client([{ status: 503, body: providerError(503, 'service_unavailable', 'down'), headers: { 'retry-after': '600' } }], {
      maxRetryAfterMs: 1000,
      sleep: async () => undefined,
    });
    const error = await failureOf(api.call('invoices.refund', { params: { id: TX } }));
    expect(error).toBeInstanceOf(UncertainOutcomeError);
    expect(error.message).toBe('down (HTTP 503)');
    expect((error as UncertainOutcomeError).answered).toBe(true);
    expect(service.server.requests).toHaveLength(1);
  });

  it('a 429 asking for 99999 s fails at once with the 429 (exit 7), and the pace hook is told at most the cap', async ({ service }) => {
    const told: number[] = [];
    const api = await service.client([{ status: 429, body: providerError(429, 'rate_limit', 'slow down'), headers: { 'retry-after': '99999' } }], {
      sleep: async () => undefined,
    });
    api.onRateLimited = (ms) => told.push(ms);
    const error = await failureOf(api.call('transactions.get', { params: { id: TX } }));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).exitCode).toBe(7);
    expect(error.message).toBe('slow down; the service asked to wait 99999 s before retrying, more than payctl waits (60 s)');
    expect(told).toEqual([60_000]);
    expect(service.server.requests).toHaveLength(1);
  });

  it('the pace hook gets the cap the client was given', async ({ service }) => {
    const told: number[] = [];
    const api = await service.client([{ status: 429, body: providerError(429, 'rate_limit', 'slow down'), headers: { 'retry-after': '30' } }], {
      maxRetryAfterMs: 5000,
      sleep: async () => undefined,
    });
    api.onRateLimited = (ms) => told.push(ms);
    await failureOf(api.call('transactions.get', { params: { id: TX } }));
    expect(told).toEqual([5000]);
  });

  it('through the CLI: a 503 asking for 99999 s exits 8 at once with the reason on the one line', async ({ service }) => {
    const server = await service.serve([{ status: 503, body: providerError(503, 'service_unavailable', 'down'), headers: { 'retry-after': '99999' } }]);
    const started = Date.now();
    const result = await service.cli(['transactions', 'get', TX]);
    expect(result.code).toBe(8);
    expect(result.stderr).toBe('error: down; the service asked to wait 99999 s before retrying, more than payctl waits (60 s) (service_unavailable, HTTP 503)\n');
    expect(server.requests).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('a list must end', () => {
  const tx = (id: string) => ({ id, status: 'succeeded', amount: '1.00' });
  const offsetOf = (req: RecordedRequest) => Number(new URL(req.url, 'http://x').searchParams.get('offset'));

  /** A service whose pages hold at most `cap` items of `list` (asked afresh for each request). */
  function pager(list: (index: number) => unknown[], cap: number) {
    return (req: RecordedRequest, index: number): Reply => {
      const items = list(index);
      const offset = offsetOf(req);
      const page = items.slice(offset, offset + cap);
      return { status: 200, body: { resource: 'list', items: page, has_more: offset + page.length < items.length, total: items.length } };
    };
  }

  it('through the CLI: a service answering the same page forever is stopped with exit 8, what was read printed once', async ({ service }) => {
    const server = await service.serve(times(2, { status: 200, body: { items: [tx('t1'), tx('t2')], has_more: true } }));
    const started = Date.now();
    const result = await service.cli(['transactions', 'list', '--all', '-o', 'ndjson']);
    expect(result.code).toBe(8);
    expect(result.stdout.trim().split('\n').map((line) => JSON.parse(line).id)).toEqual(['t1', 't2']);
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: the service answered a repeated page: GET ${server.url}/v1/transactions at offset 2 gave the same 2 items it had already sent; stopped after 2 items in 1 page \\([\\d.]+ m?s\\) rather than read the list forever, the list is incomplete\n$`,
      ),
    );
    expect(server.requests.length).toBeLessThanOrEqual(4);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('through the CLI: a list that shifted while read (a new item at its head) prints each item once, exit 0', async ({ service }) => {
    // t0 arrives after the first page was read: t2 comes again at the start of the second page.
    const server = await service.serve(pager((index) => (index === 0 ? ['t1', 't2', 't3', 't4', 't5'] : ['t0', 't1', 't2', 't3', 't4', 't5']).map(tx), 2));
    const result = await service.cli(['transactions', 'list', '--all', '-o', 'ndjson']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n').map((line) => JSON.parse(line).id)).toEqual(['t1', 't2', 't3', 't4', 't5']);
    expect(result.stderr).toBe('');
  });

  it('through the CLI: an empty page that says there is more is exit 8', async ({ service }) => {
    const server = await service.serve([
      { status: 200, body: { items: [tx('t1')], has_more: true } },
      { status: 200, body: { items: [], has_more: true } },
    ]);
    const result = await service.cli(['transactions', 'list', '--all', '-o', 'ndjson']);
    expect(result.code).toBe(8);
    expect(result.stdout).toBe(`${JSON.stringify(tx('t1'))}\n`);
    expect(result.stderr).toMatch(
      new RegExp(`^error: the service answered an empty page of GET ${server.url}/v1/transactions at offset 1 yet says there are more items \\(has_more true\\); stopped after 1 item in 1 page \\([\\d.]+ m?s\\), the list is incomplete\n$`),
    );
  });

  it('an empty first page that claims more, by its total alone, is exit 8 too', async ({ service }) => {
    const api = await service.client([{ status: 200, body: { items: [], total: '40' } }]);
    const read: unknown[] = [];
    const error = await failureOf(
      (async () => {
        for await (const page of api.pages('transactions.list', {}, { limit: 0, all: true })) read.push(...page);
      })(),
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toBe(`the service answered an empty page of GET ${service.server.url}/v1/transactions at offset 0 yet says there are more items (total 40, 0 read); stopped with nothing read, the list is incomplete`);
    expect(read).toEqual([]);
  });

  it('an empty last page with has_more false ends the list, whatever its total says', async ({ service }) => {
    const api = await service.client([
      { status: 200, body: { items: [tx('t1')], has_more: true, total: 9 } },
      { status: 200, body: { items: [], has_more: false, total: 9 } },
    ]);
    const read: unknown[] = [];
    for await (const page of api.pages('transactions.list', {}, { limit: 0, all: true })) read.push(...page);
    expect(read).toEqual([tx('t1')]);
  });

  it('items without an id cannot be recognised, so they are never taken for repeats', async ({ service }) => {
    const page = { status: 200, body: { items: [{ note: 'a' }, { note: 'b' }], has_more: true } };
    const api = await service.client([page, page, { status: 200, body: { items: [{ note: 'a' }], has_more: false } }]);
    const read: unknown[] = [];
    // `payctl api --paginate` reads lists of any shape: an endpoint of its own, with no item schema.
    const endpoint = { method: 'GET', path: '/things', marketplaceScoped: false } as const;
    for await (const items of api.pages(endpoint, {}, { limit: 0, all: true })) read.push(...items);
    expect(read).toHaveLength(5);
  });

  it('ids are remembered for the last 10 pages only: a repeat from 10 pages back is caught, from 11 it is not', async ({ service }) => {
    // One item a page. Pages 0..9 are t0..t9; then the service answers t0 again (10 pages back).
    const caught = await service.client((req) => {
      const offset = offsetOf(req);
      return { status: 200, body: { items: [tx(`t${offset % 10}`)], has_more: true } };
    });
    const error = await failureOf(
      (async () => {
        for await (const page of caught.pages('transactions.list', {}, { limit: 0, all: true })) void page;
      })(),
    );
    expect(error.message).toMatch(/ at offset 10 gave the same item it had already sent; stopped after 10 items in 10 pages /);
    await caught.close();
    await service.server.close();

    // Now t0 comes back only after t0..t10: 11 pages back, forgotten, handed over again, and the list ends.
    const forgotten = await service.client((req) => {
      const offset = offsetOf(req);
      return { status: 200, body: { items: [tx(offset === 11 ? 't0' : `t${offset}`)], has_more: offset < 11 } };
    });
    const ids: string[] = [];
    for await (const page of forgotten.pages('transactions.list', {}, { limit: 0, all: true })) ids.push(...page.map((t) => (t as { id: string }).id));
    expect(ids).toEqual(['t0', 't1', 't2', 't3', 't4', 't5', 't6', 't7', 't8', 't9', 't10', 't0']);
  });

  it('--limit still hands over as many items as asked when a repeat was dropped', async ({ service }) => {
    const api = await service.client(pager((index) => (index === 0 ? ['t1', 't2', 't3', 't4', 't5', 't6'] : ['t0', 't1', 't2', 't3', 't4', 't5', 't6']).map(tx), 2));
    const ids: string[] = [];
    for await (const page of api.pages('transactions.list', {}, { limit: 4, all: false })) ids.push(...page.map((t) => (t as { id: string }).id));
    expect(ids).toEqual(['t1', 't2', 't3', 't4']);
  });
});
