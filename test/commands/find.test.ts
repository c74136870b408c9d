import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/run.js';
import { expectJson, expectUsage, paidWith, run, type ServedResource } from './helpers.js';
import type { Transaction } from '../../src/sandbox/types.js';

// Finding a sale from what the customer says. A generated sandbox (2,000 sales) plus a known buyer
// whose Mastercard paid order-7002; each search is compared with the same filter applied here to
// every sale of the window, read whole: it finds the sale, and only sales that match.
let home: { home: string; cleanup: () => void };
let buyer: ServedResource<'buyer'>;
let sale: Transaction;
let everything: Transaction[];
const FROM = '2020-01-01';

beforeAll(async () => {
  home = tempHome();
  expect((await run(home.home, ['sandbox', 'generate', '--sales', '2000', '-q'])).code).toBe(0);
  buyer = expectJson(await run(home.home, ['buyers', 'create', '--first-name', 'João', '--last-name', 'da Silva', '--taxpayer-id', '111.444.777-35', '--email', 'Joao.Silva@example.com']));
  const token = expectJson(await run(home.home, ['cards', 'tokenize', '--card-number', '5555555555554444', '--holder-name', 'Joana Pereira', '--exp-month', '12', '--exp-year', '2031', '--cvv', '123']));
  expect((await run(home.home, ['cards', 'associate', '--token', token.id as string, '--customer', buyer.id as string])).code).toBe(0);
  sale = expectJson(await run(home.home, ['transactions', 'create', '--amount', '149.90', '--customer', buyer.id as string, '--reference-id', 'order-7002']));
  everything = expectJson(await run(home.home, ['transactions', 'list', '--all', '-o', 'json']));
}, 120_000);
afterAll(() => home.cleanup());

const found = async (flags: string[]) => {
  const result = await run(home.home, ['transactions', 'list', '--all', '--from', FROM, ...flags, '-o', 'json']);
  expect(result.code, result.stderr).toBe(0);
  return expectJson(result).map((t) => t.id).sort();
};
const expected = (keep: (t: Transaction) => boolean) => everything.filter(keep).map((t) => t.id).sort();
const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

describe('transactions list finds a sale from what the customer says', () => {
  it('by buyer id, e-mail (any case) and formatted CPF: that buyer\'s sales only', async () => {
    const mine = expected((t) => t.customer === buyer.id);
    expect(mine).toContain(sale.id);
    expect(await found(['--customer', buyer.id as string])).toEqual(mine);
    expect(await found(['--customer', 'joao.silva@EXAMPLE.com'])).toEqual(mine);
    expect(await found(['--customer', '111.444.777-35'])).toEqual(mine);
  });

  it('by card last 4, holder fragment (accents and case ignored) and amount', async () => {
    const last4 = expected((t) => t.payment_method.resource === 'card' && t.payment_method.last4_digits === '4444');
    expect(last4).toContain(sale.id);
    expect(await found(['--card-last4', '4444'])).toEqual(last4);
    const holder = expected((t) => t.payment_method.resource === 'card' && fold(t.payment_method.holder_name).includes('joana per'));
    expect(holder).toEqual([sale.id]);
    expect(await found(['--holder', 'JOANA PÉR'])).toEqual(holder);
    const amount = expected((t) => (t.original_amount ?? t.amount) === '149.90');
    expect(amount).toContain(sale.id);
    expect(await found(['--amount', '149,90'])).toEqual(amount);
    const range = expected((t) => Number(t.original_amount ?? t.amount) >= 100 && Number(t.original_amount ?? t.amount) <= 101);
    expect(range.length).toBeGreaterThan(1);
    expect(await found(['--amount-min', '100', '--amount-max', '101.00'])).toEqual(range);
    // Together: every filter at once.
    expect(await found(['--customer', 'joao.silva@example.com', '--card-last4', '4444', '--amount', '149.90'])).toEqual([sale.id]);
  });

  it('the window is said on stderr: the last 30 days unless --from/--to; --limit bounds the matches', async () => {
    // The card a regular customer paid with most in the last 30 days of the sandbox clock, which the volume moved.
    const since = Date.parse(expectJson(await run(home.home, ['sandbox', 'clock'])).now) - 29 * 86_400_000;
    const recent = everything.filter((t) => t.payment_type === 'credit' && Date.parse(t.created_at) > since && t.reference_id !== 'order-7002');
    const uses = new Map<string, number>();
    for (const t of recent) uses.set(paidWith(t, 'card').last4_digits, (uses.get(paidWith(t, 'card').last4_digits) ?? 0) + 1);
    const [last4, times] = [...uses].sort((a, b) => b[1] - a[1])[0] as [string, number];
    expect(times).toBeGreaterThan(5);
    const result = await run(home.home, ['transactions', 'list', '--card-last4', last4, '--limit', '5', '-o', 'json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(5);
    expect(result.stderr).toMatch(/^searching the sales of the last 30 days \(since \d{4}-\d{2}-\d{2}\); --from\/--to widen it\nthe first 5 that match \(--limit\); --all for every one\n$/);
  });

  it('bad values are exit 2 naming the flag; an unknown e-mail matches nothing', async () => {
    expectUsage(await run(home.home, ['transactions', 'list', '--card-last4', '44']), '--card-last4', 'not the last 4 digits');
    expectUsage(await run(home.home, ['transactions', 'list', '--customer', 'João']), '--customer', 'buyers find "João"');
    expectUsage(await run(home.home, ['transactions', 'list', '--amount', '10', '--amount-min', '5']), 'give --amount, or --amount-min/--amount-max, not both');
    const none = await run(home.home, ['transactions', 'list', '--customer', 'nobody@example.com', '-o', 'json']);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('[]\n');
    expect(none.stderr).toContain('no buyer is nobody@example.com: no sale can match');
  });
});

describe('buyers find', () => {
  it('by e-mail, CPF with punctuation, and a name fragment (accents ignored)', async () => {
    const ids = async (query: string) => expectJson(await run(home.home, ['buyers', 'find', query])).map((b) => b.id);
    expect(await ids('JOAO.SILVA@example.com')).toEqual([buyer.id]);
    expect(await ids('111.444.777-35')).toEqual([buyer.id]);
    expect(await ids('joao da')).toEqual([buyer.id]);
    expect(await ids('zzzz')).toEqual([]);
  });

  it('buyers get on a terminal shows their recent sales; JSON is the buyer alone', async () => {
    const shown = await run(home.home, ['buyers', 'get', buyer.id as string, '--no-pager'], { tty: true, columns: 120 });
    expect(shown.code, shown.stderr).toBe(0);
    const after = shown.stdout.slice(shown.stdout.indexOf('Recent sales (the last 30 days, newest first):'));
    expect(after).toContain(sale.id as string);
    expect(after).toMatch(/R\$ 149,90/);
    const json = await run(home.home, ['buyers', 'get', buyer.id as string, '-o', 'json']);
    expect(JSON.parse(json.stdout).id).toBe(buyer.id);
  });

  it('from 100 columns the list says who paid: the card by its last 4 and brand, and the buyer by name', async () => {
    const wide = await run(home.home, ['transactions', 'list', '--customer', buyer.id as string, '--no-color'], { tty: true, columns: 140 });
    const row = wide.stdout.split('\n').find((l) => l.startsWith(sale.id as string));
    expect(row).toMatch(/ ••••4444 MasterCard João da Silva /);
    const narrow = await run(home.home, ['transactions', 'list', '--customer', buyer.id as string, '--no-color'], { tty: true, columns: 80 });
    expect(narrow.stdout.split('\n')[0]).not.toContain('PAYER');
  });
});

