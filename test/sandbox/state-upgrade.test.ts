import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_BUYER_ID, SANDBOX_CARD_ID, SANDBOX_SELLER_ID } from '../../src/sandbox/index.js';
import { readStateFiles, replaceState, wipeState } from '../../src/sandbox/store.js';
import { freshSandbox, readStateFile, type Fresh, type Json } from './helpers.js';

// A state file written before buyers, sources, receipts, receivables and recurrence existed, and
// before boletos carried all their fields, must keep working: users should not lose their sandbox
// to an upgrade.

let fresh: Fresh;

beforeAll(async () => {
  fresh = await freshSandbox();
  expect((await fresh.api.get('/v1/transactions')).status).toBe(200); // seeds
  for (const payment_type of ['boleto', 'bolepix']) {
    const made = await fresh.api.post('/v1/transactions', { payment_type, on_behalf_of: SANDBOX_SELLER_ID, customer: SANDBOX_BUYER_ID, amount: 2500, currency: 'BRL' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
  }
  const state: Json = await readStateFile(fresh.dir);
  // Boletos as they were stored before every sale had a number, a receipt and an expected payday,
  // and before a bolepix carried seed 2.2's fields and its QR image.
  for (const { txn } of state.transactions) {
    Object.assign(txn, { transaction_number: null, sales_receipt: null, expected_on: null });
    if (txn.payment_type !== 'bolepix') continue;
    for (const key of ['service_boleto_id', 'description', 'reference_number', 'address', 'sequence', 'expiration_date', 'payment_limit_date', 'base64']) {
      delete txn.payment_method[key];
    }
  }
  // Put it back the way the previous version wrote it.
  delete state.sources;
  delete state.receivables;
  delete state.deliveries;
  delete state.plans;
  delete state.subscriptions;
  delete state.invoices;
  delete state.clock;
  delete state.seller.taxpayer_id;
  delete state.seller.address;
  delete state.cards[SANDBOX_CARD_ID].first6;
  const buyer = state.buyers[SANDBOX_BUYER_ID];
  buyer.default_credit_card = buyer.default_credit;
  delete buyer.default_credit;
  delete buyer.description;
  delete buyer.metadata;
  // The earlier single JSON file, with none of the snapshot files beside it.
  await wipeState(fresh.dir);
  await writeFile(path.join(fresh.dir, 'sandbox', 'state.json'), JSON.stringify(state));
});
afterAll(async () => {
  await fresh.close();
});

describe('a state file from before this version', () => {
  it("keeps the buyer's card on file as default_credit and serves the new resources", async () => {
    const { api } = fresh;
    const buyer = await api.get(`/v1/buyers/${SANDBOX_BUYER_ID}`);
    expect(buyer.body).toMatchObject({ default_credit: SANDBOX_CARD_ID, description: null, metadata: {} });
    expect(buyer.body).not.toHaveProperty('default_credit_card');

    const txn = await api.post('/v1/transactions', { payment_type: 'credit', on_behalf_of: SANDBOX_SELLER_ID, customer: SANDBOX_BUYER_ID, amount: 1000, currency: 'BRL' });
    expect(txn.status, JSON.stringify(txn.body)).toBe(201);
    expect((await api.get(`/v1/transactions/${txn.body.id}/receivables`)).body.total).toBe(1);

    const receipt = await api.get(`/v1/receipts/${txn.body.sales_receipt}`);
    expect(receipt.status).toBe(200);
    // The old card record never kept its BIN; the seller got its documents.
    expect(receipt.body.card).toEqual({ card_brand: 'Visa', first4_digits: '4111', first6_digits: null });
    expect(receipt.body.taxpayer_id).toMatch(/^\d{14}$/);

    expect((await api.post('/v1/sources', { usage: 'reusable', currency: 'BRL', type: 'card', customer: SANDBOX_BUYER_ID })).status).toBe(201);
    expect((await api.post(`/v1/receipts/${txn.body.sales_receipt}/emails`, { to: 'a@example.com' })).status).toBe(200);
  });

  it('serves boletos stored before they had a number, a receipt and an expected payday, with those null until paid', async () => {
    const { api } = fresh;
    const listed = (await api.get('/v1/transactions?limit=100')).body.items.filter((t: Json) => t.payment_type === 'boleto' || t.payment_type === 'bolepix');
    expect(listed.map((t: Json) => t.payment_type).sort()).toEqual(['bolepix', 'boleto']);
    for (const old of listed) {
      expect(old).toMatchObject({ status: 'pending', transaction_number: null, sales_receipt: null, expected_on: null });
      expect((await api.get(`/v1/boletos/${old.payment_method.id}`)).status).toBe(200);
      const paid = await api.post(`/v1/transactions/${old.id}/approve`);
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      expect(paid.body.expected_on).toMatch(/T00:00:00\.000Z$/);
      expect((await api.get(`/v1/receipts/${paid.body.sales_receipt}`)).body.status).toBe('approved');
    }
    expect(listed.find((t: Json) => t.payment_type === 'bolepix').payment_method).not.toHaveProperty('base64');
  });

  it('starts the sandbox clock with no offset and serves plans, subscriptions and invoices', async () => {
    const { api } = fresh;
    const clock = await api.get('/v1/sandbox/clock');
    expect(clock.body.offset_seconds).toBe(0);
    const plan = await api.post('/v1/recurrence_plans/', { name: 'Mensal', frequency: 'monthly', interval: 1, payment_methods: ['credit'], currency: 'BRL', amount: 990 });
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    const today = String(clock.body.now).slice(0, 10);
    const sub = await api.post('/v1/recurrence_subscriptions', { plan: plan.body.uuid, customer: SANDBOX_BUYER_ID, due_date: today, on_behalf_of: SANDBOX_SELLER_ID });
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    const advanced = await api.post('/v1/sandbox/clock/advance', { days: 1 });
    expect(advanced.body.billed.map((b: Json) => b.due_date)).toEqual([today]);
    expect((await api.get('/v1/invoices')).body.total).toBe(1);
  });

  it('keeps serving and billing a subscription stored before description and due_since_date were filled in', async () => {
    const { api } = fresh;
    const plan = await api.post('/v1/recurrence_plans/', { name: 'Antigo', frequency: 'monthly', interval: 1, payment_methods: ['credit'], currency: 'BRL', amount: 500 });
    const today = String((await api.get('/v1/sandbox/clock')).body.now).slice(0, 10);
    const due = new Date(Date.parse(`${today}T00:00:00Z`) + 2 * 86_400_000).toISOString().slice(0, 10);
    const sub = await api.post('/v1/recurrence_subscriptions', { plan: plan.body.uuid, customer: SANDBOX_BUYER_ID, due_date: due, on_behalf_of: SANDBOX_SELLER_ID });
    // As the previous version stored it.
    const state = (await readStateFiles(fresh.dir)) as Json;
    Object.assign(state.subscriptions[sub.body.uuid].sub, { description: null, due_since_date: null });
    await replaceState(fresh.dir, state);
    const old = await api.get(`/v1/recurrence_subscriptions/${sub.body.uuid}`);
    expect(old.body).toMatchObject({ payment_method: 'credit', card: SANDBOX_CARD_ID, description: null, due_since_date: null, due_date: due });
    await api.post('/v1/sandbox/clock/advance', { days: 3 });
    expect((await api.get(`/v1/recurrence_subscriptions/${sub.body.uuid}`)).body).toMatchObject({ due_since_date: due, status: 'active' });
    expect((await api.get(`/v1/invoices?subscription=${sub.body.uuid}`)).body.items.map((i: Json) => i.status)).toEqual(['paid']);
  });
});
