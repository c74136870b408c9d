import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_BUYER_ID, SANDBOX_MARKETPLACE_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { transactionStrict } from '../../src/provider/schemas/transaction.js';
import { DECLINED, directCardBody, expectAnswer, expectError, freshSandbox, pageOf, VISA, type Client, type Fresh } from './helpers.js';

// Five transactions at known instants (the sandbox's clock is driven by the test), two of them
// at the same millisecond to pin down tie-breaking.
let clock = new Date('2026-11-20T10:00:00.000Z');
let fresh: Fresh;
let api: Client;

const AT = {
  A: '2026-11-20T10:00:00.000Z',
  B: '2026-11-21T10:00:00.000Z',
  C: '2026-11-22T10:00:00.000Z',
  D: '2026-11-22T10:00:00.000Z',
  E: '2026-11-23T23:59:59.999Z',
} as const;

async function createAt(at: string, body: Record<string, unknown>) {
  clock = new Date(at);
  return expectAnswer(await api.post('/v1/transactions', body), 201, transactionStrict);
}

const common = { on_behalf_of: SANDBOX_SELLER_ID, amount: 1000, currency: 'BRL' };

beforeAll(async () => {
  fresh = await freshSandbox(() => clock);
  api = fresh.api;
  await createAt(AT.A, { ...directCardBody(VISA), reference_id: 'A' });
  await createAt(AT.B, { ...common, payment_type: 'boleto', customer: SANDBOX_BUYER_ID, reference_id: 'B' });
  await createAt(AT.C, { ...common, payment_type: 'pix', reference_id: 'C' });
  await createAt(AT.D, { ...directCardBody(DECLINED), reference_id: 'D' });
  await createAt(AT.E, { ...directCardBody(VISA), capture: false, reference_id: 'E' });
  clock = new Date('2026-11-24T00:00:00.000Z');
});
afterAll(async () => {
  await fresh.close();
});

/** A page of sales, each read as the provider describes a sale. */
const salesPage = pageOf(transactionStrict);

async function refs(query: string) {
  return expectAnswer(await api.get(`/v1/transactions${query}`), 200, salesPage).items.map((t) => t.reference_id);
}

describe('list envelope and paging', () => {
  it('answers the provider envelope, newest first by default', async () => {
    const { items, ...envelope } = expectAnswer(await api.get('/v1/transactions'), 200, salesPage);
    expect(envelope).toEqual({
      resource: 'list',
      uri: '/v1/transactions',
      limit: 20,
      offset: 0,
      has_more: false,
      total: 5,
      query_count: 5,
      page: 1,
      total_pages: 1,
    });
    expect(items.map((t) => t.reference_id)).toEqual(['E', 'D', 'C', 'B', 'A']);
    expect(items.map((t) => t.created_at)).toEqual([AT.E, AT.D, AT.C, AT.B, AT.A]);
  });

  it('sorts ascending on request; equal timestamps keep insertion order', async () => {
    expect(await refs('?sort=time-ascending')).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(await refs('?sort=time-descending')).toEqual(['E', 'D', 'C', 'B', 'A']);
  });

  it('pages with limit and offset', async () => {
    const first = await api.get('/v1/transactions?limit=2');
    expect(first.body).toMatchObject({ limit: 2, offset: 0, has_more: true, total: 5, page: 1, total_pages: 3 });
    expect(expectAnswer(first, 200, salesPage).items.map((t) => t.reference_id)).toEqual(['E', 'D']);
    const second = await api.get('/v1/transactions?limit=2&offset=2');
    expect(second.body).toMatchObject({ offset: 2, has_more: true, page: 2 });
    expect(expectAnswer(second, 200, salesPage).items.map((t) => t.reference_id)).toEqual(['C', 'B']);
  });

  it('pages with page (1-based) as an alternative to offset', async () => {
    const last = await api.get('/v1/transactions?limit=2&page=3');
    expect(last.body).toMatchObject({ offset: 4, page: 3, has_more: false, total_pages: 3 });
    expect(expectAnswer(last, 200, salesPage).items.map((t) => t.reference_id)).toEqual(['A']);
    const beyond = await api.get('/v1/transactions?limit=2&page=9');
    expect(beyond.body).toMatchObject({ items: [], has_more: false, total: 5 });
  });

  it('rejects out-of-range or malformed paging and sort with 400', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'offset=-1', 'page=0', 'sort=newest']) {
      const reply = await api.get(`/v1/transactions?${query}`);
      expectError(reply, 400, 'invalid_parameter');
    }
    expect(await refs('?limit=100')).toHaveLength(5);
  });
});

describe('filters', () => {
  it('filters by status, one or several', async () => {
    expect(await refs('?status=failed')).toEqual(['D']);
    expect(await refs('?status=pending,pre_authorized')).toEqual(['E', 'C', 'B']);
  });

  it('filters by payment_type', async () => {
    expect(await refs('?payment_type=pix,boleto')).toEqual(['C', 'B']);
    expect(await refs('?payment_type=credit&status=succeeded')).toEqual(['A']);
  });

  it('filters by reference_id, which is how the CLI finds a lost create', async () => {
    expect(await refs('?reference_id=A')).toEqual(['A']);
    expect(await refs('?reference_id=A,E')).toEqual(['E', 'A']);
    const none = await api.get('/v1/transactions?reference_id=nope');
    expect(none.body).toMatchObject({ items: [], total: 0, has_more: false });
  });

  it('counts total after filtering', async () => {
    const reply = await api.get('/v1/transactions?payment_type=credit&limit=1');
    expect(reply.body).toMatchObject({ total: 3, query_count: 3, has_more: true, total_pages: 3 });
  });
});

describe('date_range on created_at', () => {
  it('treats calendar dates as whole UTC days', async () => {
    expect(await refs('?date_range[gte]=2026-11-21&date_range[lte]=2026-11-22')).toEqual(['D', 'C', 'B']);
    expect(await refs('?date_range[gt]=2026-11-22')).toEqual(['E']);
    expect(await refs('?date_range[lt]=2026-11-21')).toEqual(['A']);
    expect(await refs('?date_range[lte]=2026-11-23')).toEqual(['E', 'D', 'C', 'B', 'A']);
  });

  it('accepts Unix epoch seconds', async () => {
    const c = Date.parse(AT.C) / 1000;
    expect(await refs(`?date_range[gte]=${c}`)).toEqual(['E', 'D', 'C']);
    expect(await refs(`?date_range[gt]=${c}`)).toEqual(['E']);
    expect(await refs(`?date_range[lt]=${c}`)).toEqual(['B', 'A']);
  });

  it('accepts ISO date-times', async () => {
    expect(await refs(`?date_range[lte]=${encodeURIComponent(AT.C)}`)).toEqual(['D', 'C', 'B', 'A']);
    expect(await refs(`?date_range[gt]=${encodeURIComponent('2026-11-22T07:00:00-03:00')}`)).toEqual(['E']);
  });

  it('rejects a date that does not exist', async () => {
    expectError(await api.get('/v1/transactions?date_range[gte]=2026-02-30'), 400, 'invalid_parameter');
    expectError(await api.get('/v1/transactions?date_range[lt]=yesterday'), 400, 'invalid_parameter');
  });
});

describe('marketplace prefix', () => {
  it('lists the same items and echoes the prefixed uri', async () => {
    const reply = await api.get(`/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}/transactions?limit=1`);
    const page = expectAnswer(reply, 200, salesPage);
    expect(page.uri).toBe(`/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}/transactions`);
    expect(page.items[0]?.reference_id).toBe('E');
  });
});
