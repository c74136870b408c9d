// Names, not ids, where a person reads: on a terminal a view shows the buyer, card, seller and plan
// a record refers to by name (its id beside it), the view after a create is the view get shows,
// and a question names what it is about. JSON stays the API's object, and a name that cannot be
// read leaves the id, without failing the command or costing more than one read a record.
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { SANDBOX_BUYER_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { converse, KEY } from '../helpers/interactive.js';
import { recordingServer, type RecordedRequest, type Reply } from '../helpers/recording-server.js';
import { cardFlags, expectJson, MASTERCARD, present, RECORDED_MARKETPLACE, run, runAgainst } from './helpers.js';
const json = async <const A extends readonly string[]>(home: string, args: A, stdin?: string) => expectJson(await run(home, [...args, '-o', 'json'], stdin === undefined ? {} : { stdin }));
const ID = /\b([0-9a-f]{32})\b/;

/** What a person sees on an 80-column terminal. */
async function view(home: string, args: string[]): Promise<string> {
  const result = await run(home, [...args, '--no-color', '--no-pager'], { tty: true, columns: 80 });
  expect(result.code, result.stderr).toBe(0);
  // `buyers get` goes on with the buyer's recent sales: not part of the view.
  return result.stdout.split('\nRecent sales')[0] as string;
}

/** The view's title without its id, then each line's label (a section's title, then its lines'); wrapped lines are not labels. */
function labels(text: string): string[] {
  const lines = text.split('\n').filter((line) => /^( {2})?\S/.test(line));
  return lines.map((line, i) => (i === 0 ? line.replace(/ [0-9a-f]{32}.*$/, '') : (line.trim().split(/\s{2,}/)[0] as string)));
}

/** The value beside a label, as shown. */
function line(text: string, label: string): string | undefined {
  const found = text.split('\n').find((l) => l.trimStart().startsWith(`${label}  `));
  return found?.trim().slice(label.length).trim();
}

async function sandboxBuyerName(home: string): Promise<string> {
  const buyer = await json(home, ['buyers', 'get', SANDBOX_BUYER_ID]);
  return `${buyer.first_name} ${buyer.last_name}`;
}

/** A MasterCard ••••4444 of the sandbox's buyer. */
async function mastercard(home: string) {
  const token = await json(home, ['cards', 'tokenize', ...cardFlags(MASTERCARD, { '--holder-name': 'Joana Pereira' })]);
  return json(home, ['cards', 'associate', '--token', token.id, '--customer', SANDBOX_BUYER_ID]);
}

describe('the view after a create is the view get shows', () => {
  it('for every resource: the same labels, on a terminal', async ({ home }) => {
    const plan = await json(home, ['plans', 'create', '--name', 'Plano Ouro', '--amount', '29.90', '--frequency', 'monthly']);
    const card = await mastercard(home);
    // [the create, the get given the id its view is titled with, labels only the create has]
    const cases: Array<[string[], (id: string) => string[], string[]?]> = [
      [['buyers', 'create', '--first-name', 'Ana', '--last-name', 'Souza', '--taxpayer-id', '111.444.777-35', '--email', 'ana@example.com', '--metadata', 'origem=balcao'], (id) => ['buyers', 'get', id]],
      [['sellers', 'create', '--first-name', 'João', '--last-name', 'Souza', '--taxpayer-id', '529.982.247-25', '--email', 'joao@example.com'], (id) => ['sellers', 'get', id]],
      [['plans', 'create', '--name', 'Plano Prata', '--amount', '19.90', '--frequency', 'monthly'], (id) => ['plans', 'get', id]],
      [['subscriptions', 'create', '--plan', plan.uuid, '--customer', SANDBOX_BUYER_ID, '--card', card.id], (id) => ['subscriptions', 'get', id]],
      [['invoices', 'create', '--customer', SANDBOX_BUYER_ID, '--amount', '150', '--description', 'Taxa de adesão'], (id) => ['invoices', 'get', id]],
      [['transactions', 'create', '--amount', '49.90', ...cardFlags(MASTERCARD)], (id) => ['transactions', 'get', id]],
      [['sources', 'create', '--card', card.id, '--usage', 'reusable'], (id) => ['sources', 'get', id]],
      [['webhooks', 'create', '--url', 'https://shop.example.com/hooks', '--event', 'transaction.succeeded'], (id) => ['webhooks', 'get', id], ['Secret']],
    ];
    for (const [create, get, createOnly = []] of cases) {
      const created = await view(home, create);
      const id = ID.exec(created.split('\n')[0] as string)?.[1] as string;
      expect(id, created).toMatch(/^[0-9a-f]{32}$/);
      // Never a dump of the API's keys.
      expect(created, create.join(' ')).not.toMatch(/^(id|uuid|resource|created_at) {2}/m);
      const got = await view(home, get(id));
      expect(labels(created).filter((l) => !createOnly.includes(l)), create.join(' ')).toEqual(labels(got));
    }
    // A card associated, then looked up.
    const token = await json(home, ['cards', 'tokenize', ...cardFlags(MASTERCARD)]);
    const associated = await view(home, ['cards', 'associate', '--token', token.id, '--customer', SANDBOX_BUYER_ID]);
    const cardId = ID.exec(associated.split('\n')[0] as string)?.[1] as string;
    expect(labels(associated)).toEqual(labels(await view(home, ['cards', 'get', cardId])));
  });
});

describe('names, not ids, on a terminal', () => {
  it('a subscription: its plan, buyer, card and seller by name, each id beside it; JSON keeps the ids', async ({ home }) => {
    const name = await sandboxBuyerName(home);
    const plan = await json(home, ['plans', 'create', '--name', 'Plano Ouro', '--amount', '29.90', '--frequency', 'monthly']);
    const card = await mastercard(home);
    // The service spells the brand "MasterCard".
    expect(card.card_brand).toBe('MasterCard');
    const sub = await json(home, ['subscriptions', 'create', '--plan', plan.uuid, '--customer', SANDBOX_BUYER_ID, '--card', card.id]);
    const shown = await view(home, ['subscriptions', 'get', sub.uuid]);
    expect(line(shown, 'Plan')).toBe(`Plano Ouro  ${plan.uuid}`);
    expect(line(shown, 'Customer')).toBe(`${name}  ${SANDBOX_BUYER_ID}`);
    expect(line(shown, 'Card')).toBe(`MasterCard ••••4444  ${card.id}`);
    expect(line(shown, 'Seller')).toBe(`Loja Sandbox Ltda  ${SANDBOX_SELLER_ID}`);
    for (const l of shown.split('\n')) expect(l.length, l).toBeLessThanOrEqual(80);
    // JSON (and a table piped to a file) is the API's object: ids under their own names.
    expect(await json(home, ['subscriptions', 'get', sub.uuid])).toMatchObject({ plan: plan.uuid, customer: SANDBOX_BUYER_ID, card: card.id, on_behalf_of: SANDBOX_SELLER_ID });
    const piped = await run(home, ['subscriptions', 'get', sub.uuid, '-o', 'table', '--no-color']);
    expect(line(piped.stdout, 'Customer')).toBe(SANDBOX_BUYER_ID);
    // An invoice names its buyer and its subscription (by the description the subscription took from the plan).
    await json(home, ['sandbox', 'advance', '--days', '31']);
    const invoice = present((await json(home, ['invoices', 'list', '--subscription', sub.uuid, '--limit', '1']))[0], 'the invoice');
    const invoiceView = await view(home, ['invoices', 'get', invoice.id]);
    expect(line(invoiceView, 'Subscription')).toBe(`Plano Ouro  ${sub.uuid}`);
    expect(line(invoiceView, 'Customer')).toBe(`${name}  ${SANDBOX_BUYER_ID}`);
    // A buyer's default card (the one the sandbox seeds), a sale's seller and buyer.
    const { default_credit: defaultCard } = await json(home, ['buyers', 'get', SANDBOX_BUYER_ID]);
    expect(line(await view(home, ['buyers', 'get', SANDBOX_BUYER_ID]), 'Default card')).toBe(`Visa ••••1111  ${defaultCard}`);
    const boleto = await json(home, ['transactions', 'create', '--payment-type', 'boleto', '--amount', '10', '--customer', SANDBOX_BUYER_ID]);
    const sale = await view(home, ['transactions', 'get', boleto.id]);
    expect(line(sale, 'Customer')).toBe(`${name}  ${SANDBOX_BUYER_ID}`);
    expect(line(sale, 'Seller')).toBe(`Loja Sandbox Ltda  ${SANDBOX_SELLER_ID}`);
  });

  it('lifecycle verbs print views: a boleto cancellation, a payment, a removal', async ({ home }) => {
    const name = await sandboxBuyerName(home);
    const boleto = await json(home, ['transactions', 'create', '--payment-type', 'boleto', '--amount', '10', '--customer', SANDBOX_BUYER_ID]);
    const canceled = await view(home, ['boletos', 'cancel', boleto.id, '--yes']);
    expect(canceled.split('\n')[0]).toBe(`Boleto of transaction ${boleto.id}  Requested`);
    expect(line(canceled, 'Amount')).toBe('R$ 10,00');
    expect(line(canceled, 'Customer')).toBe(`${name}  ${SANDBOX_BUYER_ID}`);
    const pix = await json(home, ['transactions', 'create', '--payment-type', 'pix', '--amount', '5']);
    expect((await view(home, ['sandbox', 'pay', pix.id])).split('\n')[0]).toBe(`Transaction ${pix.id}  succeeded`);
    const buyer = await json(home, ['buyers', 'create', '--first-name', 'Ana', '--taxpayer-id', '111.444.777-35']);
    const removed = await view(home, ['buyers', 'remove', buyer.id, '--yes']);
    expect(removed).toBe(`Buyer ${buyer.id}  removed\nName  Ana, ***.***.*77-35\n`);
  });

  it('the suspend question names the buyer; answering no sends nothing', async ({ home }) => {
    const name = await sandboxBuyerName(home);
    const plan = await json(home, ['plans', 'create', '--name', 'Plano Ouro', '--amount', '29.90', '--frequency', 'monthly']);
    const sub = await json(home, ['subscriptions', 'create', '--plan', plan.uuid, '--customer', SANDBOX_BUYER_ID]);
    const asked = await converse(['subscriptions', 'suspend', sub.uuid, '--no-color'], home, [
      { prompt: new RegExp(`Suspend subscription ${sub.uuid} \\(${name}, R\\$ 29,90 per cycle\\)\\? No charges until it is reactivated\\.`), keys: `n${KEY.enter}` },
    ]);
    expect(asked.code, asked.stderr).toBe(3);
    expect((await json(home, ['subscriptions', 'get', sub.uuid])).status).toBe('active');
  });
});

describe('a name that cannot be read', () => {
  const S = 's'.repeat(32).replace(/s/g, '5');
  const B = 'b'.repeat(32);
  const C = 'c'.repeat(32);
  const P = 'd'.repeat(32);
  const SELLER = 'e'.repeat(32);
  const PREFIX = `/v1/marketplaces/${RECORDED_MARKETPLACE}`;
  const subscription = (status: string) => ({ uuid: S, resource: 'subscription', status, amount: 2990, currency: 'BRL', plan: P, customer: B, card: C, payment_method: 'credit', on_behalf_of: SELLER, due_date: '2026-12-05' });
  // The buyer is not there, the card answers as another card, the plan has no name: only the seller has one.
  const route = (req: RecordedRequest): Reply => {
    if (req.path === `${PREFIX}/recurrence_subscriptions/${S}/suspend`) return { status: 200, body: subscription('suspended') };
    if (req.path === `${PREFIX}/recurrence_subscriptions/${S}`) return { status: 200, body: subscription('active') };
    if (req.path === `${PREFIX}/buyers/${B}`) return { status: 404, body: { error: { status_code: 404, type: 'invalid_request_error', category: 'resource_not_found', message: 'Sorry, the buyer does not exist' } } };
    if (req.path === `${PREFIX}/cards/${C}`) return { status: 200, body: { id: 'f'.repeat(32), resource: 'card', card_brand: 'Visa', last4_digits: '1111' } };
    if (req.path === `${PREFIX}/recurrence_plans/${P}`) return { status: 200, body: { uuid: P, resource: 'plan', name: null, status: 'active' } };
    // Untrusted text, like any the service returns: what could repaint a terminal goes.
    if (req.path === `${PREFIX}/sellers/${SELLER}`) return { status: 200, body: { id: SELLER, resource: 'seller', type: 'business', business_name: 'Loja Azul\x1b[31m Ltda\u202e' } };
    return { status: 500, body: { error: { message: 'unexpected' } } };
  };
  const asked = (requests: RecordedRequest[]) => requests.map((r) => `${r.method} ${r.path.slice(PREFIX.length)}`).sort();

  it('leaves its id; the others are named; each record is read once; the command succeeds', async ({ home }) => {
    const { result, requests } = await runAgainst(home, ['subscriptions', 'get', S, '--no-color', '--no-pager'], route, { tty: true, columns: 80 });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(line(result.stdout, 'Customer')).toBe(B);
    expect(line(result.stdout, 'Card')).toBe(C);
    expect(line(result.stdout, 'Plan')).toBe(P);
    expect(line(result.stdout, 'Seller')).toBe(`Loja Azul Ltda  ${SELLER}`);
    expect(result.stdout).not.toMatch(/undefined|null|\x1b|\u202e/);
    expect(asked(requests)).toEqual([`GET /buyers/${B}`, `GET /cards/${C}`, `GET /recurrence_plans/${P}`, `GET /recurrence_subscriptions/${S}`, `GET /sellers/${SELLER}`]);
  });

  it('JSON and a table not on a terminal read nothing more than the object', async ({ home }) => {
    for (const args of [['-o', 'json'], ['-o', 'ndjson'], ['-o', 'csv'], ['-o', 'table']]) {
      const { result, requests } = await runAgainst(home, ['subscriptions', 'get', S, ...args], route);
      expect(result.code, result.stderr).toBe(0);
      expect(asked(requests), args.join(' ')).toEqual([`GET /recurrence_subscriptions/${S}`]);
    }
  });

  it('the question falls back to the id, and the view after it does not read the buyer again', async ({ home }) => {
    const server = await recordingServer(route);
    try {
      const env = { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: 'zpk_live_abcdefgh12345678', PAYCTL_MARKETPLACE_ID: RECORDED_MARKETPLACE, PAYCTL_PAGER: 'cat' };
      const result = await converse(['subscriptions', 'suspend', S, '--no-color'], home, [
        { prompt: new RegExp(`Suspend subscription ${S} \\(buyer ${B}, R\\$ 29,90 per cycle\\)\\?`), keys: `y${KEY.enter}` },
      ], env);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.split('\n')[0]).toBe(`Subscription ${S}  suspended`);
      expect(line(result.stdout, 'Customer')).toBe(B);
      expect(server.requests.filter((r) => r.path.endsWith(`/buyers/${B}`))).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
