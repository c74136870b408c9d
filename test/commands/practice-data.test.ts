import { isValidCpf } from '@brazilian-utils/brazilian-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/run.js';
import { expectJson, paidWith, present, run, type ServedResource } from './helpers.js';
import type { Transaction } from '../../src/sandbox/types.js';

// `sandbox generate` makes an account to rehearse on: buyers with valid CPFs and e-mails of their
// names, cards on file of every brand, amounts spread like prices, instalments, boletos and PIX
// paid and pending, refunds whole and in part, disputes and chargebacks, over three months. Each
// case reads the generated account back through the commands support and finance use, and checks
// that the books still add up. 700 sales of the default seed hold at least one of everything.
let home: { home: string; cleanup: () => void };
let report: ServedResource<'sandbox volume report'>;
let sales: Transaction[];
let buyers: ServedResource<'buyer'>[];
const EVER = '2000-01-01';

const cents = (decimal: string) => Math.round(Number(decimal) * 100);
const plain = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const json = async <const A extends readonly string[]>(args: A) => expectJson(await run(home.home, [...args, '-o', 'json']));
/** A sale's card, or undefined when it was paid otherwise. */
const cardOf = (t: Transaction) => (t.payment_method.resource === 'card' ? t.payment_method : undefined);
const cpf = (digits: string) => `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}`;

beforeAll(async () => {
  home = tempHome();
  const generated = await run(home.home, ['sandbox', 'generate', '--sales', '700', '-o', 'json']);
  report = expectJson(generated);
  expect(generated.stderr).toMatch(/Trading 700 sales over 90 days on the sandbox clock…\n.*; 700 transactions, [\d.]+ transfers, [\d.]+ new buyers made\n$/s);
  sales = await json(['transactions', 'list', '--all', '--from', EVER]);
  buyers = await json(['buyers', 'list', '--all']);
}, 120_000);
afterAll(() => home.cleanup());

describe('the buyers', () => {
  it('are many, each with a valid CPF of their own, a name, and an e-mail made from it', () => {
    // The seeded buyer, and those the volume registered.
    expect(buyers).toHaveLength(report.buyers + 1);
    expect(buyers.length).toBeGreaterThan(100);
    const generated = buyers.filter((b) => b.email !== 'maria.silva@example.com');
    expect(generated.every((b) => /^\d{11}$/.test(b.taxpayer_id) && isValidCpf(b.taxpayer_id))).toBe(true);
    expect(new Set(buyers.map((b) => b.taxpayer_id)).size).toBe(buyers.length);
    expect(new Set(buyers.map((b) => b.email)).size).toBe(buyers.length);
    expect(new Set(generated.map((b) => b.first_name)).size).toBeGreaterThan(40);
    expect(new Set(generated.map((b) => b.last_name)).size).toBeGreaterThan(60);
    for (const b of generated) {
      const family = plain(present(present(b.last_name).split(' ').at(-1)));
      expect(plain(present(b.email))).toMatch(new RegExp(`^(${plain(b.first_name)}|${plain(b.first_name).charAt(0)})[._]?${family}\\d+@example\\.(com|net|org)$`));
      expect(b.phone_number).toMatch(/^\+55\d{2}9\d{8}$/);
      expect(b.address).toMatchObject({ line1: expect.any(String), city: expect.any(String), state: expect.stringMatching(/^[A-Z]{2}$/), postal_code: expect.stringMatching(/^\d{8}$/), country_code: 'BR' });
    }
  });

  it('pay with cards on file, of every brand, and come back to buy again', () => {
    const card = sales.filter((t) => t.payment_type === 'credit');
    expect(new Set(card.map((t) => paidWith(t, 'card').card_brand))).toEqual(new Set(['Visa', 'MasterCard', 'Elo', 'Hipercard', 'American Express']));
    // Each card sale names the buyer whose card it is, by the name on the card.
    const byId = new Map(buyers.map((b) => [b.id, b]));
    for (const t of card) {
      const owner = present(byId.get(present(t.customer)), `the buyer of ${t.id}`);
      const surnames = present(owner.last_name).split(' ');
      expect(paidWith(t, 'card').customer).toBe(t.customer);
      // Embossed in capitals without accents, a middle surname as its initial: JOAO S PEREIRA.
      expect(paidWith(t, 'card').holder_name).toMatch(/^[A-Z]+( [A-Z])? [A-Z]+$/);
      expect(paidWith(t, 'card').holder_name).toBe([owner.first_name, ...surnames.slice(0, -1).map((s) => s.charAt(0)), present(surnames.at(-1))].map(plain).join(' ').toUpperCase());
    }
    const cardsOnFile = new Set(card.map((t) => paidWith(t, 'card').id));
    expect(cardsOnFile.size).toBeLessThan(card.length);
    expect(sales.every((t) => typeof t.customer === 'string' && byId.has(t.customer))).toBe(true);
    const perBuyer = new Map<string, number>();
    for (const t of sales) perBuyer.set(present(t.customer), (perBuyer.get(present(t.customer)) ?? 0) + 1);
    expect(Math.max(...perBuyer.values())).toBeGreaterThan(5);
  });

  it('support finds one by CPF (with or without punctuation) and by e-mail, and lists their sales', async () => {
    const customer = sales.find((t) => t.payment_type === 'credit' && t.status === 'succeeded')?.customer;
    const buyer = present(buyers.find((b) => b.id === customer), 'a buyer of a card sale');
    const email = present(buyer.email);
    const found = await json(['buyers', 'find', cpf(buyer.taxpayer_id)]);
    expect(found.map((b) => b.id)).toEqual([buyer.id]);
    expect((await json(['buyers', 'search', '--taxpayer-id', buyer.taxpayer_id])).id).toBe(buyer.id);
    expect((await json(['buyers', 'find', email.toUpperCase()])).map((b) => b.id)).toEqual([buyer.id]);
    const theirs = sales.filter((t) => t.customer === buyer.id).map((t) => t.id).sort();
    const listed = await json(['transactions', 'list', '--all', '--from', EVER, '--customer', email]);
    expect(listed.map((t) => t.id).sort()).toEqual(theirs);
    expect((await json(['transactions', 'list', '--all', '--from', EVER, '--customer', cpf(buyer.taxpayer_id)])).map((t) => t.id).sort()).toEqual(theirs);
  });

  it("the guides' buyer is there: seed 1's most frequent, by CPF and by e-mail", async () => {
    const priscila = present((await json(['buyers', 'find', '027.370.422-24']))[0], 'Priscila');
    expect(priscila).toMatchObject({ first_name: 'Priscila', last_name: 'Machado Nunes', email: 'priscila.nunes1@example.net' });
    const hers = sales.filter((t) => t.customer === priscila.id);
    expect(hers.length).toBe(Math.max(...buyers.map((b) => sales.filter((t) => t.customer === b.id).length)));
    const listed = await json(['transactions', 'list', '--all', '--from', EVER, '--customer', 'priscila.nunes1@example.net']);
    expect(listed.map((t) => t.id).sort()).toEqual(hers.map((t) => t.id).sort());
  });
});

describe('the sales', () => {
  it('have amounts spread like prices, not on a step, and card sales in 1 to 12 instalments', () => {
    expect(sales).toHaveLength(700);
    const amounts = sales.map((t) => cents(t.original_amount)).sort((a, b) => a - b);
    expect(new Set(amounts).size).toBeGreaterThan(350);
    // No common step between them: the differences of neighbours have no divisor but one centavo.
    const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
    expect(amounts.slice(1).reduce((g, a, i) => gcd(g, a - (amounts[i] as number)), 0)).toBe(1);
    expect(amounts[Math.floor(amounts.length * 0.1)]).toBeLessThan(40_00);
    expect(amounts[Math.floor(amounts.length * 0.9)]).toBeGreaterThan(300_00);
    expect(amounts.filter((a) => a % 100 === 90 || a % 100 === 99).length).toBeGreaterThan(sales.length / 3);
    const instalments = sales.filter((t) => t.payment_type === 'credit').map((t) => t.installment_plan?.number_installments ?? 1);
    expect(new Set(instalments).size).toBeGreaterThan(5);
    expect(Math.min(...instalments)).toBe(1);
    expect(Math.max(...instalments)).toBeLessThanOrEqual(12);
    expect(sales.filter((t) => t.payment_type !== 'credit').every((t) => t.installment_plan === null)).toBe(true);
  });

  it('are card, PIX and boleto; boletos and PIX paid or pending; refunded whole or in part; disputed and charged back', () => {
    const kinds = new Set(sales.map((t) => `${t.payment_type} ${t.status}`));
    for (const kind of ['credit succeeded', 'credit failed', 'credit canceled', 'credit dispute', 'credit charged_back', 'pix succeeded', 'pix pending', 'pix canceled', 'boleto succeeded', 'boleto pending']) {
      expect(kinds, kind).toContain(kind);
    }
    const voids = (t: Transaction) => t.history.filter((h) => h.operation_type === 'void' && h.status === 'succeeded');
    // A refund is a void in the sale's history: in part, the sale stands at what is left.
    const partial = sales.filter((t) => t.status === 'succeeded' && t.amount !== t.original_amount);
    expect(partial.length).toBeGreaterThan(0);
    for (const t of partial) expect(cents(t.original_amount) - voids(t).reduce((sum: number, h) => sum + cents(h.amount), 0)).toBe(cents(t.amount));
    for (const t of sales.filter((s) => s.status === 'canceled')) expect([t.amount, t.voided, voids(t).length > 0]).toEqual(['0.00', true, true]);
    // A chargeback: the dispute, then all that was left taken back; no fee kept.
    for (const t of sales.filter((s) => s.status === 'charged_back')) {
      expect(t.history.slice(2).map((h) => `${h.operation_type} ${h.status}`)).toEqual(['dispute pending', 'chargeback succeeded']);
      expect([t.amount, t.fees]).toEqual(['0.00', '0.00']);
    }
    for (const t of sales.filter((s) => s.status === 'dispute')) expect(t.history.at(-1)).toMatchObject({ operation_type: 'dispute', status: 'pending', amount: t.amount });
    // Paid boletos days after they were issued; paid PIX within minutes.
    for (const t of sales.filter((s) => s.payment_type !== 'credit' && s.status === 'succeeded')) {
      const paidAt = t.payment_method.resource === 'card' ? null : t.payment_method.paid_at;
      const waited = Date.parse(present(paidAt, `${t.id} paid_at`)) - Date.parse(t.created_at);
      expect(waited).toBeGreaterThan(0);
      expect(waited).toBeLessThan(t.payment_type === 'pix' ? 181_000 : 3 * 86_400_000);
    }
  });

  it('are spread over three months, up to the sandbox clock', async () => {
    const months = new Set(sales.map((t) => t.created_at.slice(0, 7)));
    expect(months.size).toBeGreaterThanOrEqual(3);
    const now = Date.parse((await json(['sandbox', 'clock'])).now);
    const times = sales.map((t) => Date.parse(t.created_at));
    expect(now - Math.min(...times)).toBeGreaterThan(85 * 86_400_000);
    expect(Math.max(...times)).toBeLessThanOrEqual(now);
  });

  it('list by status: disputes and chargebacks', async () => {
    const wanted = sales.filter((t) => t.status === 'dispute' || t.status === 'charged_back').map((t) => t.id).sort();
    const listed = await json(['transactions', 'list', '--all', '--from', EVER, '--status', 'dispute,charged_back']);
    expect(listed.map((t) => t.id).sort()).toEqual(wanted);
  });
});

describe('the books', () => {
  it('the balance is its history, chargebacks and refunds included; a chargeback cancels what was not paid out', async () => {
    const balance = await json(['balances', 'get']);
    const history = await json(['balances', 'history', '--all']);
    expect(history.reduce((sum: number, e) => sum + cents(e.amount), 0)).toBe(cents(balance.current_balance));
    const chargebacks = await json(['balances', 'history', '--all', '--operation', 'chargeback']);
    const charged = sales.filter((t) => t.status === 'charged_back');
    expect(new Set(chargebacks.map((e) => e.transaction))).toEqual(new Set(charged.map((t) => t.id)));
    expect(chargebacks.every((e) => e.type === 'debit' && e.description === `Chargeback of ${e.transaction}`)).toBe(true);
    for (const t of charged) {
      const receivables = await json(['receivables', 'list', '--transaction', t.id]);
      expect(receivables.length).toBeGreaterThan(0);
      expect(receivables.every((r) => r.status !== 'pending')).toBe(true);
    }
  });

  it('reconcile of a whole month of the volume: every transfer adds up', async () => {
    const transfers = await json(['transfers', 'list', '--all', '--from', EVER]);
    const month = [...new Set(transfers.map((t) => (t.created_at as string).slice(0, 7)))].sort()[1] as string;
    const [y, m] = month.split('-').map(Number) as [number, number];
    const last = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
    const result = await run(home.home, ['reconcile', '--from', `${month}-01`, '--to', last, '-o', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const reconciled = JSON.parse(result.stdout);
    expect(reconciled.matched).toBe(true);
    expect(reconciled.transfers.length).toBeGreaterThan(30);
  });
});

describe('the same seed, the same account', () => {
  const signature = (list: Transaction[]) =>
    list.map((t) => [t.reference_id, t.original_amount, t.amount, t.status, t.payment_type, cardOf(t)?.card_brand, cardOf(t)?.last4_digits, t.installment_plan?.number_installments].join(' ')).sort();
  const generate = async (where: string, args: string[]) => {
    expectJson(await run(where, ['sandbox', 'generate', '--days', '90', ...args, '-o', 'json']));
    return expectJson(await run(where, ['transactions', 'list', '--all', '--from', EVER, '-o', 'json']));
  };

  it('again from scratch: the same sales and buyers; another seed: others', async () => {
    const homes = [tempHome(), tempHome(), tempHome()];
    try {
      const [one, two, seven] = (await Promise.all(homes.map((h, i) => generate(h.home, ['--sales', '150', ...(i === 2 ? ['--seed', '7'] : [])])))).map(signature);
      expect(two).toEqual(one);
      expect(seven).not.toEqual(one);
      const documents = async (h: { home: string }) => expectJson(await run(h.home, ['buyers', 'list', '--all', '-o', 'json'])).map((b) => b.taxpayer_id).sort();
      const [first, second] = await Promise.all(homes.slice(0, 2).map(documents));
      expect(second).toEqual(first);
    } finally {
      for (const h of homes) h.cleanup();
    }
  }, 60_000);

  it('generated again on the same sandbox, it sells to the same buyers again', async () => {
    const more = expectJson(await run(home.home, ['sandbox', 'generate', '--sales', '100', '--days', '5', '-o', 'json']));
    const now = await json(['buyers', 'list', '--all']);
    expect(now).toHaveLength(buyers.length + more.buyers);
    const before = new Set(buyers.map((b) => b.id));
    const added = (await json(['transactions', 'list', '--all', '--from', EVER])).slice(0, 100);
    expect(added.every((t) => t.reference_id?.startsWith('generated-'))).toBe(true);
    expect(added.filter((t) => before.has(present(t.customer))).length).toBeGreaterThan(80);
  }, 30_000);

  it('refuses a seed that is not a whole number, before sending anything', async () => {
    const bad = await run(home.home, ['sandbox', 'generate', '--sales', '10', '--seed', 'abc']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--seed');
  });
});
