import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.js';
import { payctl, type RunResult } from '../helpers/run.js';
import { providerError, sentFields, type RecordedRequest, type RecordingServer, type Reply, type Route } from '../helpers/recording-server.js';

// Plans, subscriptions, invoices and the sandbox clock: what each command sends, and the checks
// made before anything is sent.
const MKT = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const SELLER = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const ID = 'cccccccccccccccccccccccccccccccc';
const BUYER = 'dddddddddddddddddddddddddddddddd';
const CARD = 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const KEY = 'zpk_live_recurrencekey01';
const NEXT = new Date().getFullYear() + 1;

/**
 * `api.run` runs payctl against a recording server of its own answering `replies` (none, [], is a
 * service that must be asked nothing); `api.server` is the last run's server, `api.sent()` what it got.
 */
type Run = (args: string[], replies?: Reply[] | Route, marketplace?: string, env?: Record<string, string>) => Promise<RunResult>;
const it = test.extend<{ api: { run: Run; readonly server: RecordingServer; sent: () => string[] } }>({
  api: async ({ home, recording }, use) => {
    let server: RecordingServer | undefined;
    const last = () => server ?? expect.fail('no run yet');
    await use({
      run: async (args, replies = [{ status: 200, body: { uuid: ID, id: ID, status: 'active', amount: 2990 } }], marketplace = MKT, env = {}) => {
        await server?.close();
        server = await recording(replies);
        return payctl(args, { home, env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: KEY, PAYCTL_MARKETPLACE_ID: marketplace, ...env } });
      },
      get server() {
        return last();
      },
      sent: () => last().requests.map((r) => `${r.method} ${r.url}`),
    });
  },
});
/** Today where the tests run (their TZ is UTC). */
const localDay = () => new Date().toISOString().slice(0, 10);

describe('plans', () => {
  it('create: cents, defaults for interval, payment methods and currency; the provider\'s trailing slash', async ({ api }) => {
    const result = await api.run(
      ['plans', 'create', '--name', 'Plano Mensal', '--amount', '29,90', '--setup-amount-cents', '500', '--frequency', 'monthly', '--duration', '12', '--grace-days', '0', '--tolerance-days', '5', '--description', 'Mensal'],
      [{ status: 201, body: { uuid: ID, name: 'Plano Mensal', amount: 2990, status: 'active' } }],
    );
    expect(result.code, result.stderr).toBe(0);
    expect(api.sent()).toEqual([`POST /v1/marketplaces/${MKT}/recurrence_plans/`]);
    expect(api.server.requests[0]!.json).toEqual({
      name: 'Plano Mensal',
      description: 'Mensal',
      amount: 2990,
      setup_amount: 500,
      frequency: 'monthly',
      duration: 12,
      grace_period: 0,
      tolerance_period: 5,
      currency: 'BRL',
      interval: 1,
      payment_methods: ['credit'],
    });
  });

  it('create takes credit and boleto as payment methods (repeatable)', async ({ api }) => {
    const result = await api.run(['plans', 'create', '--name', 'Boleto', '--amount', '10', '--frequency', 'monthly', '--payment-method', 'credit', '--payment-method', 'boleto']);
    expect(result.code, result.stderr).toBe(0);
    expect(sentFields(api.server.requests[0]!).payment_methods).toEqual(['credit', 'boleto']);
  });

  it('create needs name, amount and frequency; bad values are refused before sending', async ({ api }) => {
    const missing = await api.run(['plans', 'create', '--name', 'X'], []);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--amount (or --amount-cents), --frequency');
    for (const args of [
      ['--frequency', 'hourly'],
      ['--frequency', 'monthly', '--interval', '0'],
      ['--frequency', 'monthly', '--payment-method', 'pix'],
      ['--frequency', 'monthly', '--amount', '1', '--amount-cents', '100'],
    ]) {
      const result = await api.run(['plans', 'create', '--name', 'X', '--amount', '10', ...args], []);
      expect(result.code, args.join(' ')).toBe(2);
      expect(api.server.requests).toHaveLength(0);
    }
  });

  it('list, get, update, remove (asks)', async ({ api }) => {
    await api.run(['plans', 'list'], [{ status: 200, body: { items: [], has_more: false } }]);
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/recurrence_plans/?limit=20&offset=0`]);
    await api.run(['plans', 'get', ID]);
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/recurrence_plans/${ID}`]);
    // The provider's PUT replaces the plan and requires name, frequency, interval, currency and
    // payment_methods: the plan is read first and sent whole, with the change applied.
    const held = { uuid: ID, name: 'Mensal', frequency: 'monthly', interval: 1, currency: 'BRL', payment_methods: ['credit'], amount: 2990, setup_amount: 0, description: null, duration: null, status: 'active', grace_period: 3 };
    const updated = await api.run(['plans', 'update', ID, '--amount', '34.90'], (req) => ({ status: 200, body: req.method === 'GET' ? held : { ...held, amount: 3490 } }));
    expect(updated.code, updated.stderr).toBe(0);
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/recurrence_plans/${ID}`, `PUT /v1/marketplaces/${MKT}/recurrence_plans/${ID}`]);
    expect(api.server.requests[1]!.json).toEqual({ name: 'Mensal', frequency: 'monthly', interval: 1, currency: 'BRL', payment_methods: ['credit'], amount: 3490, setup_amount: 0 });
    await api.server.close();
    const dry = await api.run(['plans', 'update', ID, '--amount', '34.90', '--dry-run'], []);
    expect(dry.code).toBe(0);
    expect(api.server.requests).toHaveLength(0);
    expect(dry.stderr).toContain('the real PUT carries the whole plan');
    const noYes = await api.run(['plans', 'remove', ID]);
    expect(noYes.code).toBe(2);
    const removed = await api.run(['plans', 'remove', ID, '--yes'], [{ status: 200, body: held }, { status: 204 }]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/recurrence_plans/${ID}`, `DELETE /v1/marketplaces/${MKT}/recurrence_plans/${ID}`]);
  });

  it('a plan table shows its amount in reais, from the API\'s cents', async ({ home, recording }) => {
    const server = await recording([{ status: 200, body: { items: [{ uuid: ID, name: 'Mensal', amount: 2990, frequency: 'monthly', interval: 1, status: 'active' }], has_more: false } }]);
    const result = await payctl(['plans', 'list', '--no-color'], { home, tty: true, env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: KEY, PAYCTL_MARKETPLACE_ID: MKT } });
    expect(result.stdout).toMatch(new RegExp(`${ID}\\s+Mensal\\s+R\\$ 29,90\\s+monthly\\s+1\\s+active`));
  });
});

describe('subscriptions', () => {
  it('create sends exactly the seed body plus on_behalf_of', async ({ api }) => {
    const result = await api.run(
      ['subscriptions', 'create', '--plan', ID, '--customer', BUYER, '--card', CARD, '--due-date', `${NEXT}-01-10`, '--expiration-date', `${NEXT + 1}-01-10`, '--amount', '24.90', '--on-behalf-of', SELLER],
      [{ status: 200, body: { uuid: ID, name: 'Mensal', amount: 2990, frequency: 'monthly', interval: 1, currency: 'BRL', payment_methods: ['credit'], status: 'active' } }, { status: 201, body: { uuid: ID, due_date: `${NEXT}-01-10`, amount: 2990, status: 'active' } }],
    );
    expect(result.code, result.stderr).toBe(0);
    // The plan is read to check it accepts the payment method.
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/recurrence_plans/${ID}`, `POST /v1/marketplaces/${MKT}/recurrence_subscriptions`]);
    expect(api.server.requests[1]!.json).toEqual({
      plan: ID,
      customer: BUYER,
      payment_method: 'credit',
      due_date: `${NEXT}-01-10`,
      expiration_date: `${NEXT + 1}-01-10`,
      amount: 2490,
      currency: 'BRL',
      card: CARD,
      on_behalf_of: SELLER,
    });
  });

  it("create without --amount or --card takes the plan's amount and the buyer's default card", async ({ api }) => {
    const result = await api.run(['subscriptions', 'create', '--plan', ID, '--customer', BUYER, '--on-behalf-of', SELLER], (req) => {
      if (req.path.endsWith(`/recurrence_plans/${ID}`)) return { status: 200, body: { uuid: ID, amount: 2990, status: 'active' } };
      if (req.path.endsWith(`/buyers/${BUYER}`)) return { status: 200, body: { id: BUYER, default_credit: CARD } };
      return { status: 201, body: { uuid: 'sub1', amount: 2990, status: 'active' } };
    });
    expect(result.code, result.stderr).toBe(0);
    const body = api.server.requests.at(-1)!.json;
    expect(body).toMatchObject({ amount: 2990, card: CARD, payment_method: 'credit' });
    expect(body).not.toHaveProperty('expiration_date'); // the provider types it a string: no null
    expect(sentFields(api.server.requests.at(-1)!).due_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("without --due-date: a sandbox's own day (from its clock, which may be ahead); the local day for a live key", async ({ api }) => {
    const replies = (clock: Reply) => (req: RecordedRequest): Reply => (req.path.endsWith('/sandbox/clock') ? clock : { status: 201, body: { uuid: 'sub1', amount: 2990, status: 'active' } });
    const test = { PAYCTL_API_KEY: 'zpk_test_recurrence01' };
    const args = ['subscriptions', 'create', '--plan', ID, '--customer', BUYER, '--card', CARD, '--amount', '29.90', '--on-behalf-of', SELLER];
    const ahead = await api.run(args, replies({ status: 200, body: { now: `${NEXT + 1}-03-04T23:30:00.000Z`, offset_seconds: 86_400 * 400 } }), MKT, test);
    expect(ahead.code, ahead.stderr).toBe(0);
    expect(api.sent()).toEqual(['GET /v1/sandbox/clock', `GET /v1/marketplaces/${MKT}/recurrence_plans/${ID}`, `POST /v1/marketplaces/${MKT}/recurrence_subscriptions`]);
    expect(sentFields(api.server.requests.at(-1)!).due_date).toBe(`${NEXT + 1}-03-04`);
    // A test key on a service with no sandbox clock: it keeps real time.
    const noClock = await api.run(args, replies({ status: 404, body: providerError(404, 'resource_not_found', 'Not found') }), MKT, test);
    expect(noClock.code, noClock.stderr).toBe(0);
    expect(sentFields(api.server.requests.at(-1)!).due_date).toBe(localDay());
    const live = await api.run(args, replies({ status: 500, body: {} }));
    expect(live.code, live.stderr).toBe(0);
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/recurrence_plans/${ID}`, `POST /v1/marketplaces/${MKT}/recurrence_subscriptions`]);
    expect(sentFields(api.server.requests.at(-1)!).due_date).toBe(localDay());
  });

  it('bad inputs: past due date, expiration before due date, missing plan; nothing sent', async ({ api }) => {
    const past = await api.run(['subscriptions', 'create', '--plan', ID, '--customer', BUYER, '--card', CARD, '--due-date', '2020-01-01'], []);
    expect(past.code).toBe(2);
    expect(past.stderr).toContain('--due-date: 2020-01-01 is in the past');
    const order = await api.run(['subscriptions', 'create', '--plan', ID, '--customer', BUYER, '--card', CARD, '--due-date', `${NEXT}-03-01`, '--expiration-date', `${NEXT}-02-01`], []);
    expect(order.code).toBe(2);
    expect(order.stderr).toContain('--expiration-date');
    const noPlan = await api.run(['subscriptions', 'create', '--customer', BUYER], []);
    expect(noPlan.code).toBe(2);
    expect(noPlan.stderr).toContain('--plan');
    expect(api.server.requests).toHaveLength(0);
  });

  it('an unknown plan is a clear API error', async ({ api }) => {
    const result = await api.run(['subscriptions', 'create', '--plan', ID, '--customer', BUYER, '--card', CARD, '--amount', '1', '--on-behalf-of', SELLER], [
      { status: 404, body: providerError(404, 'resource_not_found', `Sorry, the plan (id: ${ID}) you are trying to use does not exist`) },
    ]);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('the plan');
  });

  describe('--payment-method', () => {
    const PLAN_PATH = `/recurrence_plans/${ID}`;
    /** A service whose plan accepts `methods`, whose subscription is `current`, and whose buyer has CARD on file. */
    const service = (methods: string[], current: Record<string, unknown> = {}) => (req: RecordedRequest): Reply => {
      if (req.path.endsWith(PLAN_PATH)) return { status: 200, body: { uuid: ID, amount: 2990, status: 'active', payment_methods: methods } };
      if (req.path.endsWith(`/buyers/${BUYER}`)) return { status: 200, body: { id: BUYER, default_credit: CARD } };
      if (req.method === 'GET') return { status: 200, body: { uuid: 'sub1', plan: ID, customer: BUYER, payment_method: 'credit', card: CARD, amount: 2990, status: 'active', ...current } };
      return { status: req.method === 'POST' ? 201 : 200, body: { uuid: 'sub1', amount: 2990, status: 'active' } };
    };

    it('create --payment-method boleto sends payment_method boleto and no card, and never looks up a card', async ({ api }) => {
      const result = await api.run(
        ['subscriptions', 'create', '--plan', ID, '--customer', BUYER, '--payment-method', 'boleto', '--due-date', `${NEXT}-01-10`, '--on-behalf-of', SELLER, '--description', 'Mensal por boleto'],
        service(['credit', 'boleto']),
      );
      expect(result.code, result.stderr).toBe(0);
      expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}${PLAN_PATH}`, `POST /v1/marketplaces/${MKT}/recurrence_subscriptions`]);
      expect(api.server.requests[1]!.json).toEqual({
        plan: ID,
        customer: BUYER,
        payment_method: 'boleto',
        due_date: `${NEXT}-01-10`,
        amount: 2990,
        currency: 'BRL',
        on_behalf_of: SELLER,
        description: 'Mensal por boleto',
      });
    });

    it("a method the plan does not accept is exit 2 naming the flag and the plan's methods; nothing is sent", async ({ api }) => {
      const boleto = await api.run(['subscriptions', 'create', '--plan', ID, '--customer', BUYER, '--payment-method', 'boleto', '--on-behalf-of', SELLER, '--due-date', `${NEXT}-01-10`], service(['credit']));
      expect(boleto.code).toBe(2);
      expect(boleto.stderr).toContain(`--payment-method: plan ${ID} does not accept boleto; its payment methods are credit`);
      expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}${PLAN_PATH}`]);
      // The default, credit, is checked too.
      const credit = await api.run(['subscriptions', 'create', '--plan', ID, '--customer', BUYER, '--card', CARD, '--on-behalf-of', SELLER, '--due-date', `${NEXT}-01-10`], service(['boleto']));
      expect(credit.code).toBe(2);
      expect(credit.stderr).toContain('does not accept credit; its payment methods are boleto');
      expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}${PLAN_PATH}`]);
    });

    it('--card with --payment-method boleto, or an unknown method, is a usage error before anything is read', async ({ api }) => {
      const both = await api.run(['subscriptions', 'create', '--plan', ID, '--customer', BUYER, '--payment-method', 'boleto', '--card', CARD, '--on-behalf-of', SELLER], []);
      expect(both.code).toBe(2);
      expect(both.stderr).toContain('--card cannot be used with --payment-method boleto');
      const update = await api.run(['subscriptions', 'update', ID, '--payment-method', 'boleto', '--card', CARD], []);
      expect(update.code).toBe(2);
      const pix = await api.run(['subscriptions', 'create', '--plan', ID, '--customer', BUYER, '--payment-method', 'pix'], []);
      expect(pix.code).toBe(2);
      expect(pix.stderr).toContain('credit, boleto');
      expect(api.server.requests).toHaveLength(0);
    });

    it('--dry-run reads nothing and shows the boleto body', async ({ api }) => {
      const result = await api.run(['subscriptions', 'create', '--plan', ID, '--customer', BUYER, '--payment-method', 'boleto', '--on-behalf-of', SELLER, '--dry-run'], []);
      expect(result.code, result.stderr).toBe(0);
      expect(api.server.requests).toHaveLength(0);
      const shown = JSON.parse(result.stdout);
      expect(shown.body).toMatchObject({ payment_method: 'boleto', amount: "(the plan's amount)" });
      expect(shown.body).not.toHaveProperty('card');
      const update = await api.run(['subscriptions', 'update', ID, '--payment-method', 'credit', '--dry-run'], []);
      expect(update.code, update.stderr).toBe(0);
      expect(api.server.requests).toHaveLength(0);
    });

    it("update checks the method against the subscription's plan, or the new --plan's", async ({ api }) => {
      const toBoleto = await api.run(['subscriptions', 'update', ID, '--payment-method', 'boleto'], service(['credit', 'boleto']));
      expect(toBoleto.code, toBoleto.stderr).toBe(0);
      expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/recurrence_subscriptions/${ID}`, `GET /v1/marketplaces/${MKT}${PLAN_PATH}`, `PUT /v1/marketplaces/${MKT}/recurrence_subscriptions/${ID}`]);
      expect(api.server.requests.at(-1)!.json).toEqual({ payment_method: 'boleto' });

      const NEW_PLAN = 'ffffffffffffffffffffffffffffffff';
      const refused = await api.run(['subscriptions', 'update', ID, '--plan', NEW_PLAN, '--payment-method', 'boleto'], (req: RecordedRequest) =>
        req.path.endsWith(`/recurrence_plans/${NEW_PLAN}`) ? { status: 200, body: { uuid: NEW_PLAN, amount: 2990, status: 'active', payment_methods: ['credit'] } } : service(['credit', 'boleto'])(req),
      );
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`plan ${NEW_PLAN} does not accept boleto`);
      expect(api.sent().some((r) => r.startsWith('PUT'))).toBe(false);
    });

    it("update from boleto to credit without --card sends the buyer's default card", async ({ api }) => {
      const result = await api.run(['subscriptions', 'update', ID, '--payment-method', 'credit'], service(['credit', 'boleto'], { payment_method: 'boleto', card: null }));
      expect(result.code, result.stderr).toBe(0);
      expect(api.sent()).toContain(`GET /v1/marketplaces/${MKT}/buyers/${BUYER}`);
      expect(api.server.requests.at(-1)!.json).toEqual({ payment_method: 'credit', card: CARD });
    });
  });

  it('list filters, get, update', async ({ api }) => {
    await api.run(['subscriptions', 'list', '--customer', BUYER, '--status', 'suspended'], [{ status: 200, body: { items: [], has_more: false } }]);
    const url = new URL(api.server.requests[0]!.url, 'http://x');
    expect(url.pathname).toBe(`/v1/marketplaces/${MKT}/recurrence_subscriptions`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ customer: BUYER, status: 'suspended', limit: '20', offset: '0' });
    await api.run(['subscriptions', 'get', ID]);
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/recurrence_subscriptions/${ID}`]);
    await api.run(['subscriptions', 'update', ID, '--card', CARD, '--amount-cents', '1990']);
    expect(api.sent()).toEqual([`PUT /v1/marketplaces/${MKT}/recurrence_subscriptions/${ID}`]);
    expect(api.server.requests[0]!.json).toEqual({ card: CARD, amount: 1990 });
  });

  it('suspend and remove ask first; reactivate does not', async ({ api }) => {
    const sub = { uuid: ID, customer: BUYER, amount: 2990, currency: 'BRL', status: 'active' };
    const noYes = await api.run(['subscriptions', 'suspend', ID], [{ status: 200, body: sub }]);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toContain('--yes required to suspend a subscription');
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/recurrence_subscriptions/${ID}`]);
    const suspended = await api.run(['subscriptions', 'suspend', ID, '--yes'], [{ status: 200, body: sub }, { status: 200, body: { ...sub, status: 'suspended' } }]);
    expect(suspended.code, suspended.stderr).toBe(0);
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/recurrence_subscriptions/${ID}`, `POST /v1/marketplaces/${MKT}/recurrence_subscriptions/${ID}/suspend`]);
    const removed = await api.run(['subscriptions', 'remove', ID, '--yes'], [{ status: 200, body: sub }, { status: 204 }]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/recurrence_subscriptions/${ID}`, `DELETE /v1/marketplaces/${MKT}/recurrence_subscriptions/${ID}`]);
    await api.run(['subscriptions', 'reactivate', ID], [{ status: 200, body: { ...sub, status: 'active' } }]);
    expect(api.sent()).toEqual([`POST /v1/marketplaces/${MKT}/recurrence_subscriptions/${ID}/reactivate`]);
  });

  it('suspending a suspended subscription is a clear 4xx', async ({ api }) => {
    const result = await api.run(['subscriptions', 'suspend', ID, '--yes'], (req) =>
      req.method === 'GET'
        ? { status: 200, body: { uuid: ID, status: 'suspended', amount: 2990 } }
        : { status: 422, body: providerError(422, 'invalid_subscription_status', 'The subscription is suspended and cannot be suspended') },
    );
    expect(result.code).toBe(6);
    expect(result.stderr).toContain('(invalid_subscription_status, HTTP 422)');
  });
});

describe('invoices', () => {
  it('create a one-off invoice', async ({ api }) => {
    const result = await api.run(['invoices', 'create', '--customer', BUYER, '--amount', '150', '--due-date', `${NEXT}-02-01`, '--description', 'Adesão', '--on-behalf-of', SELLER], [
      { status: 201, body: { id: ID, due_date: `${NEXT}-02-01`, amount: 2990, status: 'pending' } },
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(api.sent()).toEqual([`POST /v1/marketplaces/${MKT}/invoices`]);
    expect(api.server.requests[0]!.json).toEqual({
      customer: BUYER,
      amount: 15000,
      currency: 'BRL',
      due_date: `${NEXT}-02-01`,
      payment_method: 'credit',
      description: 'Adesão',
      on_behalf_of: SELLER,
    });
  });

  it('list filters', async ({ api }) => {
    await api.run(['invoices', 'list', '--subscription', ID, '--customer', BUYER, '--status', 'paid,over-due'], [{ status: 200, body: { items: [], has_more: false } }]);
    const url = new URL(api.server.requests[0]!.url, 'http://x');
    expect(url.pathname).toBe(`/v1/marketplaces/${MKT}/invoices`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ subscription: ID, customer: BUYER, status: 'paid,over-due', limit: '20', offset: '0' });
    const bad = await api.run(['invoices', 'list', '--status', 'late'], []);
    expect(bad.code).toBe(2);
  });

  it('refund only a paid invoice: asks, then DELETE …/void', async ({ api }) => {
    const paid = { id: ID, status: 'paid', amount: 2990, currency: 'BRL', customer: BUYER };
    const ask = await api.run(['invoices', 'refund', ID], [{ status: 200, body: paid }]);
    expect(ask.code).toBe(2);
    expect(ask.stderr).toContain('--yes required to refund an invoice');
    const done = await api.run(['invoices', 'refund', ID, '--yes'], (req) => (req.method === 'GET' ? { status: 200, body: paid } : { status: 200, body: { ...paid, status: 'canceled' } }));
    expect(done.code, done.stderr).toBe(0);
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/invoices/${ID}`, `DELETE /v1/marketplaces/${MKT}/invoices/${ID}/void`]);
    // Another invoice, one payctl never refunded: only a paid invoice can be refunded.
    const OTHER = 'f'.repeat(32);
    const pending = await api.run(['invoices', 'refund', OTHER, '--yes'], [{ status: 200, body: { ...paid, id: OTHER, status: 'pending' } }]);
    expect(pending.code).toBe(2);
    expect(pending.stderr).toContain('only a paid invoice can be refunded');
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/invoices/${OTHER}`]);
    // Refunded by payctl and no longer paid: nothing is left to refund, so it says so (exit 0) and offers nothing.
    const again = await api.run(['invoices', 'refund', ID, '--yes', '--again'], [{ status: 200, body: { ...paid, status: 'canceled' } }]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(new RegExp(`^Invoice ${ID} was already refunded by payctl on \\d{4}-\\d\\d-\\d\\d at \\d\\d:\\d\\d:\\d\\d UTC \\(\\S+\\) and is canceled now; nothing was sent\\.\n$`));
    expect(JSON.parse(again.stdout)).toMatchObject({ id: ID, status: 'canceled' });
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/invoices/${ID}`]);
  });

  it('approve again once payctl approved it: it is paid, so that is said (exit 0), nothing sent and nothing offered', async ({ api }) => {
    const pending = { id: ID, status: 'pending', amount: 100 };
    const first = await api.run(['invoices', 'approve', ID, '--yes'], (req) => (req.method === 'GET' ? { status: 200, body: pending } : { status: 200, body: { ...pending, status: 'paid' } }));
    expect(first.code, first.stderr).toBe(0);
    const again = await api.run(['invoices', 'approve', ID, '--yes'], [{ status: 200, body: { ...pending, status: 'paid' } }]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(new RegExp(`^Invoice ${ID} was already approved by payctl on .* \\(\\S+\\) and is paid now; nothing was sent\\.\n$`));
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/invoices/${ID}`]);
  });

  it('approve and remove', async ({ api }) => {
    const pending = { id: ID, status: 'pending', amount: 100 };
    await api.run(['invoices', 'approve', ID, '--yes'], (req) => (req.method === 'GET' ? { status: 200, body: pending } : { status: 200, body: { ...pending, status: 'paid' } }));
    expect(api.sent().at(-1)).toBe(`POST /v1/marketplaces/${MKT}/invoices/${ID}/approve`);
    await api.run(['invoices', 'remove', ID, '--yes'], (req) => (req.method === 'GET' ? { status: 200, body: pending } : { status: 200, body: { ...pending, status: 'canceled' } }));
    expect(api.sent().at(-1)).toBe(`DELETE /v1/marketplaces/${MKT}/invoices/${ID}`);
  });

  it('a refund whose answer was lost is confirmed from the invoice', async ({ api }) => {
    let gets = 0;
    const result = await api.run(['invoices', 'refund', ID, '--yes'], (req) => {
      if (req.method === 'DELETE') return { destroy: true };
      gets++;
      return gets === 1 ? { status: 200, body: { id: ID, status: 'paid', amount: 100 } } : { status: 200, body: { id: ID, status: 'canceled', amount: 100, voided_at: '2026-01-01T00:00:00.000Z' } };
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).status).toBe('canceled');
  });
});

describe('sandbox clock', () => {
  it('clock and advance', async ({ api }) => {
    await api.run(['sandbox', 'clock'], [{ status: 200, body: { now: '2026-01-01T00:00:00.000Z', offset_seconds: 0 } }]);
    expect(api.sent()).toEqual(['GET /v1/sandbox/clock']);
    const result = await api.run(['sandbox', 'advance', '--days', '30'], [{ status: 200, body: { now: '2026-01-31T00:00:00.000Z', billed: [{}, {}], expired: [], overdue: [] } }]);
    expect(result.code).toBe(0);
    expect(api.sent()).toEqual(['POST /v1/sandbox/clock/advance']);
    expect(api.server.requests[0]!.json).toEqual({ days: 30 });
    expect(result.stderr).toContain('2 billings');
    for (const days of ['0', '-1', '1.5', 'x', '4000']) {
      const bad = await api.run(['sandbox', 'advance', '--days', days], []);
      expect(bad.code, days).toBe(2);
      expect(api.server.requests).toHaveLength(0);
    }
  });
});

describe('plans update with a plan the service holds in a shape its own update refuses', () => {
  it('names the field and the flag that replaces it; nothing is sent', async ({ api }) => {
    const held = { uuid: ID, name: 'Mensal', frequency: 'monthly', interval: 1, currency: 'reais', payment_methods: ['credit'], amount: 2990, status: 'active' };
    const result = await api.run(['plans', 'update', ID, '--amount', '34.90'], (req) => ({ status: 200, body: held }));
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`error: plan ${ID} as the service holds it has a currency that its own update refuses (must be a three-letter currency code like BRL); give --currency to replace it\n`);
    expect(api.sent()).toEqual([`GET /v1/marketplaces/${MKT}/recurrence_plans/${ID}`]);
  });
});
