import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { SANDBOX_BUYER_ID, SANDBOX_CARD_ID, SANDBOX_MARKETPLACE_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { cardStrict } from '../../src/provider/schemas/cards.js';
import { resourceSchemas } from '../../src/provider/schemas/index.js';
import { buyerStrict } from '../../src/provider/schemas/parties.js';
import { subscriptionStrict } from '../../src/provider/schemas/recurrence.js';
import { countedPageOf, expectAnswer, expectError, HEX32, ISO_MS, nextCpf, pageOf, VISA, type Client, type Reply } from './helpers.js';
import { advance, buyerWithCard, createPlan, pinnedSandbox, subscribe, subscriptionBody, type Pinned, type Plan, type Subscription } from './recurrence-helpers.js';

// Subscriptions: create with seed 4.3's body, read, list, partial update, suspend, reactivate and
// remove, with every refusal the sandbox answers. Billing itself is recurrence-billing.test.ts.

let fresh: Pinned;
let api: Client;
let plan: Plan;
const NOW = '2030-05-20T10:00:00.000Z';
const TODAY = '2030-05-20';
const ZERO = '0'.repeat(32);

beforeAll(async () => {
  fresh = await pinnedSandbox(NOW);
  api = fresh.api;
  plan = await createPlan(api, { amount: 4990 });
});
afterAll(async () => {
  await fresh.close();
});

/** A subscription answer of this status, read with its strict schema. */
function subscriptionIn(reply: Reply, status = 200): Subscription {
  return expectAnswer(reply, status, subscriptionStrict);
}

/** The uuids of the subscriptions a list answers, in its order. */
function uuidsIn(reply: Reply): string[] {
  return expectAnswer(reply, 200, pageOf(subscriptionStrict)).items.map((s) => s.uuid);
}

/** Seed 2.6: every field, with its type. */
function expectSubscriptionShape(answer: unknown): void {
  const sub = z.parse(subscriptionStrict, answer);
  expect(sub.uuid).toMatch(HEX32);
  expect(sub.resource).toBe('subscription');
  for (const key of ['plan', 'on_behalf_of', 'customer', 'description', 'payment_method', 'currency', 'status', 'uri', 'created_at', 'updated_at'] as const) {
    expect(typeof sub[key], key).toBe('string');
  }
  expect(['credit', 'boleto']).toContain(sub.payment_method);
  // A boleto subscription has no card: the one null the real service sends for it.
  if (sub.payment_method === 'boleto') expect(sub.card).toBeNull();
  else expect(typeof sub.card).toBe('string');
  expect(typeof sub.amount).toBe('number');
  expect(Number.isInteger(sub.amount)).toBe(true);
  expect(sub.due_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(sub.due_since_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(sub).toHaveProperty('expiration_date');
  expect(sub.expiration_date === null || /^\d{4}-\d{2}-\d{2}$/.test(sub.expiration_date)).toBe(true);
  expect(sub).toHaveProperty('suspended_at');
  expect(sub.suspended_at === null || ISO_MS.test(sub.suspended_at)).toBe(true);
  expect(sub.created_at).toMatch(ISO_MS);
  expect(sub.uri).toBe(`/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}/recurrence_subscriptions/${sub.uuid}`);
}

describe('POST /recurrence_subscriptions', () => {
  it("answers 201 with seed 2.6's fields for seed 4.3's body plus on_behalf_of", async () => {
    const reply = await api.post('/v1/recurrence_subscriptions', {
      plan: plan.uuid,
      customer: SANDBOX_BUYER_ID,
      payment_method: 'credit',
      due_date: '2030-05-21',
      expiration_date: '2031-05-21',
      amount: 3990,
      currency: 'BRL',
      card: SANDBOX_CARD_ID,
      on_behalf_of: SANDBOX_SELLER_ID,
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expectSubscriptionShape(reply.body);
    expect(reply.body).toMatchObject({
      plan: plan.uuid,
      customer: SANDBOX_BUYER_ID,
      on_behalf_of: SANDBOX_SELLER_ID,
      payment_method: 'credit',
      due_date: '2030-05-21',
      // Not billed yet: the cycle it is in starts on its first due date.
      due_since_date: '2030-05-21',
      expiration_date: '2031-05-21',
      amount: 3990,
      currency: 'BRL',
      card: SANDBOX_CARD_ID,
      status: 'active',
      suspended_at: null,
      // Left out: the plan's description, else its name.
      description: 'Plano Mensal',
      created_at: NOW,
    });
  });

  it("takes the plan's amount and the buyer's default card when left out; due today is allowed", async () => {
    const body: Record<string, unknown> = subscriptionBody(plan, TODAY);
    delete body.amount;
    const reply = await api.post(`/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}/recurrence_subscriptions`, body);
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body).toMatchObject({ amount: 4990, card: SANDBOX_CARD_ID, due_date: TODAY });
  });

  it('accepts the provider\'s date-time form of expiration_date and keeps its date', async () => {
    const sub = await subscribe(api, plan, '2030-06-01', { expiration_date: '2030-12-31 00:00:00+00:00' });
    expect(sub.expiration_date).toBe('2030-12-31');
  });

  it.each([
    ['plan', { plan: undefined }],
    ['customer', { customer: undefined }],
    ['on_behalf_of', { on_behalf_of: undefined }],
    ['due_date', { due_date: undefined }],
    ['due_date', { due_date: '2030-02-30' }],
    ['due_date', { due_date: '20/05/2030' }],
    ['due_date', { due_date: '2030-05-19' }],
    ['expiration_date', { expiration_date: '2030-05-25' }],
    ['expiration_date', { expiration_date: '2030-05-20' }],
    ['expiration_date', { expiration_date: 'soon' }],
    ['amount', { amount: 0 }],
    ['amount', { amount: 12.5 }],
    ['currency', { currency: 'BR' }],
    ['payment_method', { payment_method: 'pix' }],
    ['card', { payment_method: 'boleto', card: SANDBOX_CARD_ID }],
  ])('refuses a bad %s with 400', async (field, override) => {
    const reply = await api.post('/v1/recurrence_subscriptions', subscriptionBody(plan, '2030-05-25', override));
    const { reasons = [] } = expectError(reply, 400, 'invalid_parameter');
    expect(reasons.some((r) => r.startsWith(`${field}:`)), JSON.stringify(reply.body)).toBe(true);
  });

  it('answers 404 for an unknown plan, customer, card or seller', async () => {
    for (const [override, kind] of [
      [{ plan: ZERO }, 'plan'],
      [{ customer: ZERO }, 'customer'],
      [{ card: ZERO }, 'card'],
      [{ on_behalf_of: ZERO }, 'seller'],
    ] as const) {
      const reply = await api.post('/v1/recurrence_subscriptions', subscriptionBody(plan, '2030-05-25', override));
      expect(expectError(reply, 404, 'resource_not_found').message).toContain(`the ${kind} (id: ${ZERO})`);
    }
  });

  it("refuses another buyer's card (400 card_not_owned), and a buyer without any card (400)", async () => {
    const other = await buyerWithCard(api, VISA);
    expectError(await api.post('/v1/recurrence_subscriptions', subscriptionBody(plan, '2030-05-25', { card: other.card.id })), 400, 'card_not_owned');
    const cardless = expectAnswer(await api.post('/v1/buyers', { first_name: 'Sem', last_name: 'Cartão', taxpayer_id: nextCpf() }), 201, buyerStrict);
    const reply = await api.post('/v1/recurrence_subscriptions', subscriptionBody(plan, '2030-05-25', { customer: cardless.id }));
    expect(expectError(reply, 400, 'invalid_parameter').reasons).toEqual(['card: is required (the customer has no default card)']);
  });
});

describe('GET /recurrence_subscriptions', () => {
  it('gets one by uuid and lists them, filtered by customer, plan and status', async () => {
    const other = await buyerWithCard(api, VISA);
    const otherPlan = await createPlan(api, { name: 'Outro' });
    const mine = await subscribe(api, otherPlan, '2030-06-01');
    const theirs = await subscribe(api, otherPlan, '2030-06-01', { customer: other.buyer.id, card: other.card.id });
    expect((await api.get(`/v1/recurrence_subscriptions/${mine.uuid}`)).body).toEqual(mine);
    expectError(await api.get(`/v1/recurrence_subscriptions/${ZERO}`), 404, 'resource_not_found');

    const byPlan = await api.get(`/v1/recurrence_subscriptions?plan=${otherPlan.uuid}`);
    expect(byPlan.body).toMatchObject({ resource: 'list', total: 2 });
    expect(uuidsIn(byPlan)).toEqual([theirs.uuid, mine.uuid]);
    const byCustomer = await api.get(`/v1/recurrence_subscriptions?customer=${other.buyer.id}`);
    expect(uuidsIn(byCustomer)).toEqual([theirs.uuid]);
    await api.post(`/v1/recurrence_subscriptions/${theirs.uuid}/suspend`);
    const suspended = await api.get(`/v1/recurrence_subscriptions?plan=${otherPlan.uuid}&status=suspended`);
    expect(uuidsIn(suspended)).toEqual([theirs.uuid]);
    const both = await api.get(`/v1/recurrence_subscriptions?plan=${otherPlan.uuid}&status=active,suspended`);
    expect(expectAnswer(both, 200, countedPageOf(subscriptionStrict)).total).toBe(2);
  });

  it('filters by the next due date as written (due_date[gte|gt|lte|lt])', async () => {
    const dated = await createPlan(api, { name: 'Datas' });
    const june = await subscribe(api, dated, '2030-06-30');
    const july = await subscribe(api, dated, '2030-07-01');
    const due = async (query: string) => uuidsIn(await api.get(`/v1/recurrence_subscriptions?plan=${dated.uuid}&${query}`));
    expect(await due('due_date[gte]=2030-06-01&due_date[lte]=2030-06-30')).toEqual([june.uuid]);
    expect(await due('due_date[gt]=2030-06-30')).toEqual([july.uuid]);
    expect(await due('due_date[lt]=2030-07-02')).toEqual([july.uuid, june.uuid]);
  });
});

describe('PUT /recurrence_subscriptions/{uuid}', () => {
  it('changes amount, due date, expiration, card, plan and description, and answers 200', async () => {
    const sub = await subscribe(api, plan, '2030-06-01');
    const other = await createPlan(api, { name: 'Troca', frequency: 'weekly' });
    const token = expectAnswer(
      await api.post('/v1/cards/tokens', { card_number: VISA, holder_name: 'MARIA SILVA', expiration_month: '12', expiration_year: '2049', security_code: '123' }),
      200,
      resourceSchemas['card token'],
    );
    const card = expectAnswer(await api.post('/v1/cards', { token: token.id, customer: SANDBOX_BUYER_ID }), 200, cardStrict);
    fresh.setRealTime('2030-05-20T11:00:00.000Z');
    const reply = await api.put(`/v1/recurrence_subscriptions/${sub.uuid}`, {
      amount: 1234,
      due_date: '2030-06-05',
      expiration_date: '2030-09-01',
      card: card.id,
      plan: other.uuid,
      description: 'Assinatura trocada',
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({
      ...sub,
      amount: 1234,
      due_date: '2030-06-05',
      due_since_date: '2030-06-05',
      expiration_date: '2030-09-01',
      card: card.id,
      plan: other.uuid,
      description: 'Assinatura trocada',
      updated_at: '2030-05-20T11:00:00.000Z',
    });
    const cleared = await api.put(`/v1/recurrence_subscriptions/${sub.uuid}`, { expiration_date: null });
    expect(subscriptionIn(cleared).expiration_date).toBeNull();
  });

  it('makes the same checks as create', async () => {
    const sub = await subscribe(api, plan, '2030-06-01', { expiration_date: '2030-08-01' });
    const other = await buyerWithCard(api, VISA);
    const canceledPlan = await createPlan(api);
    await api.del(`/v1/recurrence_plans/${canceledPlan.uuid}`);
    const path = `/v1/recurrence_subscriptions/${sub.uuid}`;
    expectError(await api.put(path, { card: other.card.id }), 400, 'card_not_owned');
    expectError(await api.put(path, { card: ZERO }), 404, 'resource_not_found');
    expectError(await api.put(path, { plan: canceledPlan.uuid }), 400, 'plan_canceled');
    expectError(await api.put(path, { plan: ZERO }), 404, 'resource_not_found');
    expectError(await api.put(path, { due_date: '2030-05-01' }), 400, 'invalid_parameter');
    expectError(await api.put(path, { due_date: '2030-08-01' }), 400, 'invalid_parameter'); // not before its expiration
    expectError(await api.put(path, { expiration_date: '2030-06-01' }), 400, 'invalid_parameter');
    expectError(await api.put(path, { amount: -1 }), 400, 'invalid_parameter');
    expectError(await api.put(path, { customer: other.buyer.id }), 400, 'invalid_parameter');
    expectError(await api.put(path, {}), 400, 'invalid_parameter');
    expectError(await api.put(`/v1/recurrence_subscriptions/${ZERO}`, { amount: 100 }), 404, 'resource_not_found');
    expect((await api.get(path)).body).toEqual(sub);
  });

  it('refuses to move the next due date back onto a date already billed', async () => {
    const own = await pinnedSandbox(NOW);
    try {
      const ownPlan = await createPlan(own.api, { frequency: 'daily', interval: 7 });
      const sub = await subscribe(own.api, ownPlan, TODAY);
      await own.api.get('/v1/sandbox/clock'); // today's billing runs
      expect((await own.api.get(`/v1/recurrence_subscriptions/${sub.uuid}`)).body).toMatchObject({ due_since_date: TODAY, due_date: '2030-05-27' });
      const reply = await own.api.put(`/v1/recurrence_subscriptions/${sub.uuid}`, { due_date: TODAY });
      expect(expectError(reply, 400, 'invalid_parameter').reasons).toEqual([`due_date: ${TODAY} was already billed; give a later date`]);
    } finally {
      await own.close();
    }
  });
});

describe('payment_method boleto', () => {
  it('a plan that lists boleto takes boleto subscriptions, with no card; one that does not answers 400', async () => {
    const both = await createPlan(api, { name: 'Boleto ou cartão', description: 'Mensal por boleto', payment_methods: ['credit', 'boleto'] });
    expect(both.payment_methods).toEqual(['credit', 'boleto']);
    const sub = await subscribe(api, both, '2030-06-01', { payment_method: 'boleto' });
    expectSubscriptionShape(sub);
    expect(sub).toMatchObject({ payment_method: 'boleto', card: null, description: 'Mensal por boleto', due_since_date: '2030-06-01', suspended_at: null, expiration_date: null });

    const refused = await api.post('/v1/recurrence_subscriptions', subscriptionBody(plan, '2030-06-01', { payment_method: 'boleto' }));
    expect(expectError(refused, 400, 'payment_method_not_accepted').message).toContain('it accepts credit');
    const boletoOnly = await createPlan(api, { payment_methods: ['boleto'] });
    expectError(await api.post('/v1/recurrence_subscriptions', subscriptionBody(boletoOnly, '2030-06-01')), 400, 'payment_method_not_accepted');
  });

  it('update: credit → boleto drops the card; boleto → credit takes the card sent or the buyer\'s default', async () => {
    const both = await createPlan(api, { payment_methods: ['credit', 'boleto'] });
    const sub = await subscribe(api, both, '2030-06-01');
    expect(sub).toMatchObject({ payment_method: 'credit', card: SANDBOX_CARD_ID });
    const path = `/v1/recurrence_subscriptions/${sub.uuid}`;
    const toBoleto = await api.put(path, { payment_method: 'boleto' });
    expect(toBoleto.status, JSON.stringify(toBoleto.body)).toBe(200);
    expect(toBoleto.body).toMatchObject({ payment_method: 'boleto', card: null });
    // A boleto subscription takes no card without going back to credit.
    expectError(await api.put(path, { card: SANDBOX_CARD_ID }), 400, 'invalid_parameter');
    const back = await api.put(path, { payment_method: 'credit' });
    expect(back.body).toMatchObject({ payment_method: 'credit', card: SANDBOX_CARD_ID });
    const other = await buyerWithCard(api, VISA);
    expectError(await api.put(path, { payment_method: 'credit', card: other.card.id }), 400, 'card_not_owned');
    // A new plan must accept the method the subscription keeps.
    await api.put(path, { payment_method: 'boleto' });
    expectError(await api.put(path, { plan: plan.uuid }), 400, 'payment_method_not_accepted');
    const swapped = await api.put(path, { plan: plan.uuid, payment_method: 'credit' });
    expect(swapped.body).toMatchObject({ plan: plan.uuid, payment_method: 'credit', card: SANDBOX_CARD_ID });
    expectError(await api.put(path, { payment_method: 'boleto' }), 400, 'payment_method_not_accepted');
  });

  it('boleto → credit with no card on file is refused, changing nothing', async () => {
    const both = await createPlan(api, { payment_methods: ['credit', 'boleto'] });
    const cardless = expectAnswer(await api.post('/v1/buyers', { first_name: 'Sem', last_name: 'Cartão', taxpayer_id: nextCpf() }), 201, buyerStrict);
    const sub = await subscribe(api, both, '2030-06-01', { customer: cardless.id, payment_method: 'boleto' });
    const reply = await api.put(`/v1/recurrence_subscriptions/${sub.uuid}`, { payment_method: 'credit' });
    expectError(reply, 400, 'invalid_parameter');
    expect((await api.get(`/v1/recurrence_subscriptions/${sub.uuid}`)).body).toMatchObject({ payment_method: 'boleto', card: null });
  });
});

describe('suspend, reactivate and remove', () => {
  it('suspend: active → suspended with suspended_at; a second suspend is 400 naming the status', async () => {
    const sub = await subscribe(api, plan, '2030-06-01');
    fresh.setRealTime('2030-05-20T12:30:00.000Z');
    const reply = await api.post(`/v1/recurrence_subscriptions/${sub.uuid}/suspend`);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ uuid: sub.uuid, status: 'suspended', suspended_at: '2030-05-20T12:30:00.000Z' });
    const again = await api.post(`/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}/recurrence_subscriptions/${sub.uuid}/suspend`);
    expect(expectError(again, 400, 'invalid_subscription_status').message).toContain('its status is suspended');
  });

  it('reactivate: suspended → active with suspended_at cleared; anything else is 400', async () => {
    const sub = await subscribe(api, plan, '2030-06-01');
    const active = await api.post(`/v1/recurrence_subscriptions/${sub.uuid}/reactivate`);
    expect(expectError(active, 400, 'invalid_subscription_status').message).toContain('its status is active');
    await api.post(`/v1/recurrence_subscriptions/${sub.uuid}/suspend`);
    const reply = await api.post(`/v1/recurrence_subscriptions/${sub.uuid}/reactivate`);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ status: 'active', suspended_at: null, due_date: '2030-06-01' });
  });

  it('remove: 200 with the subscription canceled; then suspend, reactivate, update and remove are 400', async () => {
    const sub = await subscribe(api, plan, '2030-06-01');
    await api.post(`/v1/recurrence_subscriptions/${sub.uuid}/suspend`);
    const removed = await api.del(`/v1/recurrence_subscriptions/${sub.uuid}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ uuid: sub.uuid, status: 'canceled' });
    expect(subscriptionIn(await api.get(`/v1/recurrence_subscriptions/${sub.uuid}`)).status).toBe('canceled');
    for (const reply of [
      await api.post(`/v1/recurrence_subscriptions/${sub.uuid}/suspend`),
      await api.post(`/v1/recurrence_subscriptions/${sub.uuid}/reactivate`),
      await api.put(`/v1/recurrence_subscriptions/${sub.uuid}`, { amount: 100 }),
      await api.del(`/v1/recurrence_subscriptions/${sub.uuid}`),
    ]) {
      expect(expectError(reply, 400, 'invalid_subscription_status').message).toContain('its status is canceled');
    }
    expectError(await api.post(`/v1/recurrence_subscriptions/${ZERO}/suspend`), 404, 'resource_not_found');
    expectError(await api.del(`/v1/recurrence_subscriptions/${ZERO}`), 404, 'resource_not_found');
  });

  it('an expired subscription cannot be suspended either', async () => {
    const own = await pinnedSandbox(NOW);
    try {
      const ownPlan = await createPlan(own.api, { duration: 1 });
      const sub = await subscribe(own.api, ownPlan, '2030-05-21');
      await advance(own.api, 40);
      expect(subscriptionIn(await own.api.get(`/v1/recurrence_subscriptions/${sub.uuid}`)).status).toBe('expired');
      const reply = await own.api.post(`/v1/recurrence_subscriptions/${sub.uuid}/suspend`);
      expect(expectError(reply, 400, 'invalid_subscription_status').message).toContain('its status is expired');
    } finally {
      await own.close();
    }
  });

  it('a buyer with a running subscription cannot be removed; once it is canceled, the block is gone', async () => {
    const { buyer, card } = await buyerWithCard(api, VISA);
    const sub = await subscribe(api, plan, '2030-06-01', { customer: buyer.id, card: card.id });
    expect((await api.del(`/v1/cards/${card.id}`)).status).toBe(200);
    const refused = await api.del(`/v1/buyers/${buyer.id}`);
    expect(expectError(refused, 409, 'buyer_has_dependents').reasons).toEqual([`subscription ${sub.uuid}`]);
    await api.del(`/v1/recurrence_subscriptions/${sub.uuid}`);
    expect((await api.del(`/v1/buyers/${buyer.id}`)).status).toBe(200);
  });
});
