import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_BUYER_ID, SANDBOX_CARD_ID, SANDBOX_MARKETPLACE_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { cardStrict } from '../../src/provider/schemas/cards.js';
import { receivableStrict } from '../../src/provider/schemas/finance.js';
import { resourceSchemas } from '../../src/provider/schemas/index.js';
import { invoiceStrict } from '../../src/provider/schemas/recurrence.js';
import { transactionStrict } from '../../src/provider/schemas/transaction.js';
import { countedPageOf, DECLINED, expectAnswer, expectError, expectReasons, expectServed, HEX32, nth, pageOf, VISA, type Client, type Reply } from './helpers.js';
import { advance, allInvoices, buyerWithCard, createPlan, pinnedSandbox, subscribe, type Invoice, type Pinned } from './recurrence-helpers.js';

// Invoices: the one-off create, reading and listing, over-due as the clock passes the due date,
// and the transitions support makes by hand (approve, remove, refund) with their refusals.

let fresh: Pinned;
let api: Client;
const NOW = '2030-07-01T08:00:00.000Z';
const ZERO = '0'.repeat(32);

beforeAll(async () => {
  fresh = await pinnedSandbox(NOW);
  api = fresh.api;
});
afterAll(async () => {
  await fresh.close();
});

function oneOff(overrides: Record<string, unknown> = {}) {
  return { customer: SANDBOX_BUYER_ID, amount: 15000, currency: 'BRL', due_date: '2030-07-03', on_behalf_of: SANDBOX_SELLER_ID, ...overrides };
}

async function createInvoice(overrides: Record<string, unknown> = {}): Promise<Invoice> {
  return expectServed(await api.post('/v1/invoices', oneOff(overrides)), 201, invoiceStrict);
}

/** An invoice answer of this status, read with its strict schema. */
function invoiceIn(reply: Reply, status = 200): Invoice {
  return expectAnswer(reply, status, invoiceStrict);
}

/** The ids of the invoices a list answers, in its order. */
function idsIn(reply: Reply): string[] {
  return expectAnswer(reply, 200, pageOf(invoiceStrict)).items.map((i) => i.id);
}

function transactionIn(reply: Reply) {
  return expectAnswer(reply, 200, transactionStrict);
}

describe('POST /invoices (one-off)', () => {
  it('answers 201 with a pending invoice for the customer', async () => {
    const invoice = await createInvoice({ description: 'Adesão', expiration_date: '2030-07-10', payment_method: 'credit', metadata: { pedido: '42' } });
    expect(invoice.id).toMatch(HEX32);
    expect(invoice).toEqual({
      id: invoice.id,
      resource: 'invoice',
      subscription: null,
      on_behalf_of: SANDBOX_SELLER_ID,
      customer: SANDBOX_BUYER_ID,
      invoice_customer: { uuid: SANDBOX_BUYER_ID, first_name: 'Maria', last_name: 'Silva', taxpayer_id: '52998224725', email: 'maria.silva@example.com' },
      description: 'Adesão',
      payment_method: 'credit',
      due_date: '2030-07-03',
      expiration_date: '2030-07-10',
      amount: 15000,
      currency: 'BRL',
      paid_at: null,
      voided_at: null,
      retries: 0,
      max_retries: 0,
      status: 'pending',
      transaction: null,
      uri: `/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}/invoices/${invoice.id}`,
      metadata: { pedido: '42' },
      created_at: NOW,
      updated_at: NOW,
    });
    expect((await api.get(`/v1/invoices/${invoice.id}`)).body).toEqual(invoice);
    expect((await api.get(`/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}/invoices/${invoice.id}`)).body).toEqual(invoice);
  });

  it.each([
    ['customer', { customer: undefined }],
    ['amount', { amount: undefined }],
    ['amount', { amount: 0 }],
    ['currency', { currency: undefined }],
    ['due_date', { due_date: undefined }],
    ['due_date', { due_date: '2030-06-30' }],
    ['due_date', { due_date: '2030-13-01' }],
    ['expiration_date', { expiration_date: '2030-07-02' }],
    ['payment_method', { payment_method: 'pix' }],
    ['subscription', { subscription: ZERO }],
  ])('refuses a bad %s with 400', async (field, override) => {
    const reply = await api.post('/v1/invoices', oneOff(override));
    const { reasons = [] } = expectError(reply, 400, 'invalid_parameter');
    expect(reasons.some((r) => r.startsWith(`${field}:`)), JSON.stringify(reply.body)).toBe(true);
  });

  it('says what is wrong with a description, a payment method, a subscription or an expiration, each in the same words', async () => {
    const reply = await api.post(
      '/v1/invoices',
      oneOff({ description: 'd'.repeat(501), payment_method: 'pix', subscription: ZERO, expiration_date: '2030-07-02 20:00:00-03:00' }),
    );
    expectReasons(reply, [
      'description: must be at most 500 characters',
      'payment_method: must be "credit"',
      "subscription: is set by a subscription's own billing; a one-off invoice names none",
      'expiration_date: must not be before the due date (2030-07-03)',
    ]);
    // Late on the day before in Brazil is the due date itself in UTC, the day the invoice keeps.
    const onTheDay = await createInvoice({ expiration_date: '2030-07-02T21:00:00-03:00', description: null });
    expect(onTheDay).toMatchObject({ expiration_date: '2030-07-03', description: null });
  });

  it('answers 404 for an unknown customer, seller or invoice', async () => {
    expectError(await api.post('/v1/invoices', oneOff({ customer: ZERO })), 404, 'resource_not_found');
    expectError(await api.post('/v1/invoices', oneOff({ on_behalf_of: ZERO })), 404, 'resource_not_found');
    expectError(await api.get(`/v1/invoices/${ZERO}`), 404, 'resource_not_found');
    expectError(await api.del(`/v1/invoices/${ZERO}`), 404, 'resource_not_found');
    expectError(await api.post(`/v1/invoices/${ZERO}/approve`), 404, 'resource_not_found');
    expectError(await api.del(`/v1/invoices/${ZERO}/void`), 404, 'resource_not_found');
  });
});

describe('GET /invoices', () => {
  it('filters by customer, by status (comma-separated), by subscription and by creation date', async () => {
    const { buyer } = await buyerWithCard(api, VISA);
    const a = await createInvoice({ customer: buyer.id });
    const b = await createInvoice({ customer: buyer.id });
    await api.del(`/v1/invoices/${b.id}`);
    const mine = await api.get(`/v1/invoices?customer=${buyer.id}`);
    expect(mine.body).toMatchObject({ resource: 'list', total: 2 });
    expect(idsIn(mine)).toEqual([b.id, a.id]);
    expect(idsIn(await api.get(`/v1/invoices?customer=${buyer.id}&status=canceled`))).toEqual([b.id]);
    const total = async (query: string) => expectAnswer(await api.get(`/v1/invoices?${query}`), 200, countedPageOf(invoiceStrict)).total;
    expect(await total(`customer=${buyer.id}&status=pending,canceled`)).toBe(2);
    expect(await total(`customer=${buyer.id}&date_range[gt]=2030-07-01`)).toBe(0);
    expect(await total(`customer=${buyer.id}&date_range[gte]=2030-07-01`)).toBe(2);
    expect(await total(`subscription=${ZERO}`)).toBe(0);
    expectError(await api.get('/v1/invoices?limit=0'), 400, 'invalid_parameter');
  });

  it('filters by due date as written (due_date[gte|gt|lte|lt], each a calendar date)', async () => {
    const { buyer } = await buyerWithCard(api, VISA);
    const early = await createInvoice({ customer: buyer.id, due_date: '2030-07-02' });
    const late = await createInvoice({ customer: buyer.id, due_date: '2030-07-31' });
    const due = async (query: string) => idsIn(await api.get(`/v1/invoices?customer=${buyer.id}&${query}`));
    expect(await due('due_date[gte]=2030-07-01&due_date[lte]=2030-07-30')).toEqual([early.id]);
    expect(await due('due_date[gt]=2030-07-02')).toEqual([late.id]);
    expect(await due('due_date[lt]=2030-07-31')).toEqual([early.id]);
    expect(await due('due_date[lte]=2030-07-31')).toEqual([late.id, early.id]);
    expect(await due('due_date[gte]=2030-08-01')).toEqual([]);
    expect(idsIn(await api.get(`/v1/sellers/${SANDBOX_SELLER_ID}/invoices?due_date[gte]=2030-07-31&due_date[lte]=2030-07-31`))).toContain(late.id);
    expectReasons(await api.get('/v1/invoices?due_date[lte]=31/07/2030'), ['due_date[lte]: must be a calendar date, YYYY-MM-DD']);
  });
});

describe('over-due', () => {
  it('a pending one-off invoice turns over-due the day after its due date, not on it', async () => {
    const own = await pinnedSandbox(NOW);
    try {
      const { id } = invoiceIn(await own.api.post('/v1/invoices', oneOff({ due_date: '2030-07-03' })), 201);
      const onTheDay = await advance(own.api, 2);
      expect(onTheDay.overdue).toEqual([]);
      expect(invoiceIn(await own.api.get(`/v1/invoices/${id}`)).status).toBe('pending');
      const after = await advance(own.api, 1);
      expect(after.overdue).toEqual([id]);
      expect((await own.api.get(`/v1/invoices/${id}`)).body).toMatchObject({ status: 'over-due', updated_at: '2030-07-04T00:00:00.000Z' });
      expect((await advance(own.api, 10)).overdue).toEqual([]);
    } finally {
      await own.close();
    }
  });
});

describe('approve', () => {
  it("pays a pending invoice with the customer's default card; a paid one is 400", async () => {
    const invoice = await createInvoice();
    const paid = invoiceIn(await api.post(`/v1/invoices/${invoice.id}/approve`));
    expect(paid).toMatchObject({ status: 'paid', paid_at: NOW, retries: 0, transaction: expect.stringMatching(HEX32) });
    const txn = transactionIn(await api.get(`/v1/transactions/${paid.transaction}`));
    expect(txn).toMatchObject({ status: 'succeeded', amount: '150.00', customer: SANDBOX_BUYER_ID, description: `Invoice ${invoice.id}`, metadata: { invoice: invoice.id } });
    expect(txn.payment_method.id).toBe(SANDBOX_CARD_ID);
    expect(expectError(await api.post(`/v1/invoices/${invoice.id}/approve`), 400, 'invalid_invoice_status').message).toContain('its status is paid');
  });

  it('pays an over-due invoice', async () => {
    const own = await pinnedSandbox(NOW);
    try {
      const invoice = invoiceIn(await own.api.post('/v1/invoices', oneOff()), 201);
      await advance(own.api, 5);
      const reply = await own.api.post(`/v1/invoices/${invoice.id}/approve`);
      expect(reply.body).toMatchObject({ status: 'paid', paid_at: '2030-07-06T08:00:00.000Z' });
    } finally {
      await own.close();
    }
  });

  it('a decline leaves it failed and counts the attempt; a canceled invoice is 400', async () => {
    const { buyer } = await buyerWithCard(api, DECLINED);
    const invoice = await createInvoice({ customer: buyer.id });
    const first = invoiceIn(await api.post(`/v1/invoices/${invoice.id}/approve`));
    expect(first).toMatchObject({ status: 'failed', retries: 1, paid_at: null });
    expect(transactionIn(await api.get(`/v1/transactions/${first.transaction}`)).status).toBe('failed');
    const second = invoiceIn(await api.post(`/v1/invoices/${invoice.id}/approve`));
    expect(second).toMatchObject({ status: 'failed', retries: 2 });
    expect(second.transaction).not.toBe(first.transaction);

    const canceled = await createInvoice();
    await api.del(`/v1/invoices/${canceled.id}`);
    expectError(await api.post(`/v1/invoices/${canceled.id}/approve`), 400, 'invalid_invoice_status');
  });

  it("retries a failed subscription invoice on the subscription's current card", async () => {
    const own = await pinnedSandbox(NOW);
    try {
      const { buyer, card } = await buyerWithCard(own.api, DECLINED);
      const sub = await subscribe(own.api, await createPlan(own.api), '2030-07-02', { customer: buyer.id, card: card.id });
      await advance(own.api, 1);
      const failed = nth(await allInvoices(own.api, `subscription=${sub.uuid}`), 0);
      expect(failed).toMatchObject({ status: 'failed', retries: 1 });
      const token = expectAnswer(
        await own.api.post('/v1/cards/tokens', { card_number: VISA, holder_name: 'CARLA SOUZA', expiration_month: '12', expiration_year: '2049', security_code: '123' }),
        200,
        resourceSchemas['card token'],
      );
      const good = expectAnswer(await own.api.post('/v1/cards', { token: token.id, customer: buyer.id }), 200, cardStrict);
      await own.api.put(`/v1/recurrence_subscriptions/${sub.uuid}`, { card: good.id });
      const paid = invoiceIn(await own.api.post(`/v1/invoices/${failed.id}/approve`));
      expect(paid).toMatchObject({ status: 'paid', retries: 1 });
      const txn = transactionIn(await own.api.get(`/v1/transactions/${paid.transaction}`));
      expect(txn).toMatchObject({ status: 'succeeded', description: `Subscription ${sub.uuid}`, metadata: { invoice: failed.id, subscription: sub.uuid } });
      expect(txn.payment_method.id).toBe(good.id);
    } finally {
      await own.close();
    }
  });
});

describe('remove', () => {
  it('cancels a pending or over-due invoice; anything else is 400', async () => {
    const own = await pinnedSandbox(NOW);
    try {
      const pending = invoiceIn(await own.api.post('/v1/invoices', oneOff({ due_date: '2030-07-20' })), 201);
      const late = invoiceIn(await own.api.post('/v1/invoices', oneOff({ due_date: '2030-07-01' })), 201);
      const paid = invoiceIn(await own.api.post('/v1/invoices', oneOff()), 201);
      await own.api.post(`/v1/invoices/${paid.id}/approve`);
      await advance(own.api, 2);
      expect(invoiceIn(await own.api.get(`/v1/invoices/${late.id}`)).status).toBe('over-due');

      for (const invoice of [pending, late]) {
        const reply = await own.api.del(`/v1/invoices/${invoice.id}`);
        expect(reply.status).toBe(200);
        expect(reply.body).toMatchObject({ id: invoice.id, status: 'canceled', voided_at: null, transaction: null });
      }
      for (const [invoice, status] of [
        [paid, 'paid'],
        [pending, 'canceled'],
      ] as const) {
        expect(expectError(await own.api.del(`/v1/invoices/${invoice.id}`), 400, 'invalid_invoice_status').message).toContain(`its status is ${status}`);
      }
      // A canceled invoice never turns over-due.
      expect((await advance(own.api, 30)).overdue).toEqual([]);
    } finally {
      await own.close();
    }
  });
});

describe('refund (DELETE /invoices/{id}/void)', () => {
  it('voids the paid invoice\'s transaction in full and cancels the invoice', async () => {
    const invoice = await createInvoice();
    const paid = invoiceIn(await api.post(`/v1/invoices/${invoice.id}/approve`));
    fresh.setRealTime('2030-07-01T09:00:00.000Z');
    const reply = await api.del(`/v1/invoices/${invoice.id}/void`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({ status: 'canceled', voided_at: '2030-07-01T09:00:00.000Z', paid_at: paid.paid_at, transaction: paid.transaction });
    const txn = transactionIn(await api.get(`/v1/transactions/${paid.transaction}`));
    expect(txn).toMatchObject({ status: 'canceled', voided: true, amount: '0.00', original_amount: '150.00' });
    expect(txn.history.at(-1)).toMatchObject({ operation_type: 'void', amount: '150.00' });
    const receivables = expectAnswer(await api.get(`/v1/transactions/${paid.transaction}/receivables`), 200, pageOf(receivableStrict)).items;
    expect(receivables.map((r) => r.status)).toEqual(['canceled']);

    expect(expectError(await api.del(`/v1/invoices/${invoice.id}/void`), 400, 'invalid_invoice_status').message).toContain('its status is canceled');
  });

  it('voids what is left when part of the charge was already voided on the transaction', async () => {
    const invoice = await createInvoice();
    const paid = invoiceIn(await api.post(`/v1/invoices/${invoice.id}/approve`));
    expect((await api.post(`/v1/transactions/${paid.transaction}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 5000 })).status).toBe(200);
    expect((await api.del(`/v1/invoices/${invoice.id}/void`)).status).toBe(200);
    const txn = transactionIn(await api.get(`/v1/transactions/${paid.transaction}`));
    expect(txn).toMatchObject({ status: 'canceled', amount: '0.00' });
    expect(txn.history.filter((h) => h.operation_type === 'void').map((h) => h.amount)).toEqual(['50.00', '100.00']);
  });

  it('refuses pending and failed invoices with 400', async () => {
    const pending = await createInvoice();
    expect(expectError(await api.del(`/v1/invoices/${pending.id}/void`), 400, 'invalid_invoice_status').message).toContain('its status is pending');
    const { buyer } = await buyerWithCard(api, DECLINED);
    const failed = await createInvoice({ customer: buyer.id });
    await api.post(`/v1/invoices/${failed.id}/approve`);
    expectError(await api.del(`/v1/invoices/${failed.id}/void`), 400, 'invalid_invoice_status');
    expect(invoiceIn(await api.get(`/v1/invoices/${pending.id}`)).status).toBe('pending');
  });
});
