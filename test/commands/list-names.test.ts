// Names, not ids, in lists and status lines: on a terminal a list's columns that refer to a buyer,
// a seller, a plan or a subscription show it by name, as views do (names.test.ts). JSON, NDJSON,
// CSV and a table piped elsewhere keep the ids and cost no request; a name that cannot be read
// leaves the id, whole; a command reads a bounded number of names, a few at once, each once, and
// none more once the service is slow or failing.
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { NAMES_AT_ONCE, NAMES_PER_COMMAND } from '../../src/output/record-names.js';
import { SANDBOX_BUYER_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { listPage, numberedId } from '../helpers/hostile-lists.js';
import { providerError, type RecordedRequest, type Reply } from '../helpers/recording-server.js';
import { cardFlags, createCard, expectJson, MASTERCARD, present, RECORDED_MARKETPLACE, run, runAgainst } from './helpers.js';

/** Status lines as one line each: a terminal's stderr wraps them between words. */
const unwrapped = (text: string) => text.replace(/ ?\n(?!$)/g, ' ');
const json = async <const A extends readonly string[]>(home: string, args: A) => expectJson(await run(home, [...args, '-o', 'json']));

/** What a person sees on a terminal of `columns` columns: stdout and stderr. */
async function onTerminal(home: string, args: string[], columns = 160): Promise<{ stdout: string; stderr: string }> {
  const result = await run(home, [...args, '--no-color', '--no-pager'], { tty: true, columns });
  expect(result.code, result.stderr).toBe(0);
  return result;
}

const lines = (text: string) => text.trimEnd().split('\n');
/** The table's rows: its lines but the header, the totals under it and the note of its clock. */
const rowsOf = (lines: string[]) => lines.filter((line) => !/ {2}gross R\$ |^times in /.test(line));
/** The cells under `header` of a left-aligned column (where its header starts; names have single spaces, columns two or more). */
function column(text: string, header: string): string[] {
  const [head = '', ...rows] = lines(text);
  const at = new RegExp(`(?<=^|\\s)${header}(?=\\s|$)`).exec(head)?.index ?? -1;
  expect(at, `${header} in ${head}`).toBeGreaterThanOrEqual(0);
  return rowsOf(rows).map((row) => (/^\S/.test(row.slice(at)) ? (row.slice(at).split(/\s{2,}/)[0] as string) : ''));
}

async function sandboxBuyerName(home: string): Promise<string> {
  const buyer = await json(home, ['buyers', 'get', SANDBOX_BUYER_ID]);
  return `${buyer.first_name} ${buyer.last_name}`;
}

describe('lists on a terminal name the records they refer to', () => {
  it('subscriptions and invoices: the buyer, the plan and the subscription by name; at 80 columns a name is cut, never the amount or status; JSON keeps the ids', async ({ home }) => {
    const plan = await json(home, ['plans', 'create', '--name', 'Plano Ouro', '--amount', '29.90', '--frequency', 'monthly', '--payment-method', 'boleto']);
    const long = await json(home, ['buyers', 'create', '--first-name', 'Maria Aparecida', '--last-name', 'dos Santos Oliveira', '--taxpayer-id', '111.444.777-35']);
    const sub = await json(home, ['subscriptions', 'create', '--plan', plan.uuid, '--customer', long.id, '--payment-method', 'boleto']);

    const wide = (await onTerminal(home, ['subscriptions', 'list'])).stdout;
    expect(column(wide, 'CUSTOMER')).toEqual(['Maria Aparecida dos Santos Oliveira']);
    expect(column(wide, 'PLAN')).toEqual(['Plano Ouro']);
    expect(wide).not.toContain(long.id);

    const narrow = (await onTerminal(home, ['subscriptions', 'list'], 80)).stdout;
    for (const line of lines(narrow)) expect(line.length, line).toBeLessThanOrEqual(80);
    const [header, row] = lines(narrow).map((line) => line.split(/\s{2,}/));
    expect(header).toEqual(['ID', 'CUSTOMER', 'AMOUNT', 'STATUS', 'NEXT DUE']);
    expect(row?.[0]).toBe(sub.uuid);
    expect(row?.[1]).toMatch(/^Maria Apar[^…]*…$/);
    expect(row?.slice(2, 4)).toEqual(['R$ 29,90', 'active']);

    // JSON (and a table piped elsewhere) is the API's objects.
    expect((await json(home, ['subscriptions', 'list']))[0]).toMatchObject({ uuid: sub.uuid, customer: long.id, plan: plan.uuid });
    const piped = await run(home, ['subscriptions', 'list', '-o', 'table', '--no-color']);
    expect(column(piped.stdout, 'CUSTOMER')).toEqual([long.id]);

    // The first invoice: who owes it, and the subscription by its description (its plan's name).
    await json(home, ['sandbox', 'advance', '--days', '31']);
    const invoices = (await onTerminal(home, ['invoices', 'list', '--subscription', sub.uuid])).stdout;
    expect(column(invoices, 'CUSTOMER')[0]).toBe('Maria Aparecida dos Santos Oliveira');
    expect(column(invoices, 'SUBSCRIPTION')[0]).toBe('Plano Ouro');
    expect((await json(home, ['invoices', 'list', '--subscription', sub.uuid]))[0]).toMatchObject({ customer: long.id, subscription: sub.uuid });
  });

  it("a sale's split: its rules, its view and its receivables name the sellers; adding and removing one say whose part it is", async ({ home }) => {
    const other = (await json(home, ['sellers', 'create', '--business-name', 'Loja Azul Ltda', '--ein', '11.444.777/0001-61', '--email', 'azul@example.com'])).id as string;
    const sale = await createCard(home, '100.00');
    const added = await run(home, ['transactions', 'splits', 'add', sale.id, '--split', `${other}:30%`, '--yes', '--no-color'], { tty: true, columns: 120 });
    expect(added.code, added.stderr).toBe(0);
    expect(unwrapped(added.stderr)).toMatch(new RegExp(`Added split rule [0-9a-f]{32}: Loja Azul Ltda \\(seller ${other}\\) gets 30% \\(R\\$ 30,00\\) of transaction ${sale.id}`));

    expect(column((await onTerminal(home, ['transactions', 'splits', 'list', sale.id])).stdout, 'RECIPIENT')).toEqual(['Loja Azul Ltda']);
    const view = (await onTerminal(home, ['transactions', 'get', sale.id])).stdout;
    const split = view.slice(view.indexOf('\nSplit\n'));
    expect(column(split.split('\n').slice(2).join('\n'), 'RECIPIENT')).toEqual(['Loja Azul Ltda']);
    expect(split).not.toContain(other);
    expect(column((await onTerminal(home, ['receivables', 'list', '--transaction', sale.id])).stdout, 'RECIPIENT').sort()).toEqual(['Loja Azul Ltda', 'Loja Sandbox Ltda']);
    expect((await json(home, ['receivables', 'list', '--transaction', sale.id])).map((r) => r.recipient).sort()).toEqual([other, SANDBOX_SELLER_ID].sort());
    // Sums per seller: each seller's row by its name.
    expect(column((await onTerminal(home, ['transactions', 'list', '--group-by', 'seller'])).stdout, 'SELLER')).toEqual(['Loja Sandbox Ltda']);
    expect((await json(home, ['transactions', 'list', '--group-by', 'seller'])).map((g) => g.group)).toEqual([SANDBOX_SELLER_ID]);

    const rule = present((await json(home, ['transactions', 'splits', 'list', sale.id]))[0], 'the split rule');
    const removed = await run(home, ['transactions', 'splits', 'remove', sale.id, rule.id, '--yes', '--no-color'], { tty: true, columns: 120 });
    expect(removed.code, removed.stderr).toBe(0);
    expect(unwrapped(removed.stderr)).toContain(`the part of Loja Azul Ltda (seller ${other}) goes back to Loja Sandbox Ltda (seller ${SANDBOX_SELLER_ID})`);
  });

  it("an account's owner: the buyer's accounts by name, and a current balance (which does not say whose) named when its owner is known to be a seller", async ({ home }) => {
    const name = await sandboxBuyerName(home);
    expect(column((await onTerminal(home, ['balances', 'accounts', '--buyer', SANDBOX_BUYER_ID])).stdout, 'OWNER')).toEqual([name]);
    const owner = (text: string) => text.split('\n').find((l) => l.startsWith('Owner  '))?.replace(/^Owner\s+/, 'Owner  ');
    const bySeller = (await onTerminal(home, ['balances', 'current', '--seller', SANDBOX_SELLER_ID])).stdout;
    expect(owner(bySeller)).toBe(`Owner  Loja Sandbox Ltda  ${SANDBOX_SELLER_ID}`);
    // By its account: named when its owner is the profile's seller (on the embedded sandbox, the
    // seeded one), else shown by its id alone.
    const account = (await json(home, ['balances', 'current', '--seller', SANDBOX_SELLER_ID])).account as string;
    expect(owner((await onTerminal(home, ['balances', 'current', '--account', account])).stdout)).toBe(`Owner  Loja Sandbox Ltda  ${SANDBOX_SELLER_ID}`);
    const other = await run(home, ['balances', 'current', '--account', account, '--no-color'], { tty: true, columns: 120, env: { PAYCTL_SELLER_ID: 'f'.repeat(32) } });
    expect(other.code, other.stderr).toBe(0);
    expect(owner(other.stdout)).toBe(`Owner  ${SANDBOX_SELLER_ID}`);
  });

  it('a card associated says whose it now is by name on a terminal, by id elsewhere', async ({ home }) => {
    const name = await sandboxBuyerName(home);
    const token = async () => (await json(home, ['cards', 'tokenize', ...cardFlags(MASTERCARD)])).id as string;
    const seen = await run(home, ['cards', 'associate', '--token', await token(), '--customer', SANDBOX_BUYER_ID, '--no-color', '--no-pager'], { tty: true, columns: 120 });
    expect(seen.code, seen.stderr).toBe(0);
    expect(unwrapped(seen.stderr)).toMatch(new RegExp(`now belongs to ${name} \\(buyer ${SANDBOX_BUYER_ID}\\)\\n`));
    const piped = await run(home, ['cards', 'associate', '--token', await token(), '--customer', SANDBOX_BUYER_ID, '-o', 'json']);
    expect(piped.stderr).toMatch(new RegExp(`now belongs to buyer ${SANDBOX_BUYER_ID}\\n`));
  });
});

describe('what a list costs in names', () => {
  const PREFIX = `/v1/marketplaces/${RECORDED_MARKETPLACE}`;
  const PLAN = 'd'.repeat(32);
  const buyer = (n: number) => numberedId('b', n);
  const subscription = (n: number, customer = buyer(n)) => ({ uuid: numberedId('s', n), resource: 'subscription', status: 'active', amount: 2990, currency: 'BRL', plan: PLAN, customer, due_date: '2026-12-05' });
  /** `count` subscriptions (by offset and limit, as pages are asked), of the buyers `customer` gives. */
  const subscriptions = (count: number, customer: (n: number) => string = buyer) => (req: RecordedRequest): Reply => {
    const query = new URL(req.url, 'http://x').searchParams;
    const offset = Number(query.get('offset'));
    const end = Math.min(count, offset + Number(query.get('limit')));
    return listPage(Array.from({ length: Math.max(0, end - offset) }, (_, i) => subscription(offset + i, customer(offset + i))), end < count);
  };
  const named = (req: RecordedRequest): Reply | undefined => {
    const id = req.path.slice(req.path.lastIndexOf('/') + 1);
    if (req.path === `${PREFIX}/recurrence_plans/${PLAN}`) return { status: 200, body: { uuid: PLAN, resource: 'plan', name: 'Plano Ouro', amount: 2990, currency: 'BRL', status: 'active' } };
    if (req.path.startsWith(`${PREFIX}/buyers/`)) return { status: 200, body: { id, resource: 'buyer', first_name: 'Cliente', last_name: id.slice(-3) } };
    return undefined;
  };
  const buyerReads = (requests: RecordedRequest[]) => requests.filter((r) => r.path.startsWith(`${PREFIX}/buyers/`)).map((r) => r.path.slice(-32));

  it('JSON, NDJSON, CSV and a piped table read the list alone; on a terminal each record is read once', async ({ home }) => {
    const route = (req: RecordedRequest): Reply => named(req) ?? subscriptions(4, () => buyer(1))(req);
    for (const args of [['-o', 'json'], ['-o', 'ndjson'], ['-o', 'csv'], ['-o', 'table']]) {
      const { result, requests } = await runAgainst(home, ['subscriptions', 'list', ...args], route);
      expect(result.code, result.stderr).toBe(0);
      expect(requests.map((r) => r.path), args.join(' ')).toEqual([`${PREFIX}/recurrence_subscriptions`]);
      expect(result.stdout).toContain(buyer(1));
    }
    const { result, requests } = await runAgainst(home, ['subscriptions', 'list', '--no-color'], route, { tty: true, columns: 160 });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(column(result.stdout, 'CUSTOMER')).toEqual(Array(4).fill('Cliente 001'));
    expect(requests.map((r) => r.path).sort()).toEqual([`${PREFIX}/buyers/${buyer(1)}`, `${PREFIX}/recurrence_plans/${PLAN}`, `${PREFIX}/recurrence_subscriptions`]);
  });

  it('a buyer that cannot be read keeps its id, whole, and the others are named', async ({ home }) => {
    const gone = buyer(2);
    const route = (req: RecordedRequest): Reply =>
      req.path.endsWith(`/buyers/${gone}`) ? { status: 404, body: providerError(404, 'resource_not_found', 'Sorry, the buyer does not exist') } : (named(req) ?? subscriptions(3)(req));
    const { result } = await runAgainst(home, ['subscriptions', 'list', '--no-color'], route, { tty: true, columns: 160 });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(column(result.stdout, 'CUSTOMER')).toEqual(['Cliente 000', 'Cliente 001', gone]);
  });

  it(`at most ${NAMES_PER_COMMAND} names a command, ${NAMES_AT_ONCE} at a time, each once; past the bound, ids and a line saying why`, async ({ home }) => {
    let inFlight = 0;
    let most = 0;
    const route = (req: RecordedRequest): Reply => {
      const reply = named(req);
      if (!reply) return subscriptions(150)(req);
      inFlight += 1;
      most = Math.max(most, inFlight);
      // Counted out just before the answer leaves (this timer was set first).
      setTimeout(() => (inFlight -= 1), 5);
      return { ...reply, delayMs: 5 } as Reply;
    };
    const { result, requests } = await runAgainst(home, ['subscriptions', 'list', '--limit', '150', '--no-color'], route, { tty: true, columns: 160 });
    expect(result.code, result.stderr).toBe(0);
    const reads = buyerReads(requests);
    // The plan is one of the records read.
    expect(reads).toHaveLength(NAMES_PER_COMMAND - 1);
    expect(new Set(reads).size).toBe(reads.length);
    expect(most).toBeLessThanOrEqual(NAMES_AT_ONCE);
    const customers = column(result.stdout, 'CUSTOMER');
    expect(customers).toHaveLength(150);
    expect(customers.slice(0, NAMES_PER_COMMAND - 1).every((c) => /^Cliente \d{3}$/.test(c))).toBe(true);
    expect(customers.slice(NAMES_PER_COMMAND - 1)).toEqual(Array.from({ length: 150 - NAMES_PER_COMMAND + 1 }, (_, i) => buyer(NAMES_PER_COMMAND - 1 + i)));
    expect(result.stderr).toBe(`payctl reads at most ${NAMES_PER_COMMAND} names a command: ${150 - NAMES_PER_COMMAND + 1} more records shown by id\n`);
  });

  it('a slow service: one read of each name at most, within a short deadline, and none after the first that fails; the list prints with ids', async ({ home }) => {
    for (const failing of [{ hang: true } as const, { status: 503, body: providerError(503, 'service_unavailable', 'down') }]) {
      const route = (req: RecordedRequest): Reply => (req.path.startsWith(`${PREFIX}/buyers/`) ? failing : (named(req) ?? subscriptions(30)(req)));
      const started = Date.now();
      // --timeout 1: a name's read gets that second, where a money request would get it three times.
      const { result, requests } = await runAgainst(home, ['subscriptions', 'list', '--limit', '30', '--timeout', '1', '--no-color'], route, { tty: true, columns: 160 });
      expect(result.code, result.stderr).toBe(0);
      expect(Date.now() - started).toBeLessThan(5_000);
      const reads = buyerReads(requests);
      expect(reads.length).toBeLessThanOrEqual(NAMES_AT_ONCE);
      expect(new Set(reads).size).toBe(reads.length);
      expect(column(result.stdout, 'CUSTOMER')).toEqual(Array.from({ length: 30 }, (_, i) => buyer(i)));
      expect(unwrapped(result.stderr)).toMatch(/^a name could not be read \(.+\): payctl read no more and shows the rest by id\n$/);
    }
  });

  it("reconcile names the sellers; a transfer's sales name who paid", async ({ home }) => {
    const SELLER = 'e'.repeat(32);
    const transfer = { id: 't'.repeat(32), resource: 'transfer', status: 'succeeded', amount: '10.00', fees: '0.00', on_behalf_of: SELLER, transfer_date: '2026-11-02', receivables: ['r'.repeat(32)], transactions: [], created_at: '2026-11-02T00:00:00.000Z' };
    const receivable = { id: 'r'.repeat(32), resource: 'receivable', status: 'paid', amount: '10.00', gross_amount: '10.00', transaction: null, transfer: transfer.id, installment: '1', expected_on: '2026-11-02T00:00:00.000Z' };
    const sale = { id: 'a1'.repeat(16), resource: 'transaction', status: 'succeeded', amount: '10.00', currency: 'BRL', payment_type: 'pix', on_behalf_of: SELLER, customer: buyer(7), created_at: '2026-11-01T10:00:00.000Z' };
    const route = (req: RecordedRequest): Reply => {
      const list = (items: unknown[]) => ({ status: 200, body: { resource: 'list', items, has_more: false, total: items.length } });
      if (req.path === `${PREFIX}/sellers/${SELLER}`) return { status: 200, body: { id: SELLER, resource: 'seller', type: 'business', business_name: 'Loja Azul Ltda' } };
      if (req.path.endsWith(`/receivables/${receivable.id}`)) return { status: 200, body: receivable };
      if (req.path.endsWith('/receivables')) return list([receivable]);
      if (req.path.endsWith(`/transfers/${transfer.id}/transactions`)) return list([sale]);
      if (req.path.endsWith('/transfers')) return list([transfer]);
      return named(req) ?? { status: 404, body: providerError(404, 'resource_not_found', 'no') };
    };
    const reconciled = await runAgainst(home, ['reconcile', '--from', '2026-11-01', '--to', '2026-11-30', '--no-color'], route, { tty: true, columns: 160 });
    expect(reconciled.result.code, reconciled.result.stderr).toBe(0);
    const [transfers = '', sellers = ''] = reconciled.result.stdout.split('\n\n');
    expect(column(transfers, 'SELLER')).toEqual(['Loja Azul Ltda']);
    expect(column(sellers, 'SELLER')).toEqual(['Loja Azul Ltda']);
    expect(reconciled.requests.filter((r) => r.path.endsWith(`/sellers/${SELLER}`))).toHaveLength(1);
    const asJson = await runAgainst(home, ['reconcile', '--from', '2026-11-01', '--to', '2026-11-30', '-o', 'json'], route);
    expect(asJson.requests.filter((r) => r.path.endsWith(`/sellers/${SELLER}`))).toEqual([]);

    const paid = await runAgainst(home, ['transfers', 'transactions', transfer.id, '--no-color'], route, { tty: true, columns: 160 });
    expect(paid.result.code, paid.result.stderr).toBe(0);
    expect(column(paid.result.stdout, 'PAYER')).toEqual(['Cliente 007']);
  });
});
