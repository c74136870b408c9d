import { describe, expect } from 'vitest';
import type * as z from 'zod/mini';
import { itOnClock } from '../helpers/fixtures.js';
import { SANDBOX_BUYER_ID, SANDBOX_MARKETPLACE_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { receivableStrict } from '../../src/provider/schemas/finance.js';
import { transactionStrict } from '../../src/provider/schemas/transaction.js';
import { DECLINED, directCardBody, expectAnswer, expectError, HEX32, ISO_MS, pageOf, VISA, type Client } from './helpers.js';

// The clock is pinned per test so expected_on can be asserted to the day.
let clock = new Date('2026-11-22T10:00:00.000Z');
const PREFIX = `/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}`;

const it = itOnClock(() => clock);

type Sale = z.infer<typeof transactionStrict>;

async function create(api: Client, body: unknown): Promise<Sale> {
  return expectAnswer(await api.post('/v1/transactions', body), 201, transactionStrict);
}

const receivablesPage = pageOf(receivableStrict);

async function receivablesOf(api: Client, transactionId: string, query = '') {
  const page = expectAnswer(await api.get(`/v1/transactions/${transactionId}/receivables${query}`), 200, receivablesPage);
  expect(page.resource).toBe('list');
  return page.items;
}

const cents = (decimal: string): number => Math.round(Number(decimal) * 100);

const RECEIVABLE_FIELDS = [
  'id',
  'resource',
  'status',
  'recipient',
  'transaction',
  'split_rule',
  'installment',
  'liable',
  'amount',
  'gross_amount',
  'anticipation_fee',
  'paid_at',
  'created_at',
  'transaction_created_at',
  'canceled_at',
  'expected_on',
  'authorization_code',
  'id_original_receivable',
  'prepaid',
  'transfer',
];

function expectReceivable(r: z.infer<typeof receivableStrict> | undefined, txn: Sale): void {
  if (r === undefined) throw new Error('no receivable');
  expect(Object.keys(r).sort()).toEqual([...RECEIVABLE_FIELDS].sort());
  expect(r.id).toMatch(HEX32);
  expect(r).toMatchObject({
    resource: 'receivable',
    recipient: SANDBOX_SELLER_ID,
    transaction: txn.id,
    split_rule: null,
    liable: 'true',
    anticipation_fee: '0.00',
    paid_at: null,
    transaction_created_at: txn.created_at,
    id_original_receivable: null,
    prepaid: 'false',
    transfer: null,
  });
  expect(r.amount).toMatch(/^\d+\.\d{2}$/);
  expect(r.gross_amount).toMatch(/^\d+\.\d{2}$/);
  expect(r.created_at).toMatch(ISO_MS);
  expect(r.expected_on).toMatch(ISO_MS);
}

describe('card sales', () => {
  it('splits R$ 100,00 in 3 installments: gross 33.34/33.33/33.33, net minus the fee share, a month apart', async ({ fileSandbox: { api } }) => {
    clock = new Date('2026-11-22T10:00:00.000Z');
    const txn = await create(api, { ...directCardBody(VISA, 10000), installment_plan: { number_installments: 3 } });
    const items = await receivablesOf(api, txn.id);
    expect(items).toHaveLength(3);
    items.forEach((r) => expectReceivable(r, txn));
    expect(items.map((r) => r.installment)).toEqual(['1', '2', '3']);
    expect(items.map((r) => r.gross_amount)).toEqual(['33.34', '33.33', '33.33']);
    expect(items.every((r) => r.status === 'pending' && r.canceled_at === null)).toBe(true);

    // The fee (2.99 on 100.00) is split the same way: 1.00, 1.00, 0.99.
    expect(txn.fees).toBe('2.99');
    expect(items.map((r) => r.amount)).toEqual(['32.34', '32.33', '32.34']);
    const feeShares = items.map((r) => cents(r.gross_amount) - cents(r.amount));
    expect(feeShares).toEqual([100, 100, 99]);
    expect(feeShares.reduce((a, b) => a + b, 0)).toBe(cents(txn.fees));
    expect(items.reduce((sum, r) => sum + cents(r.gross_amount), 0)).toBe(10000);

    // D+30 for the first, then the same day of each following month.
    expect(items.map((r) => r.expected_on)).toEqual(['2026-12-22T00:00:00.000Z', '2027-01-22T00:00:00.000Z', '2027-02-22T00:00:00.000Z']);
    expect(items[0]?.expected_on).toBe(txn.expected_on);
    const auth = txn.history.find((h) => h.operation_type === 'authorization');
    expect(auth).toBeDefined();
    expect(items.every((r) => r.authorization_code === auth?.authorization_code)).toBe(true);
  });

  it('adds calendar months, keeping to the last day of shorter months', async ({ fileSandbox: { api } }) => {
    clock = new Date('2027-01-01T15:00:00.000Z'); // D+30 = 2027-01-31
    const txn = await create(api, { ...directCardBody(VISA, 1000), installment_plan: { number_installments: 4 } });
    const items = await receivablesOf(api, txn.id);
    expect(items.map((r) => r.expected_on.slice(0, 10))).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30']);
    // 10.00 in 4: 2.50 each; fee 0.30 in 4: 0.08, 0.08, 0.07, 0.07.
    expect(items.map((r) => r.gross_amount)).toEqual(['2.50', '2.50', '2.50', '2.50']);
    expect(items.map((r) => r.amount)).toEqual(['2.42', '2.42', '2.43', '2.43']);
  });

  it('makes one receivable without an installment plan, none for a declined or pre-authorized sale', async ({ fileSandbox: { api } }) => {
    clock = new Date('2026-11-22T10:00:00.000Z');
    const single = await create(api, directCardBody(VISA, 1000));
    const items = await receivablesOf(api, single.id);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ installment: '1', gross_amount: '10.00', amount: '9.70', expected_on: '2026-12-22T00:00:00.000Z' });

    const declined = await create(api, directCardBody(DECLINED, 1000));
    expect(await receivablesOf(api, declined.id)).toEqual([]);
    const held = await create(api, { ...directCardBody(VISA, 1000), capture: false });
    expect(await receivablesOf(api, held.id)).toEqual([]);
  });

  it('creates them when a pre-authorization is captured, from the captured amount and date', async ({ fileSandbox: { api } }) => {
    clock = new Date('2026-11-22T10:00:00.000Z');
    const held = await create(api, { ...directCardBody(VISA, 5000), capture: false, installment_plan: { number_installments: 2 } });
    clock = new Date('2026-11-25T08:00:00.000Z');
    const captured = await api.post(`/v1/transactions/${held.id}/capture`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 4001 });
    const capturedSale = expectAnswer(captured, 200, transactionStrict);
    const items = await receivablesOf(api, held.id);
    expect(items.map((r) => r.gross_amount)).toEqual(['20.01', '20.00']);
    // Fee 1.20 (2.99% of 40.01) split 0.60 / 0.60.
    expect(capturedSale.fees).toBe('1.20');
    expect(items.map((r) => r.amount)).toEqual(['19.41', '19.40']);
    expect(items.map((r) => r.expected_on)).toEqual(['2026-12-25T00:00:00.000Z', '2027-01-25T00:00:00.000Z']);
    expect(items[0]?.created_at).toBe('2026-11-25T08:00:00.000Z');
  });

  it('recomputes them after a partial void and cancels them after a full void', async ({ fileSandbox: { api } }) => {
    clock = new Date('2026-11-22T10:00:00.000Z');
    const txn = await create(api, { ...directCardBody(VISA, 10000), installment_plan: { number_installments: 3 } });
    const before = await receivablesOf(api, txn.id);
    clock = new Date('2026-11-23T09:00:00.000Z');
    const partial = await api.post(`/v1/transactions/${txn.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 1000 });
    expect(partial.body).toMatchObject({ amount: '90.00', fees: '2.69' });
    const after = await receivablesOf(api, txn.id);
    // The same receivables, re-split: 90.00 in 3, fee 2.69 as 0.90 / 0.90 / 0.89.
    expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
    expect(after.map((r) => r.gross_amount)).toEqual(['30.00', '30.00', '30.00']);
    expect(after.map((r) => r.amount)).toEqual(['29.10', '29.10', '29.11']);
    expect(after.map((r) => r.expected_on)).toEqual(before.map((r) => r.expected_on));
    expect(after.every((r) => r.status === 'pending')).toBe(true);

    clock = new Date('2026-11-24T09:00:00.000Z');
    const full = await api.post(`/v1/transactions/${txn.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 9000 });
    expect(expectAnswer(full, 200, transactionStrict).status).toBe('canceled');
    const canceled = await receivablesOf(api, txn.id);
    expect(canceled.map((r) => r.status)).toEqual(['canceled', 'canceled', 'canceled']);
    expect(canceled.every((r) => r.canceled_at === '2026-11-24T09:00:00.000Z')).toBe(true);
  });
});

describe('boleto and PIX', () => {
  it('makes one receivable when paid, expected the next day', async ({ fileSandbox: { api } }) => {
    clock = new Date('2026-11-22T10:00:00.000Z');
    const common = { on_behalf_of: SANDBOX_SELLER_ID, amount: 2500, currency: 'BRL', customer: SANDBOX_BUYER_ID };
    const boleto = await create(api, { ...common, payment_type: 'boleto' });
    expect(await receivablesOf(api, boleto.id)).toEqual([]);
    clock = new Date('2026-11-24T13:00:00.000Z');
    const paid = expectAnswer(await api.post(`/v1/transactions/${boleto.id}/approve`), 200, transactionStrict);
    const items = await receivablesOf(api, boleto.id);
    expect(items).toHaveLength(1);
    expectReceivable(items[0], paid);
    // Boleto fee: a fixed 2.50.
    expect(items[0]).toMatchObject({ installment: '1', gross_amount: '25.00', amount: '22.50', expected_on: '2026-11-25T00:00:00.000Z', authorization_code: null });

    const pix = await create(api, { ...common, payment_type: 'pix', amount: 1000 });
    await api.post(`/v1/transactions/${pix.id}/approve`);
    const [pixReceivable] = await receivablesOf(api, pix.id);
    expect(pixReceivable).toMatchObject({ gross_amount: '10.00', amount: '9.90', expected_on: '2026-11-25T00:00:00.000Z', status: 'pending' });
    await api.post(`/v1/transactions/${pix.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 1000 });
    expect((await receivablesOf(api, pix.id))[0]?.status).toBe('canceled');
  });
});

describe('GET /receivables/{id} and /transactions/{id}/receivables', () => {
  it('gets one receivable under either path form, and 404s for an unknown one', async ({ fileSandbox: { api } }) => {
    const txn = await create(api, { ...directCardBody(VISA, 3000), installment_plan: { number_installments: 2 } });
    const [first] = await receivablesOf(api, txn.id);
    for (const path of [`/v1/receivables/${first?.id}`, `${PREFIX}/receivables/${first?.id}`]) {
      const reply = await api.get(path);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual(first);
    }
    expectError(await api.get(`/v1/receivables/${'6'.repeat(32)}`), 404, 'resource_not_found');
  });

  it('lists in the envelope, in installment order, with paging; 404 for an unknown transaction', async ({ fileSandbox: { api } }) => {
    const txn = await create(api, { ...directCardBody(VISA, 10000), installment_plan: { number_installments: 3 } });
    const page = await api.get(`${PREFIX}/transactions/${txn.id}/receivables?limit=2`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ resource: 'list', limit: 2, offset: 0, has_more: true, total: 3, total_pages: 2 });
    expect(expectAnswer(page, 200, receivablesPage).items.map((r) => r.installment)).toEqual(['1', '2']);
    const rest = await api.get(`/v1/transactions/${txn.id}/receivables?limit=2&page=2`);
    expect(expectAnswer(rest, 200, receivablesPage).items.map((r) => r.installment)).toEqual(['3']);
    expect((await receivablesOf(api, txn.id, '?sort=time-ascending')).map((r) => r.installment)).toEqual(['1', '2', '3']);
    expectError(await api.get(`/v1/transactions/${txn.id}/receivables?limit=500`), 400, 'invalid_parameter');

    const missing = await api.get(`/v1/transactions/${'7'.repeat(32)}/receivables`);
    expect(expectError(missing, 404, 'resource_not_found').message).toMatch(/transaction/);
  });
});
