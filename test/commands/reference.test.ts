import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { converse, KEY } from '../helpers/interactive.js';
import { ledgerShown } from '../helpers/printed.js';
import type { Transaction } from '../../src/sandbox/types.js';
import { tempHome } from '../helpers/run.js';
import { SaleFinder, spellings, type FinderNeeds } from '../../src/commands/transactions/reference.js';
import { cardFlags, expectError, expectJson, expectUsage, MASTERCARD, run, runAgainst } from './helpers.js';

// The merchant's order number is what a customer quotes: wherever a transaction id is expected
// (get, refund, capture, ledger show), a reference_id stands for its transaction. The sandbox's
// state is checked after each money move.
let home: { home: string; cleanup: () => void };
let sale: Transaction;

beforeAll(async () => {
  home = tempHome();
  expect((await run(home.home, ['sandbox', 'generate', '--sales', '2000', '-q'])).code).toBe(0);
  sale = expectJson(await run(home.home, ['transactions', 'create', '--amount', '200.00', ...cardFlags(MASTERCARD, { '--holder-name': 'Joana Pereira' }), '--reference-id', 'order-7002']));
}, 120_000);
afterAll(() => home.cleanup());

const getTx = async (id: string) => expectJson(await run(home.home, ['transactions', 'get', id]));

describe('a reference_id where an id is expected', () => {
  it('get order-7002 is that sale; stderr says which', async () => {
    const result = await run(home.home, ['transactions', 'get', 'order-7002', '-o', 'json']);
    expect(JSON.parse(result.stdout).id).toBe(sale.id);
    expect(result.stderr).toBe(`reference_id order-7002: transaction ${sale.id}\n`);
  });

  it('refund order-7002 refunds that sale, once; the ledger shows it under the reference too', async () => {
    const result = await run(home.home, ['transactions', 'refund', 'order-7002', '--amount', '70.00', '--yes', '-o', 'json']);
    expect(result.code, result.stderr).toBe(0);
    expect((await getTx(sale.id as string)).amount).toBe('130.00');
    const shown = await run(home.home, ['ledger', 'show', 'order-7002', '-o', 'json']);
    const moves = z.parse(ledgerShown, JSON.parse(shown.stdout)).intents;
    expect(moves.map((m) => [m.operation, m.target])).toEqual([
      ['transactions.create', 'order-7002'],
      ['transactions.void', sale.id],
    ]);
  });

  it('an over-refund names what is left; nothing moves', async () => {
    // Refused before anything is sent, --again or not: the sale cannot give it.
    const result = await run(home.home, ['transactions', 'refund', 'order-7002', '--amount', '500.00', '--yes', '--again']);
    expectError({ ...result, stdout: '' }, 6, `R$ 500,00 is more than the R$ 130,00 left to refund on transaction ${sale.id}; it was already refunded R$ 70,00 by payctl on`, 'nothing was sent');
    expect((await getTx(sale.id as string)).amount).toBe('130.00');
  });

  it('no such reference: exit 5; two sales with one reference: exit 2 listing both, nothing sent; --dry-run: exit 2', async () => {
    expectError(await run(home.home, ['transactions', 'get', 'order-0000']), 5, 'no transaction has the id or reference_id "order-0000"');
    const a = expectJson(await run(home.home, ['transactions', 'create', '--payment-type', 'pix', '--amount', '10.00', '--reference-id', 'twice-1']));
    const b = expectJson(await run(home.home, ['transactions', 'create', '--payment-type', 'pix', '--amount', '11.00', '--reference-id', 'twice-1', '--allow-duplicate-reference']));
    const line = expectUsage(await run(home.home, ['transactions', 'refund', 'twice-1', '--yes']), 'reference_id "twice-1" is on 2 transactions:', a.id as string, b.id as string, 'Give the id of the one you mean');
    expect(line).toContain('R$ 10,00');
    // When each was made: a date, a time and the zone.
    expect(line).toMatch(/\(R\$ 10,00, pending, created \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\)/);
    expect((await getTx(a.id as string)).amount).toBe('10.00');
    expectUsage(await run(home.home, ['transactions', 'refund', 'order-7002', '--dry-run']), '"order-7002" is a reference_id, and --dry-run sends nothing');
  });

  it('a reference not found names the near ones the service has; a money move never acts on one (exit 5, nothing sent)', async () => {
    // What a customer says: the number alone, the words of the order, a digit wrong.
    expectError(await run(home.home, ['transactions', 'get', '7002']), 5, 'no transaction has the id or reference_id "7002" (did you mean order-7002?)');
    expectError(await run(home.home, ['transactions', 'get', 'Order 7002']), 5, '"Order 7002" (did you mean order-7002?)');
    expectError(await run(home.home, ['transactions', 'get', 'order-7003']), 5, '"order-7003" (did you mean order-7002?)');
    // Two digits wrong is another order, and nothing like it is among the latest sales: said so.
    expectError(await run(home.home, ['transactions', 'get', 'order-7113']), 5, '"order-7113", and none of the latest 200 sales has one like it');
    const before = await getTx(sale.id as string);
    const moves = async () => JSON.parse((await run(home.home, ['ledger', 'list', '--transaction', sale.id as string, '-o', 'json'])).stdout).length;
    const recorded = await moves();
    expectError(await run(home.home, ['transactions', 'refund', 'order 7002', '--yes']), 5, '"order 7002" (did you mean order-7002?)');
    expectError(await run(home.home, ['transactions', 'capture', '7002', '--yes']), 5, '"7002" (did you mean order-7002?)');
    expect(await getTx(sale.id as string)).toEqual(before);
    expect(await moves()).toBe(recorded);
  });

  it('capture by reference', async () => {
    const pre = expectJson(await run(home.home, ['transactions', 'create', '--amount', '50.00', ...cardFlags(), '--no-capture', '--reference-id', 'pre-42']));
    const result = await run(home.home, ['transactions', 'capture', 'pre-42', '--yes', '-o', 'json']);
    expect(result.code, result.stderr).toBe(0);
    expect((await getTx(pre.id as string)).status).toBe('succeeded');
  });

  it('refund with no id: on a terminal it asks (an order number will do); off one, exit 2 naming what is missing', async () => {
    const asked = await converse(['transactions', 'refund', '--amount', '1.00'], home.home, [
      { prompt: /Transaction id or reference_id \(order number\)/, keys: `order-7002${KEY.enter}` },
      // Refunded before by this file: the question says so.
      { prompt: /Refund R\$ 1,00 more\?/, keys: `y${KEY.enter}` },
    ]);
    expect(asked.code, asked.transcript).toBe(0);
    expect((await getTx(sale.id as string)).amount).toBe('129.00');
    expectUsage(await run(home.home, ['transactions', 'capture']), 'missing <id>: give a transaction id or its reference_id');
  });
});


describe('the near references looked for, and what that costs', () => {
  it('the spellings of what a customer says, each asked of the exact reference_id filter', () => {
    expect(spellings('pedido 7788')).toEqual(['pedido-7788', 'pedido_7788', 'pedido7788', 'PEDIDO-7788']);
    expect(spellings('Pedido #7788')).toEqual(['pedido-7788', 'pedido_7788', 'pedido7788', 'Pedido-7788', 'PEDIDO-7788']);
    expect(spellings('7788')).toEqual([]);
  });

  it('a bounded search: the reference, its other spellings, then the latest sales one page at a time', async ({ onTestFinished }) => {
    const own = tempHome();
    onTestFinished(own.cleanup);
    const empty = { status: 200, body: { resource: 'list', items: [], has_more: false } };
    const { result, requests } = await runAgainst(own.home, ['transactions', 'refund', 'pedido 7788', '--yes'], () => empty);
    expectError(result, 5, '"pedido 7788", and none of the latest 200 sales has one like it');
    const queries = requests.map((r) => decodeURIComponent(r.url.split('?')[1] ?? ''));
    expect(queries).toEqual([
      'reference_id=pedido+7788&limit=6&offset=0',
      ...['pedido-7788', 'pedido_7788', 'pedido7788', 'PEDIDO-7788'].map((s) => `reference_id=${s}&limit=1`),
      'limit=100&offset=0',
    ]);
    expect(requests.every((r) => r.method === 'GET')).toBe(true);
  });
});

describe('a sale found with only what that needs (no Factory, nothing sent)', () => {
  /** Needs whose service and prompter fail the test if they are used. */
  const needs = (over: { off?: string; dryRun?: boolean } = {}): FinderNeeds => {
    const unused = (what: string) => () => Promise.reject(new Error(`${what} was used`));
    return {
      prompts: { off: over.off, prompter: unused('the prompter') },
      globals: { dryRun: over.dryRun ?? false },
      service: { requireApiKey: unused('the key check'), api: unused('the service') },
      log: { status: () => undefined },
    };
  };

  it('an id is itself, read from nothing; nothing typed with prompts off says what is missing and why', async () => {
    const id = 'a'.repeat(32);
    expect(await new SaleFinder(needs()).saleId(` ${id} `)).toBe(id);
    await expect(new SaleFinder(needs({ off: 'stdin is not a terminal' })).saleId(undefined)).rejects.toThrow('missing <id>: give a transaction id or its reference_id (prompts are off: stdin is not a terminal)');
  });

  it('a reference in a dry run, or one that cannot be a reference, is refused before the service is asked', async () => {
    await expect(new SaleFinder(needs({ dryRun: true })).saleId('order-7002')).rejects.toThrow('<id>: "order-7002" is a reference_id, and --dry-run sends nothing');
    await expect(new SaleFinder(needs(), { where: '<transaction-or-reference>' }).saleId('order\u00077002')).rejects.toThrow('<transaction-or-reference>: give a transaction id or a reference_id (printable');
  });
});
