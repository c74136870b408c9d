import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_BUYER_ID, SANDBOX_MARKETPLACE_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { resetSandbox, startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { invoiceStrict } from '../../src/provider/schemas/recurrence.js';
import { receivableStrict } from '../../src/provider/schemas/finance.js';
import { transactionStrict } from '../../src/provider/schemas/transaction.js';
import { cardData, client, expectAnswer, expectError, nth, pageOf, readStateFile, VISA } from './helpers.js';
import { statePaths } from '../../src/sandbox/store.js';
import { startChildSandboxes } from './child-sandboxes.js';
import { holdWriteLock } from './db-helpers.js';
import { allInvoices, clockAdvance, clockOf, createPlan, DAY_MS, pinnedSandbox, subscribe, type Pinned } from './recurrence-helpers.js';

// The sandbox clock: real time plus an offset kept in the state file, shared by every process on
// the directory; everything time-dependent follows it; advancing it runs what fell due, and so
// does real time passing, each due date exactly once even with several processes at it.

const NOW = '2030-01-15T12:00:00.000Z';
const opened: Pinned[] = [];
const dirs: string[] = [];

async function sandboxAt(iso: string): Promise<Pinned> {
  const fresh = await pinnedSandbox(iso);
  opened.push(fresh);
  return fresh;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((f) => f.close()));
});
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('GET /v1/sandbox/clock', () => {
  it('answers the sandbox time and its offset, with or without the marketplace prefix; needs a key', async () => {
    const { api, sandbox } = await sandboxAt(NOW);
    const reply = await api.get('/v1/sandbox/clock');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ now: NOW, offset_seconds: 0 });
    expect((await api.get(`/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}/sandbox/clock`)).body).toEqual({ now: NOW, offset_seconds: 0 });
    expectError(await client(sandbox.url, null).get('/v1/sandbox/clock'), 401, 'unauthorized');
    expectError(await api.post('/v1/sandbox/clock', {}), 405, 'invalid_request');
  });
});

describe('POST /v1/sandbox/clock/advance', () => {
  it('moves the clock forward by whole days and keeps the offset in the state file', async () => {
    const { api, dir } = await sandboxAt(NOW);
    const reply = await api.post('/v1/sandbox/clock/advance', { days: 10 });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ now: '2030-01-25T12:00:00.000Z', offset_seconds: 864_000, billed: [], expired: [], overdue: [], transfers: [] });
    expect(expectAnswer(await api.post(`/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}/sandbox/clock/advance`, { days: 1 }), 200, clockAdvance).offset_seconds).toBe(950_400);
    expect((await readStateFile(dir)).clock).toEqual({ offset_seconds: 950_400 });
    expect((await api.get('/v1/sandbox/clock')).body).toEqual({ now: '2030-01-26T12:00:00.000Z', offset_seconds: 950_400 });
  });

  it.each([[{}], [{ days: 0 }], [{ days: -1 }], [{ days: 3661 }], [{ days: 1.5 }], [{ days: '3' }], [{ days: null }]])('refuses %j with 400 and leaves the clock alone', async (body) => {
    const { api } = await sandboxAt(NOW);
    const reply = await api.post('/v1/sandbox/clock/advance', body);
    expect(expectError(reply, 400, 'invalid_parameter').reasons).toEqual(['days: must be a whole number of days from 1 to 3660']);
    expect((await clockOf(api)).offset_seconds).toBe(0);
  });

  it('takes the largest step, 3660 days', async () => {
    const { api } = await sandboxAt(NOW);
    expect(expectAnswer(await api.post('/v1/sandbox/clock/advance', { days: 3660 }), 200, clockAdvance).offset_seconds).toBe(3660 * 86_400);
  });
});

describe('one clock for every process on the directory', () => {
  it('a second server on the same state sees the moved clock, on its own real time', async () => {
    const first = await sandboxAt(NOW);
    await first.api.post('/v1/sandbox/clock/advance', { days: 30 });
    let real = Date.parse('2030-01-15T18:00:00.000Z');
    const second = await startSandbox({ stateDir: first.dir, now: () => new Date(real) });
    try {
      const api = client(second.url);
      expect((await api.get('/v1/sandbox/clock')).body).toEqual({ now: '2030-02-14T18:00:00.000Z', offset_seconds: 30 * 86_400 });
      real += 3_600_000;
      expect((await clockOf(api)).now).toBe('2030-02-14T19:00:00.000Z');
    } finally {
      await second.close();
    }
  });

  it('a reset starts the clock over', async () => {
    const { api, dir } = await sandboxAt(NOW);
    await api.post('/v1/sandbox/clock/advance', { days: 5 });
    await resetSandbox(dir);
    expect((await api.get('/v1/sandbox/clock')).body).toEqual({ now: NOW, offset_seconds: 0 });
  });
});

describe('everything runs on the sandbox clock', () => {
  it('timestamps, settlement dates, due-date checks, boleto dates and card expiry follow the moved clock', async () => {
    const { api } = await sandboxAt('2030-11-20T12:00:00.000Z');
    await api.post('/v1/sandbox/clock/advance', { days: 50 }); // 2031-01-09
    const sale = await api.post('/v1/transactions', { payment_type: 'credit', on_behalf_of: SANDBOX_SELLER_ID, customer: SANDBOX_BUYER_ID, amount: 1000, currency: 'BRL' });
    expect(sale.body).toMatchObject({ created_at: '2031-01-09T12:00:00.000Z', expected_on: '2031-02-08T00:00:00.000Z' });
    const { id } = expectAnswer(sale, 201, transactionStrict);
    expect(nth(expectAnswer(await api.get(`/v1/transactions/${id}/receivables`), 200, pageOf(receivableStrict)).items, 0).expected_on).toBe('2031-02-08T00:00:00.000Z');

    const boleto = await api.post('/v1/transactions', { payment_type: 'boleto', on_behalf_of: SANDBOX_SELLER_ID, customer: SANDBOX_BUYER_ID, amount: 1000, currency: 'BRL' });
    expect(expectAnswer(boleto, 201, transactionStrict).payment_method).toMatchObject({ expiration_date: '2031-01-12' });

    // A card good through December 2030 has expired by the sandbox's January 2031.
    const token = await api.post('/v1/cards/tokens', cardData(VISA, { expiration_month: '12', expiration_year: '2030' }));
    expectError(token, 400, 'invalid_parameter');

    const plan = await createPlan(api);
    const late = await api.post('/v1/recurrence_subscriptions', { plan: plan.uuid, customer: SANDBOX_BUYER_ID, due_date: '2030-12-31', on_behalf_of: SANDBOX_SELLER_ID });
    expect(expectError(late, 400, 'invalid_parameter').reasons).toEqual(['due_date: must not be before today (2031-01-09)']);
    expect(plan.created_at).toBe('2031-01-09T12:00:00.000Z');
  });
});

describe('real time passing', () => {
  it('bills what fell due at the start of the next request, without any advance', async () => {
    const fresh = await sandboxAt(NOW);
    const { api } = fresh;
    const sub = await subscribe(api, await createPlan(api, { frequency: 'daily' }), '2030-01-16');
    const invoice = await api.post('/v1/invoices', { customer: SANDBOX_BUYER_ID, amount: 500, currency: 'BRL', due_date: '2030-01-15', on_behalf_of: SANDBOX_SELLER_ID });
    expect(await allInvoices(api, `subscription=${sub.uuid}`)).toEqual([]);

    fresh.setRealTime('2030-01-17T09:30:00.000Z');
    // Any request will do; this one is about something else entirely.
    expect((await api.get(`/v1/buyers/${SANDBOX_BUYER_ID}`)).status).toBe(200);
    const billed = await allInvoices(api, `subscription=${sub.uuid}`);
    expect(billed.map((i) => [i.due_date, i.status, i.created_at])).toEqual([
      ['2030-01-16', 'paid', '2030-01-16T00:00:00.000Z'],
      ['2030-01-17', 'paid', '2030-01-17T00:00:00.000Z'],
    ]);
    const { id } = expectAnswer(invoice, 201, invoiceStrict);
    expect(expectAnswer(await api.get(`/v1/invoices/${id}`), 200, invoiceStrict).status).toBe('over-due');
    expect((await api.get('/v1/sandbox/clock')).body).toEqual({ now: '2030-01-17T09:30:00.000Z', offset_seconds: 0 });
  });

  it('takes the lock only when something is due', async () => {
    const fresh = await sandboxAt(NOW);
    const { api, dir } = fresh;
    const sub = await subscribe(api, await createPlan(api), '2030-01-20');
    // Another process is in the middle of a change for a while.
    const lock = await holdWriteLock(statePaths(dir).file, 1500);
    // Nothing due: served while the other process holds the lock (a read takes no write lock).
    const quiet = await api.get(`/v1/recurrence_subscriptions/${sub.uuid}`);
    const quietAt = Date.now();
    // Not billed yet: the next due date is still the first one.
    expect(quiet.body).toMatchObject({ due_since_date: '2030-01-20', due_date: '2030-01-20' });
    fresh.setRealTime('2030-01-20T00:00:01.000Z');
    // Something due: it waits for the lock, then bills before answering.
    const due = await api.get(`/v1/recurrence_subscriptions/${sub.uuid}`);
    const dueAt = Date.now();
    const releasedAt = await lock.released;
    expect(quietAt).toBeLessThan(releasedAt);
    expect(dueAt).toBeGreaterThanOrEqual(releasedAt);
    expect(due.body).toMatchObject({ due_since_date: '2030-01-20', due_date: '2030-02-20' });
  });
});

describe('concurrent advances', () => {
  it('several servers, in this process and in others, never bill a due date twice', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'payctl-sandbox-clock-'));
    dirs.push(dir);
    const real = Date.parse(NOW);
    // Two child processes run the sandbox on the same pinned real time as the two servers started here.
    const stateDir = path.join(dir, 'state');
    const children = await startChildSandboxes(dir, stateDir, 2, real);
    const local: SandboxHandle[] = [];
    try {
      for (let i = 0; i < 2; i += 1) local.push(await startSandbox({ stateDir, now: () => new Date(real) }));
      const urls = [...children.urls, ...local.map((s) => s.url)];
      const apis = urls.map((u) => client(u));
      const first = apis[0]!;
      const daily = await subscribe(first, await createPlan(first, { frequency: 'daily', amount: 700 }), '2030-01-16');
      const weekly = await subscribe(first, await createPlan(first, { frequency: 'weekly', amount: 900 }), '2030-01-16');

      const steps = [1, 2, 1, 3, 1, 1, 2, 5, 1, 1, 4, 1, 2, 1, 1, 3, 1, 1, 2, 1];
      const replies = await Promise.all(steps.map((days, i) => apis[i % apis.length]!.post('/v1/sandbox/clock/advance', { days })));
      expect(replies.map((r) => r.status)).toEqual(steps.map(() => 200));
      const total = steps.reduce((a, b) => a + b, 0);
      // Each advance moved the clock from where the one before it left it.
      const advances = replies.map((r) => expectAnswer(r, 200, clockAdvance));
      const offsets = advances.map((r) => r.offset_seconds / 86_400).sort((a, b) => a - b);
      expect(offsets.at(-1)).toBe(total);
      expect(new Set(offsets).size).toBe(steps.length);

      const billed = advances.flatMap((r) => r.billed);
      const end = new Date(real + total * DAY_MS).toISOString().slice(0, 10);
      const days = Array.from({ length: total }, (_, i) => new Date(Date.UTC(2030, 0, 16 + i)).toISOString().slice(0, 10)).filter((d) => d <= end);
      const dailyDues = billed.filter((b) => b.subscription === daily.uuid).map((b) => b.due_date).sort();
      expect(dailyDues).toEqual(days);
      const weeklyDues = billed.filter((b) => b.subscription === weekly.uuid).map((b) => b.due_date).sort();
      expect(weeklyDues).toEqual(days.filter((_, i) => i % 7 === 0));

      const invoices = await allInvoices(first, `subscription=${daily.uuid}`);
      expect(invoices.map((i) => i.due_date)).toEqual(days);
      expect(invoices.every((i) => i.status === 'paid')).toBe(true);
      const charges = expectAnswer(await first.get('/v1/transactions?limit=100'), 200, pageOf(transactionStrict)).items.filter((t) => t.description === `Subscription ${daily.uuid}`);
      expect(charges).toHaveLength(days.length);
    } finally {
      await Promise.all(local.map((s) => s.close()));
      await children.stop();
    }
  }, 20_000);
});
