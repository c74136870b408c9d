import { describe, expect, it } from 'vitest';
import { SANDBOX_SELLER_ID } from '../../src/sandbox/constants.js';
import { buildCreateRequest, createFingerprint } from '../../src/commands/transactions/create.js';
import { parseSplit } from '../../src/commands/transactions/split-input.js';
import type { Reply } from '../helpers/recording-server.js';
import { cardFlags, create, createCard, expectError, expectJson, expectUsage, freshHomePerTest, run, runAgainst, type Tx } from './helpers.js';

// Split rules: --split on create checked and sent in the provider's shape.
const home = freshHomePerTest();
const A = 'a1'.repeat(16);
const B = 'b2'.repeat(16);
const SELLER = 'f'.repeat(32);

/** A create against a recording server that knows no transaction yet and answers the POST with `sale`. */
function createAgainst(args: string[], sale: Tx) {
  return runAgainst(home(), ['transactions', 'create', '--on-behalf-of', SELLER, ...cardFlags(), '--reference-id', 'order-split', ...args], (req): Reply =>
    req.method === 'GET' ? { status: 200, body: { items: [], has_more: false } } : { status: 201, body: sale },
  );
}

describe('transactions create --split', () => {
  it('sends each part as a split rule: cents or a percentage, liable and charge_processing_fee always said', async () => {
    const sale = await createCard(home(), '100.00');
    const { result, requests } = await createAgainst(['--amount', '100.00', '--split', `${A}:70%,net`, '--split', `${B}:7,50,liable`, '--split', `c3:0.5%,net,liable`], sale);
    expectJson(result);
    const posts = requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.json.split_rules).toEqual([
      { recipient: A, liable: false, charge_processing_fee: true, percentage: 70 },
      { recipient: B, liable: true, charge_processing_fee: false, amount: 750 },
      { recipient: 'c3', liable: true, charge_processing_fee: true, percentage: 0.5 },
    ]);
    expect(posts[0]!.json.amount).toBe(10_000);
  });

  it('a create without --split sends no split_rules', async () => {
    const sale = await createCard(home(), '10.00');
    const { result, requests } = await createAgainst(['--amount', '10.00'], sale);
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
  it.each(refused)('%s: exit 2 naming --split, nothing sent', async (_name, args, message) => {
    const { result, requests } = await createAgainst(args, {});
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

  it('--dry-run shows the split rules it would send', async () => {
    const result = await run(home(), ['transactions', 'create', '--amount', '10', ...cardFlags(), '--split', `${A}:3.00,net`, '--dry-run']);
    expect(expectJson(result).body.split_rules).toEqual([{ recipient: A, liable: false, charge_processing_fee: true, amount: 300 }]);
  });
});

// ---------------------------------------------------------------------------------------------
// The embedded sandbox: each party of a split sale gets receivables, balance entries and payouts of
// its own; refunds take each part back in proportion (README, "Split rules").
describe('split sales in the embedded sandbox', () => {
  const json = async (args: string[]): Promise<Tx> => expectJson(await run(home(), [...args, '-o', 'json']));
  const newSeller = async (name: string, ein: string) => (await json(['sellers', 'create', '--business-name', name, '--ein', ein, '--email', 'split@example.com'])).id as string;
  /** Each seller's receivables as [net, gross, status, split rule], and its current balance. */
  const holdings = async (seller: string) => ({
    receivables: (await json(['receivables', 'list', '--seller', seller, '--all'])).map((r: Tx) => [r.amount, r.gross_amount, r.status, r.split_rule]),
    balance: (await json(['balances', 'current', '--seller', seller])).current_balance,
  });

  /** A R$ 100,00 card sale of `main`, 30% of it for `other` paying its share of the fees (R$ 2,99 in all). */
  async function seventyThirty() {
    const main = await newSeller('Loja Setenta', '11.444.777/0001-61');
    const other = await newSeller('Loja Trinta', '12.ABC.345/01DE-35');
    const sale = await create(home(), ['--amount', '100.00', ...cardFlags(), '--on-behalf-of', main, '--split', `${other}:30%,net`]);
    return { main, other, sale, rule: sale.split_rules[0].id as string };
  }

  it('a 70/30 card sale: each seller its own receivable and balance, fees shared as charge_processing_fee says', async () => {
    const { main, other, sale, rule } = await seventyThirty();
    expect(sale.fees).toBe('2.99');
    expect(sale.split_rules).toEqual([
      expect.objectContaining({ resource: 'split_rule', transaction: sale.id, recipient: other, percentage: '30.00', amount: null, liable: false, charge_processing_fee: true, receivable_gross_amount: '30.00', receivable_amount: '29.11' }),
    ]);
    // 30.00 of the sale, less floor(2.99 × 30%) = 0.89 of the fees; the sale's seller pays the other 2.10.
    expect(await holdings(other)).toEqual({ receivables: [['29.11', '30.00', 'pending', rule]], balance: '29.11' });
    expect(await holdings(main)).toEqual({ receivables: [['67.90', '70.00', 'pending', null]], balance: '67.90' });

    // Settled: each part paid out to its own seller, by a transfer of its own.
    await json(['sandbox', 'advance', '--days', '31']);
    expect(await holdings(other)).toEqual({ receivables: [['29.11', '30.00', 'paid', rule]], balance: '0.00' });
    expect(await holdings(main)).toEqual({ receivables: [['67.90', '70.00', 'paid', null]], balance: '0.00' });
    expect((await json(['transfers', 'list', '--seller', other, '--all'])).map((t: Tx) => t.amount)).toEqual(['29.11']);
  });

  it('a partial refund takes each part back in proportion, a full refund all of it', async () => {
    const { main, other, sale, rule } = await seventyThirty();
    const refunded = expectJson(await run(home(), ['transactions', 'refund', sale.id, '--amount', '40.00', '--yes']));
    // 60.00 remains, fees 1.79: the recipient's part is 30% of it, 18.00, less floor(1.79 × 30%) = 0.53.
    expect([refunded.amount, refunded.fees]).toEqual(['60.00', '1.79']);
    expect(refunded.split_rules[0]).toMatchObject({ receivable_gross_amount: '18.00', receivable_amount: '17.47' });
    expect(await holdings(other)).toEqual({ receivables: [['17.47', '18.00', 'pending', rule]], balance: '17.47' });
    expect(await holdings(main)).toEqual({ receivables: [['40.74', '42.00', 'pending', null]], balance: '40.74' });
    const history: Tx[] = await json(['balances', 'history', '--seller', other, '--all', '--sort', 'asc']);
    expect(history.map((e) => [e.operation, e.amount, e.transaction])).toEqual([
      ['sale', '29.11', sale.id],
      ['refund', '-11.64', sale.id],
    ]);

    expectJson(await run(home(), ['transactions', 'refund', sale.id, '--yes']));
    expect(await holdings(other)).toEqual({ receivables: [['17.47', '18.00', 'canceled', rule]], balance: '0.00' });
    expect(await holdings(main)).toEqual({ receivables: [['40.74', '42.00', 'canceled', null]], balance: '0.00' });
  });

  it('a refund after the payout is taken from each seller\'s balance', async () => {
    const { main, other, sale } = await seventyThirty();
    await json(['sandbox', 'advance', '--days', '31']);
    expectJson(await run(home(), ['transactions', 'refund', sale.id, '--amount', '50.00', '--yes']));
    // Half remains, fees 1.50: the recipient keeps 15.00 − 0.45, the sale's seller 35.00 − 1.05.
    expect((await holdings(other)).balance).toBe('-14.56');
    expect((await holdings(main)).balance).toBe('-33.95');
  });

  it('the sandbox refuses a recipient that is not a seller (404) and parts over the amount (400), charging nothing', async () => {
    const unknown = await run(home(), ['transactions', 'create', '--amount', '10.00', ...cardFlags(), '--split', `${'9'.repeat(32)}:30%`]);
    expectError(unknown, 5, `the seller (id: ${'9'.repeat(32)})`, 'HTTP 404');
    const other = await newSeller('Loja Trinta', '12.ABC.345/01DE-35');
    const body = JSON.stringify({ amount: 1000, currency: 'BRL', payment_type: 'pix', on_behalf_of: SANDBOX_SELLER_ID, split_rules: [{ recipient: other, amount: 600 }, { recipient: other, percentage: 50 }] });
    const over = await run(home(), ['api', 'POST', '/transactions', '--input', '-'], { stdin: body });
    expectError(over, 6, 'HTTP 400', 'split_rules: the parts add up to 11.00, more than the amount 10.00', `split_rules: names recipient ${other} more than once`);
    expect(await json(['transactions', 'list', '--all'])).toEqual([]);
  });
});
