import { createHmac } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { SANDBOX_BUYER_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { createdWebhookStrict, eventStrict, webhookStrict } from '../../src/provider/schemas/events.js';
import { buyerStrict } from '../../src/provider/schemas/parties.js';
import { planStrict, subscriptionStrict } from '../../src/provider/schemas/recurrence.js';
import { transactionStrict } from '../../src/provider/schemas/transaction.js';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { recordingServer, times, type RecordedRequest, type RecordingServer, type Reply } from '../helpers/recording-server.js';
import { client, directCardBody, expectAnswer, expectError, expectReasons, HEX32, ISO_MS, nextCpf, pageOf, VISA, type Client } from './helpers.js';
import { sandboxToday } from './recurrence-helpers.js';

// Webhooks and events in the sandbox: every state change is an event in the provider's delivery
// shape; deliveries go out signed, in order per webhook, retried until accepted or given up.

const FAST = { pollMs: 20, timeoutMs: 500, retryBaseMs: 60, retryMaxMs: 200, giveUpAfterMs: 1_500 };
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandbox(deliver: boolean | typeof FAST = FAST, dir?: string): Promise<{ api: Client; dir: string; handle: SandboxHandle }> {
  const stateDir = dir ?? (await mkdtemp(path.join(tmpdir(), 'payctl-webhooks-')));
  const handle = await startSandbox({ stateDir, deliver });
  cleanups.push(async () => {
    await handle.close();
    if (!dir) await rm(stateDir, { recursive: true, force: true });
  });
  return { api: client(handle.url), dir: stateDir, handle };
}

/** A webhook receiver answering `route`: `accepting(n)` for one that takes exactly n deliveries. */
async function receiver(route: Reply[] | ((req: RecordedRequest, i: number) => Reply)): Promise<RecordingServer> {
  const server = await recordingServer(route);
  cleanups.push(() => server.close());
  return server;
}

const accepting = (deliveries: number) => times(deliveries, { status: 200 });

async function register(api: Client, url: string, event: string[] = ['*']) {
  return expectAnswer(await api.post('/v1/webhooks', { method: 'POST', url: `${url}/hook`, description: 'test', event }), 201, createdWebhookStrict);
}

/** A sale made with the card `VISA` for `cents`, as the provider describes a sale. */
async function sell(api: Client, cents: number) {
  return expectAnswer(await api.post('/v1/transactions', directCardBody(VISA, cents)), 201, transactionStrict);
}

const eventsPage = pageOf(eventStrict);

/** A delivery's body, read as the provider describes an event. */
const eventOf = (req: RecordedRequest) => z.parse(eventStrict, JSON.parse(req.body));

/** The sale a transaction's event was delivered with. */
const saleOf = (req: RecordedRequest) => z.parse(transactionStrict, eventOf(req).payload.object);

async function until<T>(what: () => T | Promise<T>, ok: (v: T) => boolean, ms = 4_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await what();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The scheme as docs/webhooks.md tells an app to check it: `t=<unix s>,v1=<HMAC-SHA256 of "<t>.<raw body>">`, signed just now. */
function verify(secret: string, req: RecordedRequest): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(req.headers['x-payctl-signature']));
  if (!match) throw new Error(`X-Payctl-Signature not in the documented form: ${String(req.headers['x-payctl-signature'])}`);
  const [, t, v1] = match;
  expect(Math.abs(Date.now() / 1000 - Number(t))).toBeLessThan(30);
  return v1 === createHmac('sha256', secret).update(`${t}.${req.body}`).digest('hex');
}

describe('webhooks', () => {
  it('create answers 201 with events, status and, once, the secret; get and list never show it', async () => {
    const { api } = await sandbox(false);
    const created = await register(api, 'https://example.com', ['transaction.succeeded', 'invoice.paid']);
    expect(created).toMatchObject({ resource: 'webhook', method: 'POST', url: 'https://example.com/hook', description: 'test', events: ['transaction.succeeded', 'invoice.paid'], status: 'enabled' });
    expect(created.id).toMatch(HEX32);
    expect(created.secret).toMatch(/^whsec_[0-9a-f]{48}$/);
    const got = await api.get(`/v1/webhooks/${created.id}`);
    expect(got.body).not.toHaveProperty('secret');
    expectAnswer(got, 200, webhookStrict);
    expect(expectAnswer(await api.get('/v1/webhooks'), 200, pageOf(webhookStrict)).items.map((w) => w.id)).toEqual([created.id]);
    expect((await api.del(`/v1/webhooks/${created.id}`)).body).toEqual({ id: created.id, resource: 'webhook', deleted: true });
    expectError(await api.get(`/v1/webhooks/${created.id}`), 404, 'resource_not_found');
  });

  it('refuses a URL that is not https (http only to this machine), unknown event types and a description too long', async () => {
    const { api } = await sandbox(false);
    expectReasons(await api.post('/v1/webhooks', { url: 'http://example.com/hook', event: ['*'] }), ['url: must use https:// (plain http:// only to localhost or 127.0.0.1)']);
    expectError(await api.post('/v1/webhooks', { url: 'hook', event: ['*'] }), 400, 'invalid_parameter');
    const unknown = await api.post('/v1/webhooks', { url: 'https://example.com', event: ['transaction.exploded'] });
    expectReasons(unknown, ['event: unknown event type(s): transaction.exploded']);
    const long = await api.post('/v1/webhooks', { url: 'https://example.com', event: ['*'], description: 'd'.repeat(501) });
    expectReasons(long, ['description: must be at most 500 characters']);
    expect((await api.post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', event: ['*'] })).status).toBe(201);
  });
});

describe('events', () => {
  it('every state change is an event in the delivery shape: transactions, buyers, plans, subscriptions, invoices', async () => {
    const { api } = await sandbox(false);
    const txn = await sell(api, 5_000);
    await api.post(`/v1/transactions/${txn.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 1_000 });
    await api.post(`/v1/transactions/${txn.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 4_000 });
    const buyer = expectAnswer(await api.post('/v1/buyers', { first_name: 'Ana', last_name: 'Lima', taxpayer_id: nextCpf(), email: 'ana@example.com' }), 201, buyerStrict);
    await api.put(`/v1/buyers/${buyer.id}`, { email: 'ana.lima@example.com' });
    await api.del(`/v1/buyers/${buyer.id}`);
    const plan = expectAnswer(await api.post('/v1/recurrence_plans/', { name: 'Mensal', frequency: 'monthly', interval: 1, payment_methods: ['credit'], currency: 'BRL', amount: 990 }), 201, planStrict);
    const today = await sandboxToday(api);
    const sub = expectAnswer(await api.post('/v1/recurrence_subscriptions', { plan: plan.uuid, customer: SANDBOX_BUYER_ID, due_date: today, on_behalf_of: SANDBOX_SELLER_ID }), 201, subscriptionStrict);
    await api.post(`/v1/recurrence_subscriptions/${sub.uuid}/suspend`);
    await api.post(`/v1/recurrence_subscriptions/${sub.uuid}/reactivate`);
    await api.post('/v1/sandbox/clock/advance', { days: 1 });
    await api.del(`/v1/recurrence_plans/${plan.uuid}`);

    const events = expectAnswer(await api.get('/v1/events?limit=100&sort=time-ascending'), 200, eventsPage).items;
    const types = events.map((e) => e.type);
    expect(types.slice(0, 4)).toEqual(['transaction.created', 'transaction.succeeded', 'transaction.updated', 'transaction.canceled']);
    expect(types).toEqual(expect.arrayContaining(['buyer.created', 'buyer.updated', 'buyer.deleted', 'plan.created', 'plan.canceled']));
    expect(types).toEqual(expect.arrayContaining(['subscription.created', 'subscription.suspended', 'subscription.reactivated', 'subscription.updated']));
    expect(types).toEqual(expect.arrayContaining(['invoice.created', 'invoice.paid']));
    for (const event of events) {
      expect(Object.keys(event).sort()).toEqual(['created_at', 'id', 'payload', 'resource', 'type']);
      expect(event).toMatchObject({ resource: 'event', payload: { object: expect.any(Object) } });
      expect(event.created_at).toMatch(ISO_MS);
    }
    expect(events[1]?.payload.object).toMatchObject({ id: txn.id, status: 'succeeded', resource: 'transaction' });
    // The buyer's event carries the buyer as the API serves it.
    expect(events.find((e) => e.type === 'buyer.deleted')?.payload.object).toMatchObject({ id: buyer.id, resource: 'buyer' });

    const one = events[0];
    expect((await api.get(`/v1/events/${one?.id}`)).body).toEqual(one);
    expect(expectAnswer(await api.get('/v1/events?type=buyer.created,buyer.deleted'), 200, eventsPage).items.map((e) => e.type).sort()).toEqual(['buyer.created', 'buyer.deleted']);
    expectError(await api.get(`/v1/events/${'f'.repeat(32)}`), 404, 'resource_not_found');
    // Reads and bookkeeping are not changes.
    const count = expectAnswer(await api.get('/v1/events?limit=1'), 200, eventsPage).total;
    expect(count).toBeGreaterThan(0);
    await api.get(`/v1/transactions/${txn.id}`);
    await api.get('/v1/balances/history');
    expect(expectAnswer(await api.get('/v1/events?limit=1'), 200, eventsPage).total).toBe(count);
  });
});

describe('delivery', () => {
  it('each event arrives once, signed with the webhook secret, only the types asked for', async () => {
    const { api } = await sandbox();
    const hook = await receiver(accepting(4));
    const all = await register(api, hook.url);
    const onlyFailed = await register(api, hook.url, ['transaction.failed']);
    await api.post('/v1/transactions', directCardBody(VISA, 1_000));
    await api.post('/v1/transactions', directCardBody(VISA, 2_000));
    const got = await until(() => hook.requests.length, (n) => n >= 4);
    await new Promise((r) => setTimeout(r, 200)); // and nothing more comes
    expect(got).toBe(4);
    expect(hook.requests.length).toBe(4);
    const bodies = hook.requests.map(eventOf);
    expect(bodies.map((b) => b.type)).toEqual(['transaction.created', 'transaction.succeeded', 'transaction.created', 'transaction.succeeded']);
    for (const req of hook.requests) {
      expect(req.method).toBe('POST');
      expect(req.path).toBe('/hook');
      expect(verify(all.secret, req)).toBe(true);
      expect(verify(onlyFailed.secret, req)).toBe(false);
      expect(req.headers['x-payctl-webhook']).toBe(all.id);
      expect(req.headers['x-payctl-event']).toBe(eventOf(req).type);
      expect(req.headers['content-type']).toBe('application/json');
    }
    expect(new Set(bodies.map((b) => b.id)).size).toBe(4);
  });

  it('two sandboxes on one state: the one holding the deliverer lock delivers, the other stands by and takes over when it closes', async () => {
    const first = await sandbox();
    const hook = await receiver(accepting(3));
    await register(first.api, hook.url, ['transaction.created']);
    const lock = path.join(first.dir, 'sandbox', 'deliverer.lock');
    await until(() => existsSync(lock), Boolean);
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ pid: process.pid, holder: expect.stringContaining('@') });
    const second = await sandbox(FAST, first.dir);
    await first.api.post('/v1/transactions', directCardBody(VISA, 1_000));
    await second.api.post('/v1/transactions', directCardBody(VISA, 2_000));
    await until(() => hook.requests.length, (n) => n >= 2);
    await new Promise((r) => setTimeout(r, 300)); // and nothing more comes
    expect(hook.requests.length).toBe(2);
    await first.handle.close();
    await second.api.post('/v1/transactions', directCardBody(VISA, 3_000));
    await until(() => hook.requests.length, (n) => n >= 3);
    await new Promise((r) => setTimeout(r, 300));
    expect(hook.requests.map((r) => saleOf(r).amount)).toEqual(['10.00', '20.00', '30.00']);
    expect(existsSync(lock)).toBe(true);
  });

  it('a receiver that fails twice then succeeds gets the event when retried, and the next ones only after, in order', async () => {
    const { api } = await sandbox();
    const hook = await receiver((_req, i) => (i < 2 ? { status: 500 } : { status: 200 }));
    const webhook = await register(api, hook.url, ['transaction.created']);
    const first = await sell(api, 1_000);
    const second = await sell(api, 2_000);
    await until(() => hook.requests.length, (n) => n >= 4);
    const seen = hook.requests.map((r) => saleOf(r).id);
    expect(seen).toEqual([first.id, first.id, first.id, second.id]);
    expect(hook.requests.map((r) => r.headers['x-payctl-attempt'])).toEqual(['1', '2', '3', '1']);
    expect(hook.requests.every((r) => verify(webhook.secret, r))).toBe(true);
  });

  it('a receiver that does not answer in time is tried again', async () => {
    const { api } = await sandbox();
    const hook = await receiver((_req, i) => (i === 0 ? { hang: true } : { status: 200 }));
    await register(api, hook.url, ['transaction.created']);
    const sale = await sell(api, 1_000);
    await until(() => hook.requests.length, (n) => n >= 2);
    expect(hook.requests.map((r) => saleOf(r).id)).toEqual([sale.id, sale.id]);
    expect(hook.requests[1]!.headers['x-payctl-attempt']).toBe('2');
  });

  it('an event still failing after the bounded time is given up on, and the next one goes', async () => {
    const { api } = await sandbox();
    const hook = await receiver((req) => (saleOf(req).amount === '10.00' ? { status: 503 } : { status: 200 }));
    const webhook = await register(api, hook.url, ['transaction.created']);
    await api.post('/v1/transactions', directCardBody(VISA, 1_000));
    const second = await sell(api, 2_000);
    await until(() => hook.requests.some((r) => saleOf(r).id === second.id), Boolean, 5_000);
    const attempts = hook.requests.filter((r) => saleOf(r).amount === '10.00').length;
    expect(attempts).toBeGreaterThan(2);
    expect(hook.requests.at(-1)!.headers['x-payctl-webhook']).toBe(webhook.id);
  });

  it('replay sends one event again to the webhooks that want it', async () => {
    const { api } = await sandbox();
    const hook = await receiver(accepting(2));
    const webhook = await register(api, hook.url, ['transaction.succeeded']);
    await api.post('/v1/transactions', directCardBody(VISA, 1_000));
    await until(() => hook.requests.length, (n) => n >= 1);
    const event: unknown = JSON.parse(hook.requests[0]!.body);
    const { id: eventId } = z.parse(eventStrict, event);
    const replay = await api.post(`/v1/events/${eventId}/actions/replay`);
    expect(replay.status).toBe(200);
    await until(() => hook.requests.length, (n) => n >= 2);
    expect(JSON.parse(hook.requests[1]!.body)).toEqual(event);
    // Signed afresh, so a receiver with a time tolerance takes the replay.
    expect(verify(webhook.secret, hook.requests[1]!)).toBe(true);
    expectError(await api.post(`/v1/events/${'f'.repeat(32)}/actions/replay`), 404, 'resource_not_found');
  });

  it('two delivering processes on one state directory still send each event once', async () => {
    const first = await sandbox();
    const second = await sandbox(FAST, first.dir);
    const hook = await receiver(accepting(6));
    await register(first.api, hook.url, ['transaction.created']);
    for (let i = 0; i < 6; i += 1) await (i % 2 ? second.api : first.api).post('/v1/transactions', directCardBody(VISA, 1_000 + i));
    await until(() => hook.requests.length, (n) => n >= 6);
    await new Promise((r) => setTimeout(r, 300));
    const ids = hook.requests.map((r) => eventOf(r).id);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
  });
});
