// Shared by the recurrence and clock tests: a sandbox whose real-time clock the test holds (so
// calendars such as Jan 31 are chosen, not whatever today is), and short ways to make plans,
// cards and subscriptions and to read what billing produced.
import * as z from 'zod/mini';
import { SANDBOX_BUYER_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { cardStrict } from '../../src/provider/schemas/cards.js';
import { resourceSchemas } from '../../src/provider/schemas/index.js';
import { buyerStrict } from '../../src/provider/schemas/parties.js';
import { invoiceStrict, planStrict, subscriptionStrict } from '../../src/provider/schemas/recurrence.js';
import { cardData, expectAnswer, expectServed, freshSandbox, nextCpf, pageOf, type Client, type Fresh } from './helpers.js';

export const DAY_MS = 86_400_000;

export type Plan = z.infer<typeof planStrict>;
export type Subscription = z.infer<typeof subscriptionStrict>;
export type Invoice = z.infer<typeof invoiceStrict>;

/** What the clock's advance answers: the new time and what the catch-up it ran did. */
/** The sandbox's clock as served: the time it reads and how far it runs ahead of real time. */
const clockAnswer = z.strictObject({ now: z.string(), offset_seconds: z.number() });

export const clockAdvance = z.looseObject({
  ...clockAnswer.shape,
  billed: z.array(z.looseObject({ invoice: z.string(), subscription: z.string(), due_date: z.string(), status: z.string() })),
  expired: z.array(z.string()),
  overdue: z.array(z.string()),
  transfers: z.array(z.string()),
});

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

/** The sandbox's clock as GET /sandbox/clock serves it. */
export async function clockOf(api: Client): Promise<z.infer<typeof clockAnswer>> {
  return expectAnswer(await api.get('/v1/sandbox/clock'), 200, clockAnswer);
}

export async function sandboxToday(api: Client): Promise<string> {
  return (await clockOf(api)).now.slice(0, 10);
}

/** The body the provider's PUT requires, taken from a plan as served, with changes applied. */
export function wholePlan(plan: Plan, changes: Record<string, unknown> = {}): Record<string, unknown> {
  const { name, frequency, interval, payment_methods, currency } = plan;
  return { name, frequency, interval, payment_methods, currency, ...changes };
}

export async function createPlan(api: Client, overrides: Record<string, unknown> = {}): Promise<Plan> {
  const reply = await api.post('/v1/recurrence_plans/', {
    name: 'Plano Mensal',
    frequency: 'monthly',
    interval: 1,
    payment_methods: ['credit'],
    currency: 'BRL',
    amount: 2990,
    ...overrides,
  });
  return expectServed(reply, 201, planStrict);
}

export function subscriptionBody(plan: Plan, dueDate: string, overrides: Record<string, unknown> = {}) {
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

export async function subscribe(api: Client, plan: Plan, dueDate: string, overrides: Record<string, unknown> = {}): Promise<Subscription> {
  return expectServed(await api.post('/v1/recurrence_subscriptions', subscriptionBody(plan, dueDate, overrides)), 201, subscriptionStrict);
}

export async function advance(api: Client, days: number): Promise<z.infer<typeof clockAdvance>> {
  return expectServed(await api.post('/v1/sandbox/clock/advance', { days }), 200, clockAdvance);
}

/** Every invoice matching the query, oldest first, through as many pages as it takes. */
export async function allInvoices(api: Client, query: string): Promise<Invoice[]> {
  const out: Invoice[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = expectServed(await api.get(`/v1/invoices?${query}&sort=time-ascending&limit=100&offset=${offset}`), 200, pageOf(invoiceStrict));
    out.push(...page.items);
    if (!page.has_more) return out;
  }
}

/** A buyer of its own with one card on file (the declining test card, if asked), far from expiry. */
export async function buyerWithCard(api: Client, cardNumber: string): Promise<{ buyer: z.infer<typeof buyerStrict>; card: z.infer<typeof cardStrict> }> {
  const buyer = expectServed(await api.post('/v1/buyers', { first_name: 'Carla', last_name: 'Souza', taxpayer_id: nextCpf(), email: 'carla@example.com' }), 201, buyerStrict);
  const token = expectAnswer(await api.post('/v1/cards/tokens', cardData(cardNumber, { expiration_year: '2049' })), 200, resourceSchemas['card token']);
  const card = expectServed(await api.post('/v1/cards', { token: token.id, customer: buyer.id }), 200, cardStrict);
  return { buyer, card };
}
