import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { SANDBOX_BUYER_ID, SANDBOX_CARD_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { eventStrict } from '../../src/provider/schemas/events.js';
import { receivableStrict } from '../../src/provider/schemas/finance.js';
import { invoiceStrict, subscriptionStrict } from '../../src/provider/schemas/recurrence.js';
import { transactionStrict } from '../../src/provider/schemas/transaction.js';
import { replaceState } from '../../src/sandbox/store.js';
import { countedPageOf, DECLINED, expectAnswer, expectError, expectTransactionShape, HEX32, ISO_MS, nth, pageOf, readStateFile, VISA, type Client, type Reply } from './helpers.js';
import { advance, allInvoices, buyerWithCard, createPlan, pinnedSandbox, subscribe, type Invoice, type Pinned, wholePlan } from './recurrence-helpers.js';

// Billing on the sandbox clock: every due date of an active subscription billed once, in date
// order, as a real card transaction; schedules of every frequency; suspension, expiry, duration
// and declines. Each test has a sandbox of its own, so what an advance reports is its own doing.

const opened: Pinned[] = [];
async function sandboxAt(iso: string): Promise<Client> {
  const fresh = await pinnedSandbox(iso);
  opened.push(fresh);
  return fresh.api;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((f) => f.close()));
});

const dueDates = (invoices: Invoice[]) => invoices.map((i) => i.due_date);

/** A subscription answer of this status, read with its strict schema. */
function subscriptionIn(reply: Reply) {
  return expectAnswer(reply, 200, subscriptionStrict);
}

/** The provider's invoice: every field, with its type. */
function expectInvoiceShape(answer: unknown): void {
  const invoice = z.parse(invoiceStrict, answer);
  expect(invoice.id).toMatch(HEX32);
  expect(invoice.resource).toBe('invoice');
  for (const key of ['on_behalf_of', 'customer', 'payment_method', 'due_date', 'currency', 'status', 'uri', 'created_at', 'updated_at'] as const) {
    expect(typeof invoice[key], key).toBe('string');
  }
  for (const key of ['amount', 'retries', 'max_retries'] as const) expect(Number.isInteger(invoice[key]), key).toBe(true);
  for (const key of ['subscription', 'description', 'expiration_date', 'paid_at', 'voided_at', 'transaction'] as const) {
    expect(invoice).toHaveProperty(key);
    expect(invoice[key] === null || typeof invoice[key] === 'string', key).toBe(true);
  }
  expect(Object.keys(invoice.invoice_customer).sort()).toEqual(['email', 'first_name', 'last_name', 'taxpayer_id', 'uuid']);
  expect(typeof invoice.metadata).toBe('object');
  expect(invoice.uri).toMatch(new RegExp(`^/v1/marketplaces/[0-9a-f]{32}/invoices/${invoice.id}$`));
  expect(invoice.created_at).toMatch(ISO_MS);
}

async function transactionsOf(api: Client, subscription: string): Promise<Array<z.infer<typeof transactionStrict>>> {
  const listed = expectAnswer(await api.get('/v1/transactions?limit=100&sort=time-ascending'), 200, pageOf(transactionStrict));
  return listed.items.filter((t) => t.description === `Subscription ${subscription}`);
}

function transactionIn(reply: Reply) {
  return expectAnswer(reply, 200, transactionStrict);
}

describe('a monthly subscription over a year', () => {
  const MONTHLY_DUES = ['01-16', '02-16', '03-16', '04-16', '05-16', '06-16', '07-16', '08-16', '09-16', '10-16', '11-16', '12-16'].map((d) => `2030-${d}`);

  it('one advance of 365 days: exactly 12 invoices, all paid, each a real card transaction', async () => {
    const api = await sandboxAt('2030-01-15T12:00:00.000Z');
    const plan = await createPlan(api);
    const sub = await subscribe(api, plan, '2030-01-16');

    const moved = await advance(api, 365);
    expect(moved.now).toBe('2031-01-15T12:00:00.000Z');
    expect(moved.offset_seconds).toBe(365 * 86_400);
    expect(moved.billed).toHaveLength(12);
    expect(moved.billed.map((b) => [b.subscription, b.due_date, b.status])).toEqual(MONTHLY_DUES.map((d) => [sub.uuid, d, 'paid']));
    expect(moved).toMatchObject({ expired: [], overdue: [] });

    const invoices = await allInvoices(api, `subscription=${sub.uuid}`);
    expect(dueDates(invoices)).toEqual(MONTHLY_DUES);
    expect(invoices.map((i) => i.id)).toEqual(moved.billed.map((b) => b.invoice));
    for (const invoice of invoices) {
      expectInvoiceShape(invoice);
      expect(invoice).toMatchObject({
        subscription: sub.uuid,
        customer: SANDBOX_BUYER_ID,
        on_behalf_of: SANDBOX_SELLER_ID,
        amount: 2990,
        currency: 'BRL',
        status: 'paid',
        retries: 0,
        voided_at: null,
        invoice_customer: { uuid: SANDBOX_BUYER_ID, first_name: 'Maria', last_name: 'Silva', taxpayer_id: '52998224725' },
        // Billed when its day came, not when the advance call ran.
        created_at: `${invoice.due_date}T00:00:00.000Z`,
        paid_at: `${invoice.due_date}T00:00:00.000Z`,
      });
    }

    const charges = await transactionsOf(api, sub.uuid);
    expect(charges).toHaveLength(12);
    expect(charges.map((t) => t.id)).toEqual(invoices.map((i) => i.transaction));
    for (const [i, txn] of charges.entries()) {
      expectTransactionShape(txn);
      expect(txn).toMatchObject({ status: 'succeeded', payment_type: 'credit', amount: '29.90', customer: SANDBOX_BUYER_ID, metadata: { invoice: nth(invoices, i).id, subscription: sub.uuid } });
      expect(txn.payment_method.id).toBe(SANDBOX_CARD_ID);
      expect(txn.fees).not.toBe('0.00');
    }
    expect(expectAnswer(await api.get(`/v1/transactions/${nth(charges, 0).id}/receivables`), 200, countedPageOf(receivableStrict)).total).toBe(1);

    expect((await api.get(`/v1/recurrence_subscriptions/${sub.uuid}`)).body).toMatchObject({
      status: 'active',
      due_since_date: '2030-12-16',
      due_date: '2031-01-16',
    });
  });

  it('twelve advances of about a month bill the same 12 due dates, each once, each when its day is reached', async () => {
    const api = await sandboxAt('2030-01-15T12:00:00.000Z');
    const plan = await createPlan(api);
    const sub = await subscribe(api, plan, '2030-01-16');
    const steps = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    const billed: string[][] = [];
    for (const days of steps) billed.push((await advance(api, days)).billed.map((b) => b.due_date));
    // Each step ends on the 15th, the day before a due date: every advance bills the one it passed.
    expect(billed).toEqual(MONTHLY_DUES.map((d) => [d]));
    const invoices = await allInvoices(api, `subscription=${sub.uuid}`);
    expect(dueDates(invoices)).toEqual(MONTHLY_DUES);
    expect(invoices.every((i) => i.status === 'paid')).toBe(true);
    expect(await transactionsOf(api, sub.uuid)).toHaveLength(12);
    expect((await api.get(`/v1/recurrence_subscriptions/${sub.uuid}`)).body).toMatchObject({ due_since_date: '2030-12-16', due_date: '2031-01-16' });
  });

  it('day-by-day advances bill each due date on its own day, never twice', async () => {
    const api = await sandboxAt('2030-01-15T12:00:00.000Z');
    const sub = await subscribe(api, await createPlan(api, { frequency: 'weekly' }), '2030-01-16');
    const billed: Array<{ due: string; on: string }> = [];
    for (let day = 1; day <= 36; day += 1) {
      const moved = await advance(api, 1);
      for (const entry of moved.billed) billed.push({ due: entry.due_date, on: moved.now.slice(0, 10) });
    }
    const weeks = ['2030-01-16', '2030-01-23', '2030-01-30', '2030-02-06', '2030-02-13', '2030-02-20'];
    expect(billed).toEqual(weeks.map((d) => ({ due: d, on: d })));
    expect(dueDates(await allInvoices(api, `subscription=${sub.uuid}`))).toEqual(weeks);
  });
});

describe('schedules', () => {
  it('monthly from Jan 31 keeps to month ends: Feb 28, Mar 31, Apr 30', async () => {
    const api = await sandboxAt('2030-01-30T09:00:00.000Z');
    const sub = await subscribe(api, await createPlan(api), '2030-01-31');
    await advance(api, 120);
    expect(dueDates(await allInvoices(api, `subscription=${sub.uuid}`))).toEqual(['2030-01-31', '2030-02-28', '2030-03-31', '2030-04-30']);
    expect((await api.get(`/v1/recurrence_subscriptions/${sub.uuid}`)).body).toMatchObject({ due_since_date: '2030-04-30', due_date: '2030-05-31' });
  });

  it('daily, weekly every 2 weeks, monthly every 3 months', async () => {
    const api = await sandboxAt('2030-01-15T12:00:00.000Z');
    const daily = await subscribe(api, await createPlan(api, { frequency: 'daily', amount: 100 }), '2030-01-16');
    const fortnightly = await subscribe(api, await createPlan(api, { frequency: 'weekly', interval: 2 }), '2030-01-16');
    const quarterly = await subscribe(api, await createPlan(api, { frequency: 'monthly', interval: 3 }), '2030-01-16');
    await advance(api, 200);
    const dailyDues = dueDates(await allInvoices(api, `subscription=${daily.uuid}`));
    expect(dailyDues).toHaveLength(200);
    expect(dailyDues.slice(0, 3)).toEqual(['2030-01-16', '2030-01-17', '2030-01-18']);
    expect(dailyDues.at(-1)).toBe('2030-08-03');
    expect(dueDates(await allInvoices(api, `subscription=${fortnightly.uuid}`))).toEqual(
      Array.from({ length: 15 }, (_, i) => new Date(Date.UTC(2030, 0, 16 + 14 * i)).toISOString().slice(0, 10)),
    );
    expect(dueDates(await allInvoices(api, `subscription=${quarterly.uuid}`))).toEqual(['2030-01-16', '2030-04-16', '2030-07-16']);
  });

  it('annually from Feb 29: Feb 28 in common years, Feb 29 again in the next leap year', async () => {
    const api = await sandboxAt('2032-02-28T12:00:00.000Z');
    const sub = await subscribe(api, await createPlan(api, { frequency: 'annually', amount: 29900 }), '2032-02-29');
    await advance(api, 4 * 365 + 2);
    expect(dueDates(await allInvoices(api, `subscription=${sub.uuid}`))).toEqual(['2032-02-29', '2033-02-28', '2034-02-28', '2035-02-28', '2036-02-29']);
  });

  it('bills every subscription in date order: the invoices and card transactions follow the calendar', async () => {
    const api = await sandboxAt('2030-01-15T12:00:00.000Z');
    const monthly = await subscribe(api, await createPlan(api), '2030-01-20');
    const weekly = await subscribe(api, await createPlan(api, { frequency: 'weekly' }), '2030-01-16');
    const moved = await advance(api, 40);
    const order = moved.billed.map((b) => `${b.due_date} ${b.subscription === monthly.uuid ? 'M' : 'W'}`);
    expect(order).toEqual(['2030-01-16 W', '2030-01-20 M', '2030-01-23 W', '2030-01-30 W', '2030-02-06 W', '2030-02-13 W', '2030-02-20 M', '2030-02-20 W']);
    const numbers = await Promise.all(
      moved.billed.map(async (b) => {
        const invoice = expectAnswer(await api.get(`/v1/invoices/${b.invoice}`), 200, invoiceStrict);
        return Number(transactionIn(await api.get(`/v1/transactions/${invoice.transaction}`)).transaction_number);
      }),
    );
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(new Set([weekly.uuid, monthly.uuid])).toEqual(new Set(moved.billed.map((b) => b.subscription)));
  });

  it("a plan's new calendar applies from each subscription's next due date", async () => {
    const api = await sandboxAt('2030-01-15T12:00:00.000Z');
    const plan = await createPlan(api);
    const sub = await subscribe(api, plan, '2030-01-16');
    await advance(api, 5); // billed Jan 16; next Feb 16
    expect((await api.put(`/v1/recurrence_plans/${plan.uuid}`, wholePlan(plan, { frequency: 'weekly' }))).status).toBe(200);
    await advance(api, 40);
    expect(dueDates(await allInvoices(api, `subscription=${sub.uuid}`))).toEqual(['2030-01-16', '2030-02-16', '2030-02-23']);
  });
});

describe('suspension', () => {
  it('three months suspended: those months are never billed, not even after reactivation', async () => {
    const api = await sandboxAt('2030-01-15T12:00:00.000Z');
    const sub = await subscribe(api, await createPlan(api), '2030-01-16');
    await advance(api, 45); // Mar 1: billed Jan 16 and Feb 16
    expect((await api.post(`/v1/recurrence_subscriptions/${sub.uuid}/suspend`)).body).toMatchObject({ status: 'suspended', suspended_at: '2030-03-01T12:00:00.000Z' });
    const during = await advance(api, 92); // Jun 1
    expect(during.billed).toEqual([]);
    expect(dueDates(await allInvoices(api, `subscription=${sub.uuid}`))).toEqual(['2030-01-16', '2030-02-16']);

    const back = await api.post(`/v1/recurrence_subscriptions/${sub.uuid}/reactivate`);
    expect(back.status).toBe(200);
    // The first date on the plan's calendar not before today (Jun 1).
    expect(back.body).toMatchObject({ status: 'active', suspended_at: null, due_date: '2030-06-16', due_since_date: '2030-02-16' });
    await advance(api, 80); // Aug 20
    expect(dueDates(await allInvoices(api, `subscription=${sub.uuid}`))).toEqual(['2030-01-16', '2030-02-16', '2030-06-16', '2030-07-16', '2030-08-16']);
  });

  it('suspended and reactivated within one period: the next due date stands', async () => {
    const api = await sandboxAt('2030-01-15T12:00:00.000Z');
    const sub = await subscribe(api, await createPlan(api), '2030-01-16');
    await advance(api, 5);
    await api.post(`/v1/recurrence_subscriptions/${sub.uuid}/suspend`);
    await advance(api, 10);
    expect(subscriptionIn(await api.post(`/v1/recurrence_subscriptions/${sub.uuid}/reactivate`)).due_date).toBe('2030-02-16');
  });

  it('a canceled subscription is never billed again', async () => {
    const api = await sandboxAt('2030-01-15T12:00:00.000Z');
    const sub = await subscribe(api, await createPlan(api), '2030-01-16');
    await advance(api, 5);
    await api.del(`/v1/recurrence_subscriptions/${sub.uuid}`);
    expect((await advance(api, 365)).billed).toEqual([]);
    expect(await allInvoices(api, `subscription=${sub.uuid}`)).toHaveLength(1);
  });
});

describe('the end of a subscription', () => {
  it('an expiration date ends billing; the subscription expires the day after it', async () => {
    const api = await sandboxAt('2030-01-15T12:00:00.000Z');
    const sub = await subscribe(api, await createPlan(api), '2030-01-16', { expiration_date: '2030-03-20' });
    const first = await advance(api, 64); // Mar 20
    expect(first.billed.map((b) => b.due_date)).toEqual(['2030-01-16', '2030-02-16', '2030-03-16']);
    expect(first.expired).toEqual([]);
    expect(subscriptionIn(await api.get(`/v1/recurrence_subscriptions/${sub.uuid}`)).status).toBe('active');
    const second = await advance(api, 200);
    expect(second).toMatchObject({ billed: [], expired: [sub.uuid] });
    expect((await api.get(`/v1/recurrence_subscriptions/${sub.uuid}`)).body).toMatchObject({ status: 'expired', due_since_date: '2030-03-16', updated_at: '2030-03-21T00:00:00.000Z' });
    expect(await allInvoices(api, `subscription=${sub.uuid}`)).toHaveLength(3);
  });

  it("the plan's duration: that many cycles, then expired when the next would have been due", async () => {
    const api = await sandboxAt('2030-01-15T12:00:00.000Z');
    const sub = await subscribe(api, await createPlan(api, { duration: 3 }), '2030-01-16');
    const moved = await advance(api, 365);
    expect(moved.billed.map((b) => b.due_date)).toEqual(['2030-01-16', '2030-02-16', '2030-03-16']);
    expect(moved.expired).toEqual([sub.uuid]);
    expect((await api.get(`/v1/recurrence_subscriptions/${sub.uuid}`)).body).toMatchObject({ status: 'expired', updated_at: '2030-04-16T00:00:00.000Z' });
  });

  it('a suspended subscription still expires on its expiration date', async () => {
    const api = await sandboxAt('2030-01-15T12:00:00.000Z');
    const sub = await subscribe(api, await createPlan(api), '2030-01-16', { expiration_date: '2030-02-01' });
    await advance(api, 2);
    await api.post(`/v1/recurrence_subscriptions/${sub.uuid}/suspend`);
    expect((await advance(api, 30)).expired).toEqual([sub.uuid]);
  });
});

describe('declines', () => {
  it('the declining test card gives failed invoices and failed transactions, and billing goes on', async () => {
    const api = await sandboxAt('2030-01-15T12:00:00.000Z');
    const { buyer, card } = await buyerWithCard(api, DECLINED);
    const sub = await subscribe(api, await createPlan(api), '2030-01-16', { customer: buyer.id, card: card.id });
    const moved = await advance(api, 40);
    expect(moved.billed.map((b) => [b.due_date, b.status])).toEqual([
      ['2030-01-16', 'failed'],
      ['2030-02-16', 'failed'],
    ]);
    const invoices = await allInvoices(api, `subscription=${sub.uuid}`);
    expect(invoices.map((i) => [i.status, i.retries, i.paid_at])).toEqual([
      ['failed', 1, null],
      ['failed', 1, null],
    ]);
    for (const invoice of invoices) {
      const txn = transactionIn(await api.get(`/v1/transactions/${invoice.transaction}`));
      expect(txn).toMatchObject({ status: 'failed', metadata: { invoice: invoice.id } });
    }
    expect(expectAnswer(await api.get(`/v1/invoices?status=failed&customer=${buyer.id}`), 200, countedPageOf(invoiceStrict)).total).toBe(2);
    expect((await api.get(`/v1/recurrence_subscriptions/${sub.uuid}`)).body).toMatchObject({ status: 'active', due_since_date: '2030-02-16' });
  });

  it('a card removed since is a failed billing without a transaction', async () => {
    const api = await sandboxAt('2030-01-15T12:00:00.000Z');
    const { buyer, card } = await buyerWithCard(api, VISA);
    const sub = await subscribe(api, await createPlan(api), '2030-01-16', { customer: buyer.id, card: card.id });
    expect((await api.del(`/v1/cards/${card.id}`)).status).toBe(200);
    const moved = await advance(api, 3);
    expect(moved.billed.map((b) => b.status)).toEqual(['failed']);
    expect((await allInvoices(api, `subscription=${sub.uuid}`))[0]).toMatchObject({ status: 'failed', retries: 1, transaction: null });
  });
});

describe('boleto subscriptions', () => {
  it('each due date issues a pending boleto invoice; paying the boleto pays the invoice, once', async () => {
    const api = await sandboxAt('2030-01-15T12:00:00.000Z');
    const plan = await createPlan(api, { payment_methods: ['boleto'], description: 'Mensal por boleto' });
    const sub = await subscribe(api, plan, '2030-01-16', { payment_method: 'boleto' });
    expect(sub).toMatchObject({ payment_method: 'boleto', card: null, description: 'Mensal por boleto', due_since_date: '2030-01-16' });

    const first = await advance(api, 1);
    expect(first.billed.map((b) => [b.due_date, b.status])).toEqual([['2030-01-16', 'pending']]);
    const invoice = nth(await allInvoices(api, `subscription=${sub.uuid}`), 0);
    expectInvoiceShape(invoice);
    expect(invoice).toMatchObject({ payment_method: 'boleto', status: 'pending', paid_at: null, amount: 2990, due_date: '2030-01-16', description: 'Mensal por boleto' });
    expect(invoice.transaction).toMatch(HEX32);

    // The boleto is an ordinary boleto transaction, made as POST /transactions makes one.
    const boleto = transactionIn(await api.get(`/v1/transactions/${invoice.transaction}`));
    expectTransactionShape(boleto);
    expect(boleto).toMatchObject({
      payment_type: 'boleto',
      status: 'pending',
      amount: '29.90',
      currency: 'BRL',
      customer: SANDBOX_BUYER_ID,
      on_behalf_of: SANDBOX_SELLER_ID,
      description: `Subscription ${sub.uuid}`,
      metadata: { invoice: invoice.id, subscription: sub.uuid },
    });
    expect(boleto.payment_method).toMatchObject({ resource: 'boleto', expiration_date: '2030-01-16', status: 'not_paid' });
    expect((await api.get(`/v1/recurrence_subscriptions/${sub.uuid}`)).body).toMatchObject({ due_since_date: '2030-01-16', due_date: '2030-02-16' });

    // Advancing again bills nothing new; the unpaid invoice turns over-due the day after its due date.
    const again = await advance(api, 1);
    expect(again).toMatchObject({ billed: [], overdue: [invoice.id] });
    expect(await allInvoices(api, `subscription=${sub.uuid}`)).toHaveLength(1);
    expect(await transactionsOf(api, sub.uuid)).toHaveLength(1);

    expect(transactionIn(await api.post(`/v1/transactions/${invoice.transaction}/approve`, {})).status).toBe('succeeded');
    const after = (await api.get(`/v1/invoices/${invoice.id}`)).body;
    expect(after).toMatchObject({ status: 'paid', paid_at: '2030-01-17T12:00:00.000Z', transaction: invoice.transaction });
    // Paying twice is refused, and the invoice is not paid twice.
    expectError(await api.post(`/v1/transactions/${invoice.transaction}/approve`, {}), 400, 'approve_transaction_error');
    expect((await api.get(`/v1/invoices/${invoice.id}`)).body).toEqual(after);
    // The same event a card invoice's payment raises.
    const events = expectAnswer(await api.get('/v1/events?type=invoice.paid'), 200, pageOf(eventStrict));
    expect(events.items.map((e) => z.parse(invoiceStrict, e.payload.object).id)).toEqual([invoice.id]);

    // The next cycle issues the next boleto.
    const next = await advance(api, 31);
    expect(next.billed.map((b) => [b.due_date, b.status])).toEqual([['2030-02-16', 'pending']]);
    const invoices = await allInvoices(api, `subscription=${sub.uuid}`);
    // Issued on Feb 16 and over-due on Feb 17, both within this one advance.
    expect(next.overdue).toEqual([invoices[1]?.id]);
    expect(invoices.map((i) => [i.due_date, i.status])).toEqual([['2030-01-16', 'paid'], ['2030-02-16', 'over-due']]);
    expect(nth(invoices, 1).transaction).not.toBe(invoice.transaction);
    const txns = await transactionsOf(api, sub.uuid);
    expect(txns.map((t) => [t.payment_type, t.status])).toEqual([['boleto', 'succeeded'], ['boleto', 'pending']]);
  });

  it('approve and refund are refused for a boleto invoice; remove withdraws its boleto', async () => {
    const api = await sandboxAt('2030-01-15T12:00:00.000Z');
    const plan = await createPlan(api, { payment_methods: ['credit', 'boleto'] });
    const sub = await subscribe(api, plan, '2030-01-16', { payment_method: 'boleto' });
    await advance(api, 1);
    const pending = nth(await allInvoices(api, `subscription=${sub.uuid}`), 0);
    const refused = await api.post(`/v1/invoices/${pending.id}/approve`, {});
    expect(expectError(refused, 400, 'invoice_paid_by_boleto').message).toContain(pending.transaction);

    expect(expectAnswer(await api.del(`/v1/invoices/${pending.id}`), 200, invoiceStrict).status).toBe('canceled');
    expect((await api.get(`/v1/transactions/${pending.transaction}`)).body).toMatchObject({ status: 'canceled', payment_method: { status: 'canceled' } });
    expectError(await api.post(`/v1/transactions/${pending.transaction}/approve`, {}), 400, 'approve_transaction_error');

    await advance(api, 31);
    const second = nth(await allInvoices(api, `subscription=${sub.uuid}`), 1);
    await api.post(`/v1/transactions/${second.transaction}/approve`, {});
    expectError(await api.del(`/v1/invoices/${second.id}/void`), 400, 'invoice_paid_by_boleto');
    expect(expectAnswer(await api.get(`/v1/invoices/${second.id}`), 200, invoiceStrict).status).toBe('paid');
  });

  it('a subscription changed from credit to boleto bills its next due date by boleto', async () => {
    const api = await sandboxAt('2030-01-15T12:00:00.000Z');
    const plan = await createPlan(api, { payment_methods: ['credit', 'boleto'] });
    const sub = await subscribe(api, plan, '2030-01-16');
    await advance(api, 1);
    const changed = await api.put(`/v1/recurrence_subscriptions/${sub.uuid}`, { payment_method: 'boleto' });
    expect(changed.body).toMatchObject({ payment_method: 'boleto', card: null, due_date: '2030-02-16' });
    await advance(api, 31);
    const invoices = await allInvoices(api, `subscription=${sub.uuid}`);
    expect(invoices.map((i) => [i.payment_method, i.status])).toEqual([['credit', 'paid'], ['boleto', 'pending']]);
  });
});

describe('exactly once', () => {
  it('a due date recorded as billed is never billed again, even when the state says it is due', async () => {
    const fresh = await pinnedSandbox('2030-01-15T12:00:00.000Z');
    opened.push(fresh);
    const { api } = fresh;
    const sub = await subscribe(api, await createPlan(api), '2030-01-16');
    await advance(api, 5); // billed Jan 16; next Feb 16
    // As if a writer had saved a stale schedule: the next due date back on the billed one.
    const state = await readStateFile(fresh.dir);
    const stored = state.subscriptions[sub.uuid];
    if (stored === undefined) throw new Error(`the state holds no subscription ${sub.uuid}`);
    expect(stored.billed).toEqual(['2030-01-16']);
    stored.sub.due_date = '2030-01-16';
    stored.step = 0;
    await replaceState(fresh.dir, state);
    await advance(api, 30);
    expect(dueDates(await allInvoices(api, `subscription=${sub.uuid}`))).toEqual(['2030-01-16', '2030-02-16']);
  });
});
