import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { openSqlite } from '../../src/platform/sqlite.js';
import { SANDBOX_BUYER_ID, SANDBOX_CARD_ID } from '../../src/provider/sandbox-account.js';
import { DB_FORMAT } from '../../src/sandbox/db/schema.js';
import {
  create,
  createCard,
  createPix,
  createPreAuth,
  expectError,
  expectJson,
  expectUsage,
  getTx,
  ISO_MS,
  listAll,
  type Ran,
  RECORDED_MARKETPLACE,
  run,
  runAgainst,
  SANDBOX_LINE,
  TX_URL,
} from './helpers.js';
import type { Transaction } from '../../src/sandbox/types.js';

const pay = (home: string, id: string, args: string[] = []) => run(home, ['sandbox', 'pay', id, ...args]);

/** A paid transaction: 0, the transaction on stdout, SANDBOX and one status line on stderr. */
function expectPaid(result: Ran<readonly ['sandbox', 'pay', ...string[]]>, before: Transaction): Transaction {
  const after = expectJson(result);
  expect(result.stderr).toBe(`${SANDBOX_LINE}Transaction ${before.id} paid; status succeeded\n`);
  expect(after).toMatchObject({ id: before.id, status: 'succeeded', captured: true, amount: before.amount });
  expect(after.payment_method).toMatchObject({ status: 'paid', paid_at: expect.stringMatching(ISO_MS) });
  expect(after.expected_on).toMatch(ISO_MS);
  expect(after.history).toHaveLength(before.history.length + 1);
  expect(after.history.at(-1)).toMatchObject({ operation_type: 'paid', status: 'succeeded', amount: before.amount });
  return after;
}

describe('sandbox pay', () => {
  it('a pending boleto becomes succeeded', async ({ home }) => {
    const boleto = await create(home, ['--payment-type', 'boleto', '--amount', '150', '--customer', SANDBOX_BUYER_ID], 'pending');
    const paid = expectPaid(await pay(home, boleto.id), boleto);
    expect(paid.payment_type).toBe('boleto');
    expect(await getTx(home, boleto.id)).toEqual(paid);
  });

  it('a pending PIX becomes succeeded', async ({ home }) => {
    const pix = await createPix(home, '30.00');
    const paid = expectPaid(await pay(home, pix.id), pix);
    expect(paid.payment_type).toBe('pix');
    expect(paid.fees).not.toBe('0.00'); // money was collected, so fees apply
  });

  it('a pending bolepix becomes succeeded', async ({ home }) => {
    const bolepix = await create(home, ['--payment-type', 'bolepix', '--amount', '80', '--customer', SANDBOX_BUYER_ID], 'pending');
    expectPaid(await pay(home, bolepix.id), bolepix);
  });

  it('a card transaction cannot be paid: exit 6 with the service error, unchanged', async ({ home }) => {
    const card = await createCard(home);
    const result = await pay(home, card.id);
    expectError(result, 6, 'cannot be paid', 'this is a credit transaction with status succeeded', '(approve_transaction_error, HTTP 400)');
    expect(result.stderr.startsWith(SANDBOX_LINE)).toBe(true);
    expect(await getTx(home, card.id)).toEqual(card);
    const held = await createPreAuth(home);
    expectError(await pay(home, held.id), 6, 'approve_transaction_error');
    expect(await getTx(home, held.id)).toEqual(held);
  });

  it('paying twice: the second is refused with exit 6', async ({ home }) => {
    const pix = await createPix(home);
    const paid = expectPaid(await pay(home, pix.id), pix);
    expectError(await pay(home, pix.id), 6, 'status succeeded', 'HTTP 400');
    expect(await getTx(home, pix.id)).toEqual(paid);
  });

  it('an unknown id: exit 5; a malformed one: exit 2', async ({ home }) => {
    expectError(await pay(home, 'a'.repeat(32)), 5, 'does not exist', '(resource_not_found, HTTP 404)');
    expectUsage(await pay(home, 'x/y'), '<transaction-id>: malformed transaction id');
  });

  it("a subscription invoice's boleto: the invoice it paid is named; a failed look at it is a warning, exit 0", async ({ home }) => {
    const TX = 'e'.repeat(32);
    const INVOICE = 'f'.repeat(32);
    const paidTx = { id: TX, status: 'succeeded', amount: '29.90', payment_type: 'boleto', metadata: { invoice: INVOICE } };
    const answered = await runAgainst(home, ['sandbox', 'pay', TX, '-o', 'json'], (req) =>
      req.method === 'POST' ? { status: 200, body: paidTx } : { status: 200, body: { id: INVOICE, status: 'paid', amount: 2990 } },
    );
    expect(answered.result.code, answered.result.stderr).toBe(0);
    expect(answered.result.stderr).toContain(`Invoice ${INVOICE}: paid\n`);
    expect(answered.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /v1/marketplaces/${RECORDED_MARKETPLACE}/transactions/${TX}/approve`,
      `GET /v1/marketplaces/${RECORDED_MARKETPLACE}/invoices/${INVOICE}`,
    ]);

    const lost = await runAgainst(home, ['sandbox', 'pay', TX, '-o', 'json', '--timeout', '2'], (req) =>
      req.method === 'POST' ? { status: 200, body: paidTx } : { status: 500, body: { error: { status: 'Internal Server Error', status_code: 500, message: 'boom' } } },
    );
    expect(lost.result.code, lost.result.stderr).toBe(0);
    expect(expectJson(lost.result)).toMatchObject({ id: TX, status: 'succeeded' });
    expect(lost.result.stderr).toContain(`transaction ${TX} is paid, but its invoice ${INVOICE} could not be read`);
    expect(lost.result.stderr).toContain(`payctl invoices get ${INVOICE}`);
  });

  it('--dry-run: the approve request, and the transaction stays pending', async ({ home }) => {
    const pix = await createPix(home);
    const result = await pay(home, pix.id, ['--dry-run']);
    expect(expectJson(result)).toEqual({
      dry_run: true,
      method: 'POST',
      url: `sandbox://embedded${TX_URL}/${pix.id}/approve`,
      headers: { accept: 'application/json', 'user-agent': expect.stringMatching(/^payctl\//), authorization: 'Basic [redacted]' },
    });
    expect(result.stderr).toBe('dry run: nothing was sent\n');
    expect(await getTx(home, pix.id)).toEqual(pix);
  });
});

describe('list filters the service does not know', () => {
  it('--payment-type bolepix is kept by payctl from the unfiltered list: the service refuses it as a filter', async ({ home }) => {
    const bolepix = await create(home, ['--payment-type', 'bolepix', '--amount', '80', '--customer', SANDBOX_BUYER_ID], 'pending');
    await createPix(home, '30.00');
    expect(expectJson(await run(home, ['transactions', 'list', '--payment-type', 'bolepix'])).map((t) => t.id)).toEqual([bolepix.id]);
  });

  it('an unknown value is refused before any request (exit 2), not answered with an empty list', async ({ home }) => {
    for (const args of [
      ['transactions', 'list', '--status', 'weird'],
      ['invoices', 'list', '--status', 'weird'],
      ['subscriptions', 'list', '--status', 'weird'],
      ['transfers', 'list', '--status', 'weird'],
      ['balances', 'history', '--operation', 'weird'],
    ]) {
      const result = await run(home, args);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toContain(args[2]);
    }
  });
});

describe('a sandbox database of another payctl build', () => {
  it('is recreated with a fresh seed, in one line on stderr naming it; the command works and the next one says nothing', async ({ home }) => {
    const dir = join(home, 'state', 'sandbox');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, 'sandbox.db');
    const old = await openSqlite(file);
    old.exec(`CREATE TABLE meta (name TEXT PRIMARY KEY, doc TEXT NOT NULL); INSERT INTO meta VALUES ('format', '15');
      CREATE TABLE buyers (k TEXT PRIMARY KEY, doc TEXT NOT NULL); INSERT INTO buyers VALUES ('b', '{}')`);
    old.close();

    const first = await run(home, ['buyers', 'get', SANDBOX_BUYER_ID]);
    expect(expectJson(first).id).toBe(SANDBOX_BUYER_ID);
    expect(first.stderr).toBe(`warning: the sandbox database ${file} was of another payctl build (format 15, this one uses ${DB_FORMAT}); it was recreated with a fresh seed\n`);
    const second = await run(home, ['buyers', 'get', SANDBOX_BUYER_ID]);
    expect(expectJson(second).id).toBe(SANDBOX_BUYER_ID);
    expect(second.stderr).toBe('');
  });
});

describe('sandbox reset', () => {
  it('--yes wipes every transaction; the seeded buyer and card come back', async ({ home }) => {
    await createCard(home);
    await createPix(home);
    expect(await listAll(home)).toHaveLength(2);
    const result = await run(home, ['sandbox', 'reset', '--yes']);
    expect(result).toEqual({ code: 0, stdout: '', stderr: 'Sandbox state wiped; the seeded seller, buyer and card are back\n' });
    expect(await listAll(home)).toEqual([]);
    const again = await create(home, ['--amount', '5', '--card', SANDBOX_CARD_ID]);
    expect(again).toMatchObject({ customer: SANDBOX_BUYER_ID, payment_method: { id: SANDBOX_CARD_ID } });
    expect(again.transaction_number).toBe('100001'); // counters start over too
  });

  it('on an untouched sandbox it is harmless', async ({ home }) => {
    const result = await run(home, ['sandbox', 'reset', '-y', '-q']);
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await listAll(home)).toEqual([]);
  });

  it.for<[string, string[], { stdin?: string; tty?: boolean }]>([
    ['piped', [], {}],
    ['piped, with an answer waiting on stdin', [], { stdin: 'y\n' }],
    ['--no-input on a terminal', ['--no-input'], { tty: true }],
  ])('without --yes and prompts off (%s): exit 2, nothing wiped', async ([_name, args, options], { home }) => {
    const tx = await createPix(home);
    expectUsage(await run(home, ['sandbox', 'reset', ...args], options), '--yes required to reset the sandbox');
    expect(await listAll(home)).toEqual([tx]);
  });

  it('--dry-run wipes nothing, even with --yes', async ({ home }) => {
    const tx = await createPix(home);
    const result = await run(home, ['sandbox', 'reset', '--yes', '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^dry run: would wipe the sandbox state in .+; nothing was changed\n$/);
    expect(result.stderr).toContain(join(home, 'state'));
    expect(await listAll(home)).toEqual([tx]);
  });
});
