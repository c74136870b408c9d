// A list whose every page is fine on its own (new items, none repeated, none empty) and that never
// ends is stopped by the bound a command's reads share: items, pages, time and memory held. Each
// part of the bound stops it with exit 8 naming that part and what was read.
import { describe, expect } from 'vitest';
import type { ApiClient, ClientOptions } from '../../src/api/client.js';
import { ReadBoundError } from '../../src/api/read-bound.js';
import { NetworkError } from '../../src/errors.js';
import { test } from '../helpers/fixtures.js';
import { payctl } from '../helpers/run.js';
import type { RecordedRequest, RecordingServer, Reply } from '../helpers/recording-server.js';

const tx = (n: number) => ({ id: `tx${String(n).padStart(30, '0')}`, status: 'succeeded', amount: '1.00' });
const queryOf = (req: RecordedRequest, name: string) => Number(new URL(req.url, 'http://x').searchParams.get(name));

/** A list with no end: every page as long as asked (or `cap`), new items, has_more true. */
function endless(cap = 100, delayMs = 0) {
  return (req: RecordedRequest): Reply => {
    const offset = queryOf(req, 'offset');
    const items = Array.from({ length: Math.min(queryOf(req, 'limit'), cap) }, (_, i) => tx(offset + i));
    return { status: 200, body: { resource: 'list', items, has_more: true }, delayMs };
  };
}

/** A list of `length` items, then its end. */
function finite(length: number) {
  return (req: RecordedRequest): Reply => {
    const offset = queryOf(req, 'offset');
    const items = Array.from({ length: Math.max(0, Math.min(queryOf(req, 'limit'), length - offset)) }, (_, i) => tx(1_000_000 + offset + i));
    return { status: 200, body: { resource: 'list', items, has_more: offset + items.length < length } };
  };
}

const it = test.extend<{
  bounded: {
    /** An ApiClient bounded by `readLimits` against a server answering `route`. */
    client: (route: (req: RecordedRequest) => Reply, readLimits: ClientOptions['readLimits']) => Promise<{ api: ApiClient; server: RecordingServer }>;
  };
}>({
  bounded: async ({ recording, apiClient }, use) => {
    await use({
      client: async (route, readLimits) => {
        const server = await recording(route);
        return { api: apiClient(server.url, { readLimits }), server };
      },
    });
  },
});

/** Every item `api` hands over from a list (the transactions unless told), and the error that stopped it (if any). */
async function readAll(api: ApiClient, operation: 'transactions.list' | 'transfers.list' = 'transactions.list'): Promise<{ ids: string[]; error?: Error }> {
  const ids: string[] = [];
  try {
    for await (const page of api.pages(operation, {}, { limit: 0, all: true })) ids.push(...page.map((t) => (t as { id: string }).id));
  } catch (error) {
    return { ids, error: error as Error };
  }
  return { ids };
}

const TOOK = String.raw`\([\d.]+ m?s\)`;

describe('the bound a command reads within', () => {
  it('an endless list stops before its page past the item bound is handed over: exit 8, the cause and what was read named', async ({ bounded }) => {
    const { api, server } = await bounded.client(endless(), { items: 250 });
    const { ids, error } = await readAll(api);
    expect(ids).toEqual(Array.from({ length: 200 }, (_, i) => tx(i).id));
    expect(error).toBeInstanceOf(ReadBoundError);
    expect((error as NetworkError).exitCode).toBe(8);
    expect((error as ReadBoundError).bound).toBe('items');
    expect(error!.message).toMatch(
      new RegExp(
        `^the service's lists did not end within payctl's bound: the reads went past 250 items, the most one command reads \\(PAYCTL_MAX_LIST_ITEMS\\): a list with no end, or one longer than that; stopped after 200 items in 2 pages ${TOOK}, the last from GET ${server.url}/v1/transactions; the result is incomplete$`,
      ),
    );
    // The third page, and at most the one asked for ahead of it.
    expect(server.requests.length).toBeLessThanOrEqual(4);
  });

  it('a list exactly as long as the bound is read whole', async ({ bounded }) => {
    const { api } = await bounded.client(finite(250), { items: 250 });
    const { ids, error } = await readAll(api);
    expect(error).toBeUndefined();
    expect(ids).toHaveLength(250);
  });

  it('the lists of one command share the bound: the second stops where the two together pass it', async ({ bounded }) => {
    const sales = finite(150);
    const payouts = endless();
    const { api } = await bounded.client((req) => (req.path.endsWith('/transfers') ? payouts(req) : sales(req)), { items: 250 });
    expect((await readAll(api)).ids).toHaveLength(150);
    // The same client (one command) reads an endless list next: 100 more fit, not 250.
    const { ids, error } = await readAll(api, 'transfers.list');
    expect(ids).toHaveLength(100);
    expect(error!.message).toMatch(/went past 250 items, .*; stopped after 250 items in 3 pages .*, the last from GET .*\/v1\/transfers; /);
  });

  it('a list of one-item pages stops at the page bound (a page for every 10 items)', async ({ bounded }) => {
    const { api, server } = await bounded.client(endless(1), { items: 50 });
    const { ids, error } = await readAll(api);
    expect(ids).toHaveLength(5);
    expect((error as ReadBoundError).bound).toBe('pages');
    expect(error!.message).toMatch(
      new RegExp(`: the reads went past 5 pages, the most one command reads \\(a page for every 10 items of PAYCTL_MAX_LIST_ITEMS\\): a list with no end, in short pages; stopped after 5 items in 5 pages ${TOOK}, `),
    );
    expect(server.requests.length).toBeLessThanOrEqual(8);
  });

  it('a slow endless list stops at the time bound', async ({ bounded }) => {
    const { api } = await bounded.client(endless(100, 60), { ms: 250 });
    const started = Date.now();
    const { ids, error } = await readAll(api);
    expect((error as ReadBoundError).bound).toBe('time');
    expect(error!.message).toMatch(/: the reads were still going after 250 ms, the longest one command reads: a list with no end, or a service too slow to read it in that time; stopped after \d+ items in \d pages /);
    expect(ids.length).toBeGreaterThanOrEqual(200);
    expect(ids.length).toBeLessThanOrEqual(600);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('what is held is measured after a full collection: past the memory bound, the read stops', async ({ bounded }) => {
    // A bound of 1 MB: any heap is past it, which a collection every 50 pages finds.
    const { api } = await bounded.client(endless(), { heldBytes: 1024 * 1024 });
    const { ids, error } = await readAll(api);
    expect((error as ReadBoundError).bound).toBe('memory');
    expect(error!.message).toMatch(
      /: payctl held [\d.]+ MB of what it read, past the 1 MB it holds for one command \(a quarter of Node\.js's heap limit, set by NODE_OPTIONS=--max-old-space-size=<MB>\): a list too large to hold, or one with no end; stopped after 5\.000 items in 50 pages /,
    );
    expect(ids).toHaveLength(4_900);
  });
});

describe('PAYCTL_MAX_LIST_ITEMS', () => {
  it('sets the item bound of a command: an endless `list --all` stops there, exit 8, what was read printed', async ({ home, recording }) => {
    const server = await recording(endless());
    const result = await payctl(['transactions', 'list', '--all', '-o', 'ndjson'], {
      home,
      env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: 'zpk_test_x', PAYCTL_MARKETPLACE_ID: '', PAYCTL_MAX_LIST_ITEMS: '250' },
    });
    expect(result.code).toBe(8);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(200);
    expect(result.stderr).toMatch(/^error: the service's lists did not end within payctl's bound: the reads went past 250 items, /);
  });

  it.for(['0', '-5', '2.5', 'lots', '1e6'])('%s is refused before anything is sent (exit 2, naming the variable)', async (value, { home, recording }) => {
    const server = await recording([]);
    const result = await payctl(['transactions', 'list', '--all'], { home, env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: 'zpk_test_x', PAYCTL_MAX_LIST_ITEMS: value } });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "error: PAYCTL_MAX_LIST_ITEMS: give a whole number of items, at least 1 (the most items one command reads from the service's lists; default 10000000)\n",
    );
  });
});
