import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_MARKETPLACE_ID } from '../../src/provider/sandbox-account.js';
import { planStrict, subscriptionStrict } from '../../src/provider/schemas/recurrence.js';
import { expectAnswer, expectError, HEX32, ISO_MS, pageOf, type Client, type Reply } from './helpers.js';
import { advance, allInvoices, createPlan, pinnedSandbox, subscribe, subscriptionBody, type Pinned, wholePlan } from './recurrence-helpers.js';

// Recurrence plans: create (with and without the provider's trailing slash), list, get, partial
// update, and removal, which cancels the plan instead of erasing it.

let fresh: Pinned;
let api: Client;
const PREFIX = `/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}`;

beforeAll(async () => {
  fresh = await pinnedSandbox('2030-03-10T12:00:00.000Z');
  api = fresh.api;
});
afterAll(async () => {
  await fresh.close();
});

/** The strict schema types every field (strings, integer cents and counts, null where there is none); the rest is their form. */
function expectPlanShape(reply: Reply, status: number): void {
  const plan = expectAnswer(reply, status, planStrict);
  expect(plan.uuid).toMatch(HEX32);
  expect(plan.resource).toBe('plan');
  expect(plan.created_at).toMatch(ISO_MS);
  expect(plan.uri).toBe(`/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}/recurrence_plans/${plan.uuid}`);
}

describe('POST /recurrence_plans', () => {
  it('answers 201 with every field typed, amounts as integer cents, on both spellings of the path', async () => {
    const reply = await api.post('/v1/recurrence_plans/', {
      name: 'Plano Anual',
      description: 'Cobrança anual',
      frequency: 'annually',
      interval: 1,
      payment_methods: ['credit'],
      currency: 'brl',
      amount: 29900,
      setup_amount: 1000,
      duration: 3,
      grace_period: 5,
      tolerance_period: 0,
      metadata: { origem: 'teste' },
    });
    expectPlanShape(reply, 201);
    expect(reply.body).toMatchObject({
      name: 'Plano Anual',
      description: 'Cobrança anual',
      frequency: 'annually',
      interval: 1,
      payment_methods: ['credit'],
      currency: 'BRL',
      amount: 29900,
      setup_amount: 1000,
      duration: 3,
      grace_period: 5,
      tolerance_period: 0,
      status: 'active',
      metadata: { origem: 'teste' },
      created_at: '2030-03-10T12:00:00.000Z',
    });

    const bare = await api.post('/v1/recurrence_plans', { name: 'Sem barra', frequency: 'weekly', interval: 2, payment_methods: ['credit'], currency: 'BRL', amount: 500 });
    expectPlanShape(bare, 201);
    expect(bare.body).toMatchObject({ setup_amount: 0, duration: null, grace_period: null, tolerance_period: null, description: null, metadata: {} });
    const prefixed = await api.post(`${PREFIX}/recurrence_plans/`, { name: 'Prefixo', frequency: 'daily', interval: 1, payment_methods: ['credit'], currency: 'BRL', amount: 100 });
    expectPlanShape(prefixed, 201);
  });

  it('names every missing required field in one 400', async () => {
    const reply = await api.post('/v1/recurrence_plans/', {});
    const fields = (expectError(reply, 400, 'invalid_parameter').reasons ?? []).map((r) => r.split(':')[0]);
    expect(fields).toEqual(expect.arrayContaining(['name', 'frequency', 'interval', 'payment_methods', 'currency', 'amount']));
  });

  it.each([
    ['frequency', { frequency: 'hourly' }],
    ['interval', { interval: 0 }],
    ['interval', { interval: 1.5 }],
    ['payment_methods', { payment_methods: [] }],
    ['payment_methods', { payment_methods: ['pix'] }],
    ['payment_methods', { payment_methods: ['credit', 'debit'] }],
    ['payment_methods', { payment_methods: 'credit' }],
    ['amount', { amount: 0 }],
    ['amount', { amount: 10.5 }],
    ['currency', { currency: 'R$' }],
    ['duration', { duration: 0 }],
    ['grace_period', { grace_period: -1 }],
    ['setup_amount', { setup_amount: -5 }],
    ['name', { name: '  ' }],
    ['frequence', { frequence: 'monthly' }],
  ])('refuses a bad %s with 400', async (field, override) => {
    const reply = await api.post('/v1/recurrence_plans/', { name: 'X', frequency: 'monthly', interval: 1, payment_methods: ['credit'], currency: 'BRL', amount: 100, ...override });
    const { reasons = [] } = expectError(reply, 400, 'invalid_parameter');
    expect(reasons.some((r) => r.startsWith(`${field}:`)), JSON.stringify(reply.body)).toBe(true);
  });
});

describe('GET /recurrence_plans', () => {
  it('lists plans in the list envelope, newest first, filtered by status, on both spellings', async () => {
    const a = await createPlan(api, { name: 'Lista A' });
    const b = await createPlan(api, { name: 'Lista B' });
    for (const path of ['/v1/recurrence_plans', '/v1/recurrence_plans/', `${PREFIX}/recurrence_plans/`]) {
      const reply = await api.get(`${path}?limit=2`);
      const page = expectAnswer(reply, 200, pageOf(planStrict));
      expect(reply.body).toMatchObject({ resource: 'list', limit: 2, offset: 0, has_more: true });
      expect(page.items.map((p) => p.uuid)).toEqual([b.uuid, a.uuid]);
    }
    await api.del(`/v1/recurrence_plans/${a.uuid}`);
    const canceled = expectAnswer(await api.get('/v1/recurrence_plans?status=canceled&limit=100'), 200, pageOf(planStrict));
    expect(canceled.items.map((p) => p.uuid)).toContain(a.uuid);
    expect(canceled.items.every((p) => p.status === 'canceled')).toBe(true);
  });

  it('gets one plan by uuid, and answers 404 for an unknown one', async () => {
    const plan = await createPlan(api);
    const got = await api.get(`/v1/recurrence_plans/${plan.uuid}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(plan);
    expectError(await api.get(`/v1/recurrence_plans/${'0'.repeat(32)}`), 404, 'resource_not_found');
    expectError(await api.put(`/v1/recurrence_plans/${'0'.repeat(32)}`, wholePlan(plan, { name: 'x' })), 404, 'resource_not_found');
    expectError(await api.del(`/v1/recurrence_plans/${'0'.repeat(32)}`), 404, 'resource_not_found');
  });
});

describe('PUT /recurrence_plans/{uuid}', () => {
  it('takes the whole plan, keeps what is left out, and answers 200 with the plan', async () => {
    const plan = await createPlan(api, { metadata: { a: '1', b: '2' } });
    fresh.setRealTime('2030-03-10T13:00:00.000Z');
    const reply = await api.put(`/v1/recurrence_plans/${plan.uuid}`, wholePlan(plan, { amount: 3490, description: 'Novo preço', metadata: { b: null, c: '3' } }));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({ ...plan, amount: 3490, description: 'Novo preço', metadata: { a: '1', c: '3' }, updated_at: '2030-03-10T13:00:00.000Z' });
    expect((await api.get(`/v1/recurrence_plans/${plan.uuid}`)).body).toEqual(reply.body);
  });

  it('checks what it is sent like create does, and refuses a partial or empty update', async () => {
    const plan = await createPlan(api);
    expectError(await api.put(`/v1/recurrence_plans/${plan.uuid}`, wholePlan(plan, { interval: 0 })), 400, 'invalid_parameter');
    expectError(await api.put(`/v1/recurrence_plans/${plan.uuid}`, wholePlan(plan, { payment_methods: ['pix'] })), 400, 'invalid_parameter');
    const partial = expectError(await api.put(`/v1/recurrence_plans/${plan.uuid}`, { amount: 3490 }), 400, 'invalid_parameter');
    for (const key of ['name', 'frequency', 'interval', 'payment_methods', 'currency']) expect((partial.reasons ?? []).join('\n')).toContain(`${key}: is required`);
    expectError(await api.put(`/v1/recurrence_plans/${plan.uuid}`, {}), 400, 'invalid_parameter');
    expect((await api.get(`/v1/recurrence_plans/${plan.uuid}`)).body).toEqual(plan);
  });
});

describe('DELETE /recurrence_plans/{uuid}', () => {
  it('cancels the plan, keeps it readable, and refuses new subscriptions (400 plan_canceled)', async () => {
    const plan = await createPlan(api);
    const today = '2030-03-10';
    const removed = await api.del(`/v1/recurrence_plans/${plan.uuid}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ uuid: plan.uuid, status: 'canceled' });
    expect(expectAnswer(await api.get(`/v1/recurrence_plans/${plan.uuid}`), 200, planStrict).status).toBe('canceled');

    const refused = await api.post('/v1/recurrence_subscriptions', subscriptionBody(plan, today));
    expectError(refused, 400, 'plan_canceled');
    expect(expectAnswer(await api.get(`/v1/recurrence_subscriptions?plan=${plan.uuid}`), 200, pageOf(subscriptionStrict)).total).toBe(0);
    expectError(await api.del(`/v1/recurrence_plans/${plan.uuid}`), 400, 'plan_canceled');
    expectError(await api.put(`/v1/recurrence_plans/${plan.uuid}`, wholePlan(plan, { amount: 100 })), 400, 'plan_canceled');
  });

  it("leaves the plan's running subscriptions billing on its calendar", async () => {
    const own = await pinnedSandbox('2030-03-10T12:00:00.000Z');
    try {
      const plan = await createPlan(own.api);
      const sub = await subscribe(own.api, plan, '2030-03-11');
      expect((await own.api.del(`/v1/recurrence_plans/${plan.uuid}`)).status).toBe(200);
      await advance(own.api, 40);
      const invoices = await allInvoices(own.api, `subscription=${sub.uuid}`);
      expect(invoices.map((i) => [i.due_date, i.status])).toEqual([
        ['2030-03-11', 'paid'],
        ['2030-04-11', 'paid'],
      ]);
    } finally {
      await own.close();
    }
  });
});
