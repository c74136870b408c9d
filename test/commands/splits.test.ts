import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { buildCreateRequest, createFingerprint } from '../../src/commands/transactions/create.js';
import { parseSplit } from '../../src/commands/transactions/split-input.js';
import { sentFields, type Reply } from '../helpers/recording-server.js';
import { cardFlags, create, createCard, expectError, expectJson, expectUsage, run, runAgainst } from './helpers.js';
import type { Transaction } from '../../src/sandbox/types.js';

// Split rules: --split on create checked and sent in the provider's shape.
const A = 'a1'.repeat(16);
const B = 'b2'.repeat(16);
const SELLER = 'f'.repeat(32);
const json = async <const A extends readonly string[]>(home: string, args: A) => expectJson(await run(home, [...args, '-o', 'json']));
const newSeller = async (home: string, name: string, ein: string) => (await json(home, ['sellers', 'create', '--business-name', name, '--ein', ein, '--email', 'split@example.com'])).id as string;

/**
 * A create against a recording server that knows no transaction yet and answers the POST with
 * `sale`, under the reference it was sent; with no sale, a server that must be asked nothing.
 */
function createAgainst(home: string, args: string[], sale?: Transaction) {
  return runAgainst(
    home,
    ['transactions', 'create', '--on-behalf-of', SELLER, ...cardFlags(), '--reference-id', 'order-split', ...args],
    sale === undefined ? [] : (req): Reply => (req.method === 'GET' ? { status: 200, body: { items: [], has_more: false } } : { status: 201, body: { ...sale, reference_id: 'order-split' } }),
  );
}

describe('transactions create --split', () => {
  it('sends each part as a split rule: cents, or a percentage with the cents it is worth; liable and charge_processing_fee always said', async ({ home }) => {
    const sale = await createCard(home, '100.00');
    const { result, requests } = await createAgainst(home, ['--amount', '100.00', '--split', `${A}:70%,net`, '--split', `${B}:7,50,liable`, '--split', `c3:0.5%,net,liable`], sale);
    expectJson(result);
    const posts = requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(sentFields(posts[0]!).split_rules).toEqual([
      { recipient: A, liable: false, charge_processing_fee: true, amount: 7000, percentage: 70 },
      { recipient: B, liable: true, charge_processing_fee: false, amount: 750 },
      { recipient: 'c3', liable: true, charge_processing_fee: true, amount: 50, percentage: 0.5 },
    ]);
    expect(sentFields(posts[0]!).amount).toBe(10_000);
  });

  it('a create without --split sends no split_rules', async ({ home }) => {
    const sale = await createCard(home, '10.00');
    const { result, requests } = await createAgainst(home, ['--amount', '10.00'], sale);
    expectJson(result);
    expect(requests.find((r) => r.method === 'POST')!.json).not.toHaveProperty('split_rules');
  });

  const refused: [string, string[], string][] = [
    ['parts over the amount', ['--amount', '10.00', '--split', `${A}:6.00`, '--split', `${B}:4.01`], 'the parts add up to 10.01, more than the amount 10.00'],
    ['percentages over 100%', ['--amount', '10.00', '--split', `${A}:70%`, '--split', `${B}:30.5%`], 'the parts add up to 100.5%, more than 100%'],
    ['a percentage and an amount over the amount', ['--amount', '10.00', '--split', `${A}:80%`, '--split', `${B}:2.01`], 'more than the amount 10.00'],
    ['a percentage above 100', ['--amount', '10.00', '--split', `${A}:101%`], 'not a percentage between 0 and 100'],
    ['no seller id', ['--amount', '10.00', '--split', '30%'], 'should look like <seller-id>:<amount|percent%>'],
    ['a recipient that is not an id', ['--amount', '10.00', '--split', 'seller one:30%'], 'malformed seller id'],
    ['no part after the id', ['--amount', '10.00', '--split', `${A}:,liable`], 'has no amount or percentage'],
    ['an unknown option', ['--amount', '10.00', '--split', `${A}:30%,gross`], 'not an amount'],
    ['the same recipient twice', ['--amount', '10.00', '--split', `${A}:30%`, '--split', `${A}:1.00`], `seller ${A} is named twice`],
    ["the sale's own seller", ['--amount', '10.00', '--split', `${SELLER}:30%`], "is the sale's own seller"],
    ['a zero amount', ['--amount', '10.00', '--split', `${A}:0`], '--split'],
  ];
  it.for(refused)('%s: exit 2 naming --split, nothing sent', async ([_name, args, message], { home }) => {
    const { result, requests } = await createAgainst(home, args);
    expectUsage(result, '--split', message);
    expect(requests).toEqual([]);
  });

  it('a changed split is a different request: its fingerprint differs', () => {
    const input = { amountCents: 1000, currency: 'BRL', referenceId: 'r', onBehalfOf: SELLER, payment: { kind: 'card_id' as const, cardId: 'c', capture: true } };
    const seventy = createFingerprint(buildCreateRequest({ ...input, splits: [parseSplit(`${A}:70%`)] }));
    expect(createFingerprint(buildCreateRequest({ ...input, splits: [parseSplit(`${A}:60%`)] }))).not.toBe(seventy);
    expect(createFingerprint(buildCreateRequest(input))).not.toBe(seventy);
    expect(createFingerprint(buildCreateRequest({ ...input, splits: [parseSplit(`${A}:70%`)] }))).toBe(seventy);
  });

  it('--dry-run shows the split rules it would send', async ({ home }) => {
    const result = await run(home, ['transactions', 'create', '--amount', '10', ...cardFlags(), '--split', `${A}:3.00,net`, '--dry-run']);
    expect(expectJson(result).body).toHaveProperty('split_rules', [{ recipient: A, liable: false, charge_processing_fee: true, amount: 300 }]);
  });
});

// ---------------------------------------------------------------------------------------------
// The embedded sandbox: each party of a split sale gets receivables, balance entries and payouts of
// its own; refunds take each part back in proportion (docs/marketplace-and-splits.md, "Split rules").
describe('split sales in the embedded sandbox', () => {
  /** Each seller's receivables as [net, gross, status, split rule], and its current balance. */
  const holdings = async (home: string, seller: string) => ({
    receivables: (await json(home, ['receivables', 'list', '--seller', seller, '--all'])).map((r) => [r.amount, r.gross_amount, r.status, r.split_rule]),
    balance: (await json(home, ['balances', 'current', '--seller', seller])).current_balance,
  });

  /** A R$ 100,00 card sale of `main`, 30% of it for `other` paying its share of the fees (R$ 2,99 in all). */
  async function seventyThirty(home: string) {
    const main = await newSeller(home, 'Loja Setenta', '11.444.777/0001-61');
    const other = await newSeller(home, 'Loja Trinta', '12.ABC.345/01DE-35');
    const sale = await create(home, ['--amount', '100.00', ...cardFlags(), '--on-behalf-of', main, '--split', `${other}:30%,net`]);
    return { main, other, sale, rule: sale.split_rules[0]!.id };
  }

  it('a 70/30 card sale: each seller its own receivable and balance, fees shared as charge_processing_fee says', async ({ home }) => {
    const { main, other, sale, rule } = await seventyThirty(home);
    expect(sale.fees).toBe('2.99');
    expect(sale.split_rules).toEqual([
      expect.objectContaining({ resource: 'split_rule', transaction: sale.id, recipient: other, percentage: '30.00', amount: null, liable: false, charge_processing_fee: true, receivable_gross_amount: '30.00', receivable_amount: '29.11' }),
    ]);
    // 30.00 of the sale, less floor(2.99 × 30%) = 0.89 of the fees; the sale's seller pays the other 2.10.
    expect(await holdings(home, other)).toEqual({ receivables: [['29.11', '30.00', 'pending', rule]], balance: '29.11' });
    expect(await holdings(home, main)).toEqual({ receivables: [['67.90', '70.00', 'pending', null]], balance: '67.90' });

    // Settled: each part paid out to its own seller, by a transfer of its own.
    await json(home, ['sandbox', 'advance', '--days', '31']);
    expect(await holdings(home, other)).toEqual({ receivables: [['29.11', '30.00', 'paid', rule]], balance: '0.00' });
    expect(await holdings(home, main)).toEqual({ receivables: [['67.90', '70.00', 'paid', null]], balance: '0.00' });
    expect((await json(home, ['transfers', 'list', '--seller', other, '--all'])).map((t) => t.amount)).toEqual(['29.11']);
  });

  it('a partial refund takes each part back in proportion, a full refund all of it', async ({ home }) => {
    const { main, other, sale, rule } = await seventyThirty(home);
    const refunded = expectJson(await run(home, ['transactions', 'refund', sale.id, '--amount', '40.00', '--yes']));
    // 60.00 remains, fees 1.79: the recipient's part is 30% of it, 18.00, less floor(1.79 × 30%) = 0.53.
    expect([refunded.amount, refunded.fees]).toEqual(['60.00', '1.79']);
    expect(refunded.split_rules[0]).toMatchObject({ receivable_gross_amount: '18.00', receivable_amount: '17.47' });
    expect(await holdings(home, other)).toEqual({ receivables: [['17.47', '18.00', 'pending', rule]], balance: '17.47' });
    expect(await holdings(home, main)).toEqual({ receivables: [['40.74', '42.00', 'pending', null]], balance: '40.74' });
    const history = await json(home, ['balances', 'history', '--seller', other, '--all', '--sort', 'asc']);
    expect(history.map((e) => [e.operation, e.amount, e.transaction])).toEqual([
      ['sale', '29.11', sale.id],
      ['refund', '-11.64', sale.id],
    ]);

    // payctl refunded part of it already: the rest is refunded when said so (--again).
    expectJson(await run(home, ['transactions', 'refund', sale.id, '--yes', '--again']));
    expect(await holdings(home, other)).toEqual({ receivables: [['17.47', '18.00', 'canceled', rule]], balance: '0.00' });
    expect(await holdings(home, main)).toEqual({ receivables: [['40.74', '42.00', 'canceled', null]], balance: '0.00' });
  });

  it('a refund after the payout is taken from each seller\'s balance', async ({ home }) => {
    const { main, other, sale } = await seventyThirty(home);
    await json(home, ['sandbox', 'advance', '--days', '31']);
    expectJson(await run(home, ['transactions', 'refund', sale.id, '--amount', '50.00', '--yes']));
    // Half remains, fees 1.50: the recipient keeps 15.00 − 0.45, the sale's seller 35.00 − 1.05.
    expect((await holdings(home, other)).balance).toBe('-14.56');
    expect((await holdings(home, main)).balance).toBe('-33.95');
  });

  it('the sandbox refuses a recipient that is not a seller (404) and parts over the amount (400), charging nothing', async ({ home }) => {
    const unknown = await run(home, ['transactions', 'create', '--amount', '10.00', ...cardFlags(), '--split', `${'9'.repeat(32)}:30%`]);
    expectError(unknown, 5, `the seller (id: ${'9'.repeat(32)})`, 'HTTP 404');
    const other = await newSeller(home, 'Loja Trinta', '12.ABC.345/01DE-35');
    const body = JSON.stringify({ amount: 1000, currency: 'BRL', payment_type: 'pix', on_behalf_of: SANDBOX_SELLER_ID, split_rules: [{ recipient: other, amount: 600, charge_processing_fee: false }, { recipient: other, percentage: 50, amount: 0, charge_processing_fee: false }] });
    const over = await run(home, ['api', 'POST', '/transactions', '--input', '-'], { stdin: body });
    expectError(over, 6, 'HTTP 400', 'split_rules: the parts add up to 11.00, more than the amount 10.00', `split_rules: names recipient ${other} more than once`);
    expect(await json(home, ['transactions', 'list', '--all'])).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
describe('transactions splits list|get|add|remove', () => {
  const balance = async (home: string, seller: string) => (await json(home, ['balances', 'current', '--seller', seller])).current_balance;

  it('adds a part after the sale, lists and shows it, removes it: each time the money follows', async ({ home }) => {
    const other = await newSeller(home, 'Loja Trinta', '12.ABC.345/01DE-35');
    const sale = await createCard(home, '100.00');
    const seller = sale.on_behalf_of;
    expect(await json(home, ['transactions', 'splits', 'list', sale.id])).toEqual([]);
    const before = await balance(home, seller);

    // Confirmation is required off a terminal.
    expectUsage(await run(home, ['transactions', 'splits', 'add', sale.id, '--split', `${other}:25%`]), '--yes required to add a split rule');
    const added = await run(home, ['transactions', 'splits', 'add', sale.id, '--split', `${other}:25%`, '--yes']);
    const rule = expectJson(added);
    expect(rule).toMatchObject({ resource: 'split_rule', transaction: sale.id, recipient: other, percentage: '25.00', liable: false, charge_processing_fee: false, receivable_amount: '25.00' });
    expect(added.stderr).toContain(`Added split rule ${rule.id}: seller ${other} gets 25% (R$ 25,00) of transaction ${sale.id}`);
    expect(await balance(home, other)).toBe('25.00');
    expect(await balance(home, seller)).toBe((Number(before) - 25).toFixed(2));
    expect(await json(home, ['transactions', 'splits', 'list', sale.id])).toEqual([rule]);
    expect(await json(home, ['transactions', 'splits', 'get', sale.id, rule.id])).toEqual(rule);

    // The same part again is found, not added twice; another part for the same seller is refused.
    const again = await run(home, ['transactions', 'splits', 'add', sale.id, '--split', `${other}:25%`, '--yes']);
    expect(expectJson(again).id).toBe(rule.id);
    expect(again.stderr).toContain('Already done');
    expect(again.stderr).toContain('nothing was sent');
    expectUsage(await run(home, ['transactions', 'splits', 'add', sale.id, '--split', `${other}:10%`, '--yes']), '--split', 'already has a part', `splits remove ${sale.id} ${rule.id}`);
    // Checked with the parts there are, before sending.
    const third = await newSeller(home, 'Loja Terceira', '11.444.777/0001-61');
    expectUsage(await run(home, ['transactions', 'splits', 'add', sale.id, '--split', `${third}:80%`, '--yes']), '--split', 'more than 100%');
    expect(await json(home, ['transactions', 'splits', 'list', sale.id])).toHaveLength(1);

    expectUsage(await run(home, ['transactions', 'splits', 'remove', sale.id, rule.id]), '--yes required to remove a split rule');
    const removed = await run(home, ['transactions', 'splits', 'remove', sale.id, rule.id, '--yes']);
    expect(expectJson(removed)).toEqual({ id: rule.id, resource: 'split_rule', deleted: true });
    expect(await json(home, ['transactions', 'splits', 'list', sale.id])).toEqual([]);
    expect(await balance(home, other)).toBe('0.00');
    expect(await balance(home, seller)).toBe(before);
    expect((await json(home, ['receivables', 'list', '--seller', other, '--all'])).map((r) => r.status)).toEqual(['canceled']);
    expectError(await run(home, ['transactions', 'splits', 'get', sale.id, rule.id]), 5, 'split rule', 'HTTP 404');
  });

  it('a sale paid out in part keeps its split: an add is refused by the service', async ({ home }) => {
    const other = await newSeller(home, 'Loja Trinta', '12.ABC.345/01DE-35');
    const sale = await createCard(home, '10.00');
    await json(home, ['sandbox', 'advance', '--days', '31']);
    expectError(await run(home, ['transactions', 'splits', 'add', sale.id, '--split', `${other}:1.00`, '--yes']), 6, 'paid out in part', 'HTTP 409');
  });
});

// ---------------------------------------------------------------------------------------------
describe('the split on a terminal', () => {

  it('transactions get shows a Split section at 80 columns: recipient, part, liable, who pays the fees, what it gets', async ({ home }) => {
    const a = await newSeller(home, 'Loja Setenta', '11.444.777/0001-61');
    const b = await newSeller(home, 'Loja Trinta', '12.ABC.345/01DE-35');
    const sale = await create(home, ['--amount', '100.00', ...cardFlags(), '--split', `${a}:70%,net`, '--split', `${b}:7,50,liable`]);
    const shown = await run(home, ['transactions', 'get', sale.id, '--no-color', '--no-pager'], { tty: true, columns: 80 });
    expect(shown.code, shown.stderr).toBe(0);
    const lines = shown.stdout.split('\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80);
    const split = lines.slice(lines.indexOf('Split'));
    expect(split[0]).toBe('Split');
    expect(split[1]).toMatch(/^ {2}RECIPIENT +PART +LIABLE +FEES +GETS$/);
    // Each recipient by its name (names.test.ts, list-names.test.ts).
    expect(split[2]).toMatch(/^ {2}Loja Setenta +70% +no +recipient +R\$ 67,91$/);
    expect(split[3]).toMatch(/^ {2}Loja Trinta +R\$ 7,50 +yes +seller +R\$ 7,50$/);

    // The list of rules has the same columns, and each rule's own id.
    const listed = await run(home, ['transactions', 'splits', 'list', sale.id, '--no-color'], { tty: true });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^ID +RECIPIENT +PART +LIABLE +FEES +GETS\n/);
    expect(listed.stdout).toContain(sale.split_rules[0]!.id);

    // An unsplit sale has no Split section.
    const plain = await createCard(home, '10.00');
    expect((await run(home, ['transactions', 'get', plain.id, '--no-color', '--no-pager'], { tty: true })).stdout).not.toMatch(/^Split$/m);
  });
});

describe('a split pre-authorization captured in part', () => {

  it('splits what was captured: each part scaled to it, nothing moves before the capture', async ({ home }) => {
    const a = await newSeller(home, 'Loja Vinte', '11.444.777/0001-61');
    const b = await newSeller(home, 'Loja Dez', '12.ABC.345/01DE-35');
    const auth = await create(home, ['--amount', '100.00', ...cardFlags(), '--no-capture', '--split', `${a}:20.00`, '--split', `${b}:10%`], 'pre_authorized');
    expect((await json(home, ['balances', 'current', '--seller', a])).current_balance).toBe('0.00');
    expect(await json(home, ['receivables', 'list', '--seller', a, '--all'])).toEqual([]);
    const captured = expectJson(await run(home, ['transactions', 'capture', auth.id, '--amount', '50.00', '--yes']));
    // Half was captured: R$ 20,00 becomes 10,00 and 10% of the sale 5,00; the fees (1,50) stay with the sale's seller.
    expect(captured.split_rules.map((r) => [r.recipient, r.receivable_gross_amount, r.receivable_amount])).toEqual([
      [a, '10.00', '10.00'],
      [b, '5.00', '5.00'],
    ]);
    expect((await json(home, ['balances', 'current', '--seller', a])).current_balance).toBe('10.00');
    expect((await json(home, ['balances', 'current', '--seller', b])).current_balance).toBe('5.00');
    expect((await json(home, ['balances', 'current', '--seller', captured.on_behalf_of])).current_balance).toBe('33.50');
  });
});

describe("parts that leave the sale's seller less than its fees", () => {
  it('it gets no receivable and no payout, only a sale entry that debits the fees; the recipient is paid its whole part', async ({ home }) => {
    const other = await newSeller(home, 'Loja Toda', '12.ABC.345/01DE-35');
    const sale = await create(home, ['--amount', '100.00', ...cardFlags(), '--split', `${other}:100%`]);
    const seller = sale.on_behalf_of;
    expect(await json(home, ['receivables', 'list', '--seller', seller, '--all'])).toEqual([]);
    const entries = await json(home, ['balances', 'history', '--seller', seller, '--all']);
    expect(entries.map((e) => [e.operation, e.type, e.amount, e.description])).toEqual([['sale', 'debit', '-2.99', `Sale ${sale.id} (credit), net of fees`]]);
    await json(home, ['sandbox', 'advance', '--days', '31']);
    expect((await json(home, ['transfers', 'list', '--seller', other, '--all'])).map((t) => t.amount)).toEqual(['100.00']);
    expect(await json(home, ['transfers', 'list', '--seller', seller, '--all'])).toEqual([]);
    expect((await json(home, ['balances', 'current', '--seller', seller])).current_balance).toBe('-2.99');
    expect((await json(home, ['balances', 'current', '--seller', other])).current_balance).toBe('0.00');
  });
});

describe('a part removed and given again', () => {
  it('the new rule has receivables of its own; the old ones stay canceled', async ({ home }) => {
    const other = await newSeller(home, 'Loja Trinta', '12.ABC.345/01DE-35');
    const sale = await createCard(home, '100.00');
    const first = expectJson(await run(home, ['transactions', 'splits', 'add', sale.id, '--split', `${other}:30%`, '--yes']));
    expectJson(await run(home, ['transactions', 'splits', 'remove', sale.id, first.id, '--yes']));
    const second = expectJson(await run(home, ['transactions', 'splits', 'add', sale.id, '--split', `${other}:10.00,net`, '--yes']));
    const receivables = await json(home, ['receivables', 'list', '--seller', other, '--all']);
    // 10.00 less floor(2.99 × 10%) = 0.29 of the fees.
    expect(receivables.map((r) => [r.split_rule, r.status, r.amount] as const).sort((a, b) => a[1].localeCompare(b[1]))).toEqual([
      [first.id, 'canceled', '30.00'],
      [second.id, 'pending', '9.71'],
    ]);
    expect((await json(home, ['balances', 'current', '--seller', other])).current_balance).toBe('9.71');
  });
});
