// Shared by the recurrence and clock tests: a sandbox whose real-time clock the test holds (so
// calendars such as Jan 31 are chosen, not whatever today is), and short ways to make plans,
// cards and subscriptions and to read what billing produced.
import { expect } from 'vitest';
import { SANDBOX_BUYER_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { cardData, freshSandbox, nextCpf, type Client, type Fresh, type Json } from './helpers.js';

export const DAY_MS = 86_400_000;

export interface Pinned extends Fresh {
  /** Moves the underlying "real" time, as if the wall clock had moved; the offset is untouched. */
  setRealTime(iso: string): void;
}

/** A fresh sandbox whose real time stands still at `iso` until the test moves it. */
export async function pinnedSandbox(iso: string): Promise<Pinned> {
  let at = Date.parse(iso);
  const fresh = await freshSandbox(() => new Date(at));
  return {
    ...fresh,
    setRealTime(next: string) {
      at = Date.parse(next);
    },
  };
}

/** The calendar date `n` days after the YYYY-MM-DD `date`. */
export function plusDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

export async function sandboxToday(api: Client): Promise<string> {
  const clock = await api.get('/v1/sandbox/clock');
  expect(clock.status).toBe(200);
  return String(clock.body.now).slice(0, 10);
}

/** The body the provider's PUT requires, taken from a plan as served, with changes applied. */
export function wholePlan(plan: Json, changes: Record<string, unknown> = {}): Record<string, unknown> {
  const { name, frequency, interval, payment_methods, currency } = plan;
  return { name, frequency, interval, payment_methods, currency, ...changes };
}

export async function createPlan(api: Client, overrides: Record<string, unknown> = {}): Promise<Json> {
  const reply = await api.post('/v1/recurrence_plans/', {
    name: 'Plano Mensal',
    frequency: 'monthly',
    interval: 1,
    payment_methods: ['credit'],
    currency: 'BRL',
    amount: 2990,
    ...overrides,
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
}

export function subscriptionBody(plan: Json, dueDate: string, overrides: Record<string, unknown> = {}) {
  return {
    plan: plan.uuid,
    customer: SANDBOX_BUYER_ID,
    payment_method: 'credit',
    due_date: dueDate,
    expiration_date: null,
    amount: plan.amount,
    currency: 'BRL',
    on_behalf_of: SANDBOX_SELLER_ID,
    ...overrides,
  };
}

export async function subscribe(api: Client, plan: Json, dueDate: string, overrides: Record<string, unknown> = {}): Promise<Json> {
  const reply = await api.post('/v1/recurrence_subscriptions', subscriptionBody(plan, dueDate, overrides));
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
}

export async function advance(api: Client, days: number): Promise<Json> {
  const reply = await api.post('/v1/sandbox/clock/advance', { days });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

/** Every invoice matching the query, oldest first, through as many pages as it takes. */
export async function allInvoices(api: Client, query: string): Promise<Json[]> {
  const out: Json[] = [];
  for (let offset = 0; ; offset += 100) {
    const reply = await api.get(`/v1/invoices?${query}&sort=time-ascending&limit=100&offset=${offset}`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    out.push(...reply.body.items);
    if (!reply.body.has_more) return out;
  }
}

/** A buyer of its own with one card on file (the declining test card, if asked), far from expiry. */
export async function buyerWithCard(api: Client, cardNumber: string): Promise<{ buyer: Json; card: Json }> {
  const buyer = await api.post('/v1/buyers', { first_name: 'Carla', last_name: 'Souza', taxpayer_id: nextCpf(), email: 'carla@example.com' });
  expect(buyer.status, JSON.stringify(buyer.body)).toBe(201);
  const token = await api.post('/v1/cards/tokens', cardData(cardNumber, { expiration_year: '2049' }));
  expect(token.status, JSON.stringify(token.body)).toBe(200);
  const card = await api.post('/v1/cards', { token: token.body.id, customer: buyer.body.id });
  expect(card.status, JSON.stringify(card.body)).toBe(200);
  return { buyer: buyer.body, card: card.body };
}
