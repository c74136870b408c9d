import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { SANDBOX_BUYER_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import type { RecordedRequest } from '../helpers/recording-server.js';
import { expectError, expectJson, expectUsage, RECORDED_MARKETPLACE, run, runAgainst } from './helpers.js';

// --seller on every list of things a seller owns: with two sellers that each have sales, every such
// list shows that seller's records only; and each asks the seller's own path for them, never the
// marketplace's list.
const json = async <const A extends readonly string[]>(home: string, args: A) => expectJson(await run(home, [...args, '-o', 'json']));
const created = async (home: string, args: string[]) => json(home, ['sellers', 'create', ...args]);
const SELLER = 'c'.repeat(32);
const PREFIX = `/v1/marketplaces/${RECORDED_MARKETPLACE}`;
const PERSON = ['--first-name', 'João', '--last-name', 'Souza', '--taxpayer-id', '529.982.247-25', '--email', 'joao@example.com'];
const COMPANY = ['--business-name', 'Loja Azul Ltda', '--ein', '12.ABC.345/01DE-35', '--email', 'contato@lojaazul.com.br'];

describe('--seller: one seller\u2019s records, two sellers with sales each', () => {
  it('every seller-scoped list returns only that seller\u2019s records', async ({ home }) => {
    const a = await created(home, PERSON);
    const b = await created(home, COMPANY);
    const card = ['--card-number', '4111111111111111', '--holder-name', 'Maria Silva', '--exp-month', '12', '--exp-year', '2031', '--cvv', '123'];
    const sale = async (seller: string, amount: string) => json(home, ['transactions', 'create', '--amount', amount, ...card, '--on-behalf-of', seller]);
    const sales = { [a.id]: [await sale(a.id, '10.00'), await sale(a.id, '11.00')], [b.id]: [await sale(b.id, '20.00')] };
    await json(home, ['transactions', 'create', '--amount', '5', ...card]); // the seeded seller's
    const plan = await json(home, ['plans', 'create', '--name', 'Plano', '--amount', '29.90', '--frequency', 'monthly']);
    const subscription = await json(home, ['subscriptions', 'create', '--plan', plan.uuid, '--customer', SANDBOX_BUYER_ID, '--on-behalf-of', a.id]);
    const invoice = await json(home, ['invoices', 'create', '--customer', SANDBOX_BUYER_ID, '--amount', '150', '--on-behalf-of', b.id]);

    for (const seller of [a, b]) {
      const id = seller.id;
      const other = seller === a ? b.id : a.id;
      const txns = await json(home, ['transactions', 'list', '--seller', id, '--all']);
      expect(txns.length).toBeGreaterThan(0);
      expect(txns.every((t) => t.on_behalf_of === id)).toBe(true);
      expect(txns.map((t) => t.id)).toEqual(expect.arrayContaining(sales[id]!.map((t) => t.id)));
      expect(txns.map((t) => t.id)).not.toEqual(expect.arrayContaining([sales[other]![0]!.id]));
      // The provider's filters go along on the seller's path.
      expect((await json(home, ['transactions', 'list', '--seller', id, '--status', 'succeeded,failed', '--all'])).every((t) => t.on_behalf_of === id)).toBe(true);

      const receivables = await json(home, ['receivables', 'list', '--seller', id, '--all']);
      expect(receivables.length).toBeGreaterThan(0);
      expect(receivables.every((r) => r.recipient === id)).toBe(true);
      const future = await json(home, ['future-entries', 'list', '--seller', id, '--all']);
      expect(future.map((f) => f.receivable).sort()).toEqual(receivables.filter((r) => r.status === 'pending').map((r) => r.id).sort());

      const balance = await json(home, ['balances', 'get', '--seller', id]);
      expect(balance.owner).toBe(id);
      expect((await json(home, ['balances', 'current', '--seller', id])).account).toBe(balance.account);
      const history = await json(home, ['balances', 'history', '--seller', id, '--all']);
      expect(history.length).toBeGreaterThan(0);
      expect(history.every((e) => e.account === balance.account)).toBe(true);
      expect(history.reduce((sum, e) => sum + Math.round(Number(e.amount) * 100), 0)).toBe(Math.round(Number(balance.current_balance) * 100));

      const subscriptions = await json(home, ['subscriptions', 'list', '--seller', id]);
      expect(subscriptions.map((s) => s.uuid)).toEqual(seller === a ? [subscription.uuid] : []);
      const invoices = await json(home, ['invoices', 'list', '--seller', id, '--all']);
      expect(invoices.every((i) => i.on_behalf_of === id)).toBe(true);
      if (seller === b) expect(invoices.map((i) => i.id)).toEqual([invoice.id]);
    }

    // Payouts: a month on, every receivable of the first installment is paid to its own seller.
    await json(home, ['sandbox', 'advance', '--days', '31']);
    for (const seller of [a, b]) {
      const transfers = await json(home, ['transfers', 'list', '--seller', seller.id, '--all']);
      expect(transfers.length).toBeGreaterThan(0);
      expect(transfers.every((t) => t.on_behalf_of === seller.id)).toBe(true);
    }
    const all = await json(home, ['transfers', 'list', '--all']);
    expect(new Set(all.map((t) => t.on_behalf_of))).toEqual(new Set([a.id, b.id, SANDBOX_SELLER_ID]));

    // A seller the service does not know is its 404, not an empty list.
    expectError(await run(home, ['transactions', 'list', '--seller', 'f'.repeat(32)]), 5, 'HTTP 404');
  });
});

describe('--seller asks the seller path', () => {
  const page = { resource: 'list', items: [], has_more: false, total: 0, limit: 20, offset: 0 };
  const balance = { resource: 'balance', account: 'd'.repeat(32), owner: SELLER, type: 'seller', currency: 'BRL', current_balance: '0.00', future_entries: '0.00', available_balance: '0.00' };

  async function listed(home: string, args: string[]): Promise<{ requests: RecordedRequest[] }> {
    const { result, requests } = await runAgainst(home, args, (req) => ({ status: 200, body: /\/balances(\/current)?$/.test(req.path) ? balance : page }));
    expect(result.code, result.stderr).toBe(0);
    return { requests };
  }

  it('each seller-scoped list is one GET of its seller path', async ({ home }) => {
    const cases: Array<[string[], string]> = [
      [['transactions', 'list'], `/sellers/${SELLER}/transactions`],
      [['subscriptions', 'list'], `/sellers/${SELLER}/subscriptions`],
      [['invoices', 'list'], `/sellers/${SELLER}/invoices`],
      [['receivables', 'list'], `/sellers/${SELLER}/receivables`],
      [['transfers', 'list'], `/sellers/${SELLER}/transfers`],
      [['future-entries', 'list'], `/sellers/${SELLER}/future_entries`],
      [['balances', 'history'], `/sellers/${SELLER}/balances/history`],
      [['balances', 'get'], `/sellers/${SELLER}/balances`],
      [['balances', 'current'], `/sellers/${SELLER}/balances/current`],
    ];
    for (const [args, path] of cases) {
      const { requests } = await listed(home, [...args, '--seller', SELLER, '-o', 'json']);
      expect(requests.map((r) => `${r.method} ${r.path}`), args.join(' ')).toEqual([`GET ${PREFIX}${path}`]);
    }
    const { requests } = await listed(home, ['transactions', 'list', '--seller', SELLER, '--status', 'succeeded', '--reference-id', 'order-1', '-o', 'json']);
    expect(requests[0]?.url).toMatch(new RegExp(`^${PREFIX}/sellers/${SELLER}/transactions\\?`));
    const query = new URL(requests[0]!.url, 'http://x').searchParams;
    expect([query.get('status'), query.get('reference_id')]).toEqual(['succeeded', 'order-1']);
  });

  it('filters a seller path does not take are refused before anything is sent', async ({ home }) => {
    for (const [args, fragment] of [
      [['subscriptions', 'list', '--seller', SELLER, '--status', 'active'], '--status cannot be used with --seller'],
      [['invoices', 'list', '--seller', SELLER, '--customer', SANDBOX_BUYER_ID], '--customer cannot be used with --seller'],
      [['receivables', 'list', '--seller', SELLER, '--transaction', 'e'.repeat(32)], 'give --transaction or --seller, not both'],
      [['receivables', 'list', '--seller', SELLER, '--status', 'pending,paid'], '--status: give one, pending or paid'],
      [['balances', 'get', '--seller', SELLER, '--account', 'd'.repeat(32)], 'either --account or --seller'],
      [['balances', 'history', '--seller', SELLER, '--buyer', SANDBOX_BUYER_ID], 'either --buyer or --seller, not both'],
    ] as Array<[string[], string]>) {
      const { result, requests } = await runAgainst(home, args, []);
      expectUsage(result, fragment);
      expect(requests, args.join(' ')).toEqual([]);
    }
  });
});
