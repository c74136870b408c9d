import { createHmac } from 'node:crypto';
import { createServer } from 'node:net';
import { describe, expect } from 'vitest';
import { listenColumns } from '../../src/commands/webhooks/shared.js';
import { test as it } from '../helpers/fixtures.js';
import { payctl } from '../helpers/run.js';
import { recordingServer, times } from '../helpers/recording-server.js';
import { createCard, expectError, expectJson, expectUsage, present, run } from './helpers.js';

// Webhooks and events from the CLI: what is sent, what is refused before sending, and `listen`
// printing deliveries as they arrive, checking signatures and forwarding to a local app.
const json = async <const A extends readonly string[]>(home: string, args: A) => expectJson(await run(home, [...args, '-o', 'json']));

async function until<T>(what: () => Promise<T>, ok: (v: T) => boolean, ms = 5_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await what();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** The documented scheme, written out here rather than imported, so the test checks docs/webhooks.md's words. */
const sign = (secret: string, body: string, t = Math.floor(Date.now() / 1000)) => `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;

const event = (id: string, object: string) => ({ id, type: 'invoice.paid', resource: 'event', payload: { object: { id: object } }, created_at: '2026-11-22T10:00:00.000Z' });

/** One POST to the listener, as a sender would make it; status 0 while nothing listens yet. */
function deliver(port: number, body: string, signature?: string): Promise<{ status: number; retryAfter: string | null }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-payctl-delivery': String(JSON.parse(body).id) };
  if (signature !== undefined) headers['x-payctl-signature'] = signature;
  return fetch(`http://127.0.0.1:${port}/webhooks`, { method: 'POST', body, headers }).then(
    (r) => ({ status: r.status, retryAfter: r.headers.get('retry-after') }),
    () => ({ status: 0, retryAfter: null }),
  );
}

describe('webhooks create, list, get, remove', () => {
  it('sends the provider body, shows the secret once, and remove asks first', async ({ home }) => {
    const api = await recordingServer([{ status: 201, body: { id: 'w'.repeat(32), resource: 'webhook', events: ['transaction.succeeded'], status: 'enabled', secret: 'whsec_x' } }]);
    try {
      const result = await payctl(['webhooks', 'create', '--url', 'https://shop.example.com/hooks', '--event', 'transaction.succeeded', '--event', 'invoice.paid,transaction.failed', '--description', 'loja', '-o', 'json'], {
        home,
        env: { PAYCTL_BASE_URL: api.url, PAYCTL_API_KEY: 'zpk_live_webhookkey01', PAYCTL_MARKETPLACE_ID: 'm'.repeat(32) },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(api.requests[0]).toMatchObject({ method: 'POST', path: `/v1/marketplaces/${'m'.repeat(32)}/webhooks` });
      expect(api.requests[0]!.json).toEqual({ method: 'POST', url: 'https://shop.example.com/hooks', description: 'loja', event: ['transaction.succeeded', 'invoice.paid', 'transaction.failed'] });
      expect(result.stderr).toContain('shown only now');
    } finally {
      await api.close();
    }

    const created = await json(home, ['webhooks', 'create', '--url', 'https://example.com/h', '--event', '*']);
    expect(created).toMatchObject({ events: ['*'], status: 'enabled', secret: expect.stringMatching(/^whsec_/) });
    expect((await json(home, ['webhooks', 'list'])).map((w) => w.id)).toEqual([created.id]);
    expect((await json(home, ['webhooks', 'get', created.id])).secret).toBeUndefined();
    expectUsage(await run(home, ['webhooks', 'remove', created.id]), '--yes required');
    expect(await json(home, ['webhooks', 'remove', created.id, '--yes'])).toMatchObject({ id: created.id, deleted: true });
    expectError(await run(home, ['webhooks', 'get', created.id]), 5);
  });

  it('refuses a non-https URL, an unknown event type, and missing flags, before sending', async ({ home }) => {
    expectUsage(await run(home, ['webhooks', 'create', '--url', 'http://shop.example.com/h', '--event', '*']), '--url', 'https://');
    expectUsage(await run(home, ['webhooks', 'create', '--url', 'shop/h', '--event', '*']), '--url', 'absolute URL');
    expectUsage(await run(home, ['webhooks', 'create', '--url', 'https://example.com', '--event', 'transaction.exploded']), '--event', 'transaction.exploded');
    // A typo gets the type it is a typo of, not the list of every type; a type of a known resource
    // that is no typo gets that resource's types.
    const typo = expectUsage(await run(home, ['webhooks', 'create', '--url', 'https://example.com', '--event', 'transaction.succeded']), '--event');
    expect(typo).toBe('error: --event: unknown event type transaction.succeded (did you mean transaction.succeeded?)');
    const two = expectUsage(await run(home, ['webhooks', 'listen', '--event', 'invoice.piad,buyer.craeted']), '--event');
    expect(two).toBe('error: --event: unknown event types invoice.piad (did you mean invoice.paid?), buyer.craeted (did you mean buyer.created?)');
    const exploded = expectUsage(await run(home, ['webhooks', 'create', '--url', 'https://example.com', '--event', 'transaction.exploded']), '--event');
    expect(exploded).toMatch(/^error: --event: unknown event type transaction\.exploded; the transaction events are transaction\.created, transaction\.updated, .*transaction\.charged_back$/);
    expect(exploded).not.toContain('invoice.');
    expect(expectUsage(await run(home, ['events', 'list', '--type', 'sale.done']), '--type')).toContain("use '*' or one of transaction.created,");
    expectUsage(await run(home, ['webhooks', 'create', '--no-input']), '--url', '--event');
    expectUsage(await run(home, ['webhooks', 'listen', '--port', '70000']), '--port');
    expectUsage(await run(home, ['webhooks', 'listen', '--forward-to', 'http://example.com/x']), '--forward-to');
  });
});

describe('events list, get, replay', () => {
  it('lists what happened, filters by type, shows one, replays one', async ({ home }) => {
    const sale = await createCard(home, '12.00');
    const events = await json(home, ['events', 'list', '--all']);
    expect(events.map((e) => e.type)).toEqual(['transaction.succeeded', 'transaction.created']);
    const [succeeded, created] = [present(events[0]), present(events[1])];
    expect(succeeded.payload.object).toMatchObject({ id: sale.id });
    expect((await json(home, ['events', 'list', '--type', 'transaction.created'])).map((e) => e.type)).toEqual(['transaction.created']);
    expect(await json(home, ['events', 'get', created.id])).toEqual(created);
    expect(await json(home, ['events', 'replay', succeeded.id])).toMatchObject({ event: succeeded.id, webhooks: [] });
    expectUsage(await run(home, ['events', 'list', '--type', 'sale.done']), '--type');
    const table = await run(home, ['events', 'list', '--no-color'], { tty: true });
    expect(table.stdout).toMatch(new RegExp(`^TIME\\s+TYPE\\s+ID\\s+OBJECT\\n.*transaction\\.succeeded\\s+${succeeded.id}\\s+${sale.id}`));
  });
});

describe('webhooks listen', () => {
  it('against the embedded sandbox: registers itself, prints deliveries as NDJSON when piped, removes itself', async ({ home }) => {
    const listening = run(home, ['webhooks', 'listen', '--max-events', '2']);
    const registered = await until(() => json(home, ['webhooks', 'list']), (list) => list.length === 1);
    const webhook = present(registered[0], 'the listener\'s webhook');
    expect(webhook).toMatchObject({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/), events: ['*'] });
    const sale = await createCard(home, '20.00');
    const result = await listening;
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    const events = lines.map((l) => JSON.parse(l));
    expect(events.map((e) => e.type)).toEqual(['transaction.created', 'transaction.succeeded']);
    expect(events.every((e) => e.resource === 'event' && e.payload.object.id === sale.id)).toBe(true);
    expect(result.stderr).toContain(`registered as webhook ${webhook.id}`);
    expect(result.stderr).toContain(`removed webhook ${webhook.id}`);
    expect(await json(home, ['webhooks', 'list'])).toEqual([]);
  });

  it('with a known secret: prints a delivery once, refuses a missing, malformed, wrong, tampered or stale signature', async ({ home }) => {
    // Two events are forwarded, each once.
    const app = await recordingServer(times(2, { status: 202 }));
    const port = await freePort();
    const secret = 'whsec_localsecret';
    // A live-like account: nothing to register with, the secret comes from the flag.
    const listening = payctl(['webhooks', 'listen', '--port', String(port), '--secret', secret, '--tolerance', '120', '--forward-to', `${app.url}/hook`, '--max-events', '2'], {
      home,
      env: { PAYCTL_BASE_URL: 'https://api.example.com', PAYCTL_API_KEY: 'zpk_live_listenkey0001' },
    });
    try {
      const first = event('e'.repeat(32), 'i1');
      const second = event('f'.repeat(32), 'i2');
      const post = (body: string, signature?: string) => until(() => deliver(port, body, signature).then((r) => r.status), (status) => status !== 0);
      const body = JSON.stringify(first);
      const now = Math.floor(Date.now() / 1000);
      expect(await post(body)).toBe(400);
      expect(await post(body, `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`)).toBe(400);
      expect(await post(body, sign('whsec_guessed', body))).toBe(401);
      expect(await post(body.replace('i1', 'i9'), sign(secret, body))).toBe(401);
      // Outside --tolerance either way: a genuine signature from too long ago (or ahead) is refused.
      expect(await post(body, sign(secret, body, now - 200))).toBe(401);
      expect(await post(body, sign(secret, body, now + 200))).toBe(401);
      // Signed, but not an event: refused like any answer that does not fit its schema.
      const junk = JSON.stringify({ id: null, payload: 'x' });
      expect(await post(junk, sign(secret, junk))).toBe(400);
      // Within the tolerance: taken, printed and forwarded once; the same delivery again
      // (captured and posted again, or re-signed as a sender's retry) is acknowledged, nothing more.
      const captured = sign(secret, body, now - 100);
      expect(await post(body, captured)).toBe(200);
      expect(await post(body, captured)).toBe(200);
      expect(await post(body, sign(secret, body))).toBe(200);
      const next = JSON.stringify(second);
      expect(await post(next, sign(secret, next))).toBe(200);
      const result = await listening;
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual([first, second]);
      expect(result.stderr).toContain(`rejected a delivery that has no X-Payctl-Signature (event ${first.id}); not printed`);
      expect(result.stderr).toContain('has an X-Payctl-Signature that is not t=<unix seconds>,v1=<hex>');
      expect(result.stderr.match(/does not match its body/g)).toHaveLength(2);
      expect(result.stderr.match(/is signed more than 120 s from this machine's clock/g)).toHaveLength(2);
      expect(result.stderr).toContain('rejected a delivery that is not an event (id: expected a string, got null; type: expected an event type (a string); payload: expected an object, got a string)');
      expect(result.stderr.match(new RegExp(`acknowledged ${first.id} again`, 'g'))).toHaveLength(2);
      expect(result.stderr).toContain(`forwarded ${first.id} (invoice.paid) to ${app.url}/hook: 202`);
      expect(app.requests.map((r) => r.body)).toEqual([body, next]);
      expect(app.requests[0]!.headers['x-payctl-signature']).toBe(captured);
    } finally {
      await app.close();
    }
  });

  it('on a terminal: a row an event, in columns that line up whatever each event holds: when, what, the object, its amount and status', async ({ home }) => {
    const secret = 'whsec_layoutsecret';
    const deliveries = [
      { type: 'buyer.created', object: { id: 'b'.repeat(32), resource: 'buyer', status: 'active' } },
      { type: 'transaction.succeeded', object: { id: 't'.repeat(32), resource: 'transaction', amount: '25.00', currency: 'BRL', status: 'succeeded' } },
      { type: 'transaction.partial_refunded', object: { id: 'u'.repeat(32), resource: 'transaction', amount: '1234.56', currency: 'BRL', status: 'pre_authorized' } },
      { type: 'invoice.paid', object: { id: 'i'.repeat(32), resource: 'invoice', amount: 7, status: 'paid' } },
    ].map((d, i) => ({ id: String(i + 1).repeat(32), resource: 'event', type: d.type, payload: { object: d.object }, created_at: `2026-11-22T10:0${i}:00.000Z` }));
    const shown = async (columns: number) => {
      const port = await freePort();
      const listening = payctl(['webhooks', 'listen', '--port', String(port), '--secret', secret, '--max-events', String(deliveries.length), '--no-color'], {
        home,
        tty: true,
        columns,
        env: { PAYCTL_BASE_URL: 'https://api.example.com', PAYCTL_API_KEY: 'zpk_live_listenkey0001' },
      });
      // One at a time, as events arrive: each row is printed before the next is delivered.
      for (const e of deliveries) {
        const body = JSON.stringify(e);
        expect(await until(() => deliver(port, body, sign(secret, body)).then((r) => r.status), (status) => status !== 0)).toBe(200);
      }
      const result = await listening;
      expect(result.code, result.stderr).toBe(0);
      return result.stdout.trimEnd().split('\n');
    };
    const wide = await shown(120);
    expect(wide[0]?.split(/ {2,}/)).toEqual(['TIME (UTC)', 'TYPE', 'OBJECT', 'AMOUNT', 'STATUS']);
    const rows = wide.slice(1);
    expect(rows).toHaveLength(4);
    // Left-aligned columns start where their header does; amounts end where AMOUNT does.
    const at = (word: string) => (wide[0] as string).indexOf(word);
    const amountEnd = at('AMOUNT') + 'AMOUNT'.length;
    const cells = [
      ['2026-11-22 10:00', 'buyer.created', 'b'.repeat(32), '', 'active'],
      ['2026-11-22 10:01', 'transaction.succeeded', 't'.repeat(32), 'R$ 25,00', 'succeeded'],
      ['2026-11-22 10:02', 'transaction.partial_refunded', 'u'.repeat(32), 'R$ 1.234,56', 'pre_authorized'],
      ['2026-11-22 10:03', 'invoice.paid', 'i'.repeat(32), 'R$ 7,00', 'paid'],
    ];
    for (const [i, [time, type, object, amount, status]] of cells.entries()) {
      const row = rows[i] as string;
      expect(row.startsWith(time as string), row).toBe(true);
      expect(row.indexOf(type as string), row).toBe(at('TYPE'));
      expect(row.indexOf(object as string), row).toBe(at('OBJECT'));
      if (amount) expect(row.indexOf(amount) + amount.length, row).toBe(amountEnd);
      expect(row.indexOf(` ${status}`) + 1, row).toBe(at('STATUS'));
      expect(row.length).toBeLessThanOrEqual(120);
    }
    // Too narrow for a row: each event is a block of its own, everything in it.
    const narrow = await shown(80);
    expect(narrow.slice(0, 6)).toEqual(['TIME (UTC)  2026-11-22 10:00', 'TYPE        buyer.created', `OBJECT      ${'b'.repeat(32)}`, 'STATUS      active', `EVENT       ${'1'.repeat(32)}`, '']);
    for (const line of narrow) expect(line.length).toBeLessThanOrEqual(80);
  });

  it("names the zone of its times in the time column's header, UTC's too", ({ env }) => {
    env.TZ = 'UTC';
    expect(listenColumns(['*'], false)[0]?.header).toBe('TIME (UTC)');
    env.TZ = 'America/Sao_Paulo';
    expect(listenColumns(['*'], false)[0]?.header).toBe('TIME (UTC−03:00)');
    // As wide as the longest type it can show.
    expect(listenColumns(['invoice.paid', 'buyer.created'], false)[1]).toMatchObject({ header: 'TYPE', width: 'buyer.created'.length });
  });

  it('answers 503 until it has the secret: deliveries posted during start-up are never printed or forwarded', async ({ home }) => {
    const secret = `whsec_${'a'.repeat(48)}`;
    const webhookId = 'w'.repeat(32);
    // `sandbox serve` with a test key (known by its clock), whose registration answer (and so the
    // secret) is held back.
    const api = await recordingServer((req) => {
      if (req.path === '/v1/sandbox/clock') return { status: 200, body: { now: new Date().toISOString(), offset_seconds: 0 } };
      return req.method === 'POST'
        ? { status: 201, delayMs: 1_500, body: { id: webhookId, resource: 'webhook', events: ['*'], status: 'enabled', secret } }
        : { status: 200, body: { id: webhookId, resource: 'webhook', deleted: true } };
    });
    const app = await recordingServer([{ status: 200 }]);
    const port = await freePort();
    const listening = payctl(['webhooks', 'listen', '--port', String(port), '--forward-to', `${app.url}/hook`, '--max-events', '1'], {
      home,
      env: { PAYCTL_BASE_URL: api.url, PAYCTL_API_KEY: 'zpk_test_listenkey0001', PAYCTL_MARKETPLACE_ID: 'm'.repeat(32) },
    });
    try {
      await until(async () => api.requests.length, (n) => n >= 2);
      const forged = Array.from({ length: 10 }, (_, i) => event(i.toString(16).repeat(32), `forged${i}`));
      const early: Array<{ status: number; retryAfter: string | null }> = [];
      for (const [i, e] of forged.entries()) {
        const body = JSON.stringify(e);
        // Unsigned, signed with a guess, and even signed with the real secret: none is taken yet.
        early.push(await deliver(port, body, [undefined, sign('whsec_guessed', body), sign(secret, body)][i % 3]));
      }
      expect(early).toEqual(forged.map(() => ({ status: 503, retryAfter: '1' })));
      // Once registered, the unsigned ones are refused and the genuine one taken.
      expect(await until(() => deliver(port, JSON.stringify(forged[0])).then((r) => r.status), (status) => status !== 503)).toBe(400);
      const stale = JSON.stringify(forged[1]);
      expect((await deliver(port, stale, sign(secret, stale, Math.floor(Date.now() / 1000) - 301))).status).toBe(401);
      const genuine = event('d'.repeat(32), 'real');
      const body = JSON.stringify(genuine);
      expect((await deliver(port, body, sign(secret, body))).status).toBe(200);
      const result = await listening;
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual([genuine]);
      expect(result.stderr).not.toContain('forged');
      expect(app.requests.map((r) => r.body)).toEqual([body]);
      expect(api.requests.map((r) => r.method)).toEqual(['GET', 'POST', 'DELETE']);
    } finally {
      await app.close();
      await api.close();
    }
  });

  it('against a live account, refuses to start without --secret', async ({ home }) => {
    const result = await payctl(['webhooks', 'listen', '--max-events', '1'], {
      home,
      env: { PAYCTL_BASE_URL: 'https://api.example.com', PAYCTL_API_KEY: 'zpk_live_listenkey0001' },
    });
    expectUsage(result, '--secret');
    expectUsage(await run(home, ['webhooks', 'listen', '--tolerance', '0']), '--tolerance');
  });
});
