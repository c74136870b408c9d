import { describe, expect, it } from 'vitest';
import { amountFromFlags } from '../../src/commands/shared/amount.js';
import { moneyMoveFlags } from '../../src/commands/shared/again.js';
import type { VerbCall } from '../../src/commands/verb.js';
import { test } from '../helpers/fixtures.js';
import { parseVerb, payctl } from '../helpers/run.js';

// The flag rules of transactions refund, capture and create, through the seam (RunF): each command
// line is parsed by the command tree users get and checked by the verb's own rules, and the verb's
// run is replaced, so what is asserted is what the verb would run with, or the usage error (exit 2)
// its rules raise. No home exists and no service is named: nothing is read or sent.

const TX = 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const BUYER = 'cccccccccccccccccccccccccccccccc';
const CARD = 'dddddddddddddddddddddddddddddddd';
const SELLER = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
// Due dates and expiries must be in the future whenever the suite runs.
const NEXT = new Date().getFullYear() + 1;
const CARD_FLAGS = ['--card-number', '4111111111111111', '--holder-name', 'Maria Silva', '--exp-month', '12', '--exp-year', String(NEXT + 2), '--cvv', '123'];

/** The command line passes its verb's rules: what the verb is handed. */
async function accepted(args: string[]): Promise<VerbCall> {
  const result = await parseVerb(args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(result.call).toBeDefined();
  return result.call as VerbCall;
}

/** The command line breaks a rule: exit 2, the rule's words on stderr, and the verb never handed anything. */
async function refused(args: string[], message: RegExp | string): Promise<void> {
  const result = await parseVerb(args);
  expect(result.call).toBeUndefined();
  expect(result.stderr).toMatch(message);
  expect(result.code).toBe(2);
}

describe('the seam', () => {
  it('hands a verb what it would run with: its path, arguments, flags, globals and what is missing', async () => {
    const call = await accepted(['tx', 'refund', TX, '--amount', '5,00', '--again', '--no-wait', '--yes', '-o', 'json']);
    expect(call.verb).toBe('transactions refund');
    expect(call.args).toEqual([TX]);
    expect(call.options).toMatchObject({ amount: '5,00', again: true, wait: false });
    expect(call.globals).toMatchObject({ yes: true, output: 'json', dryRun: false });
    expect(call.missing).toEqual([]);
  });

  it('reports what a required argument or flag left out, for the verb to ask for', async () => {
    const call = await accepted(['transactions', 'splits', 'add']);
    expect(call.missing.map((m) => m.name)).toEqual(['<transaction-id>', '--split']);
  });

  it("refuses what commander refuses, as a user's command line is refused", async () => {
    await refused(['transactions', 'capture', TX, '--file', 'x.csv'], "unknown option '--file'");
    await refused(['transactions', 'refund', TX, '--amount'], "option '--amount <amount>' argument missing");
  });
});

describe("the user's path", () => {
  // What the seam checks is what a user's run checks: the same rules, before anything is read or sent.
  test.for([
    ['refund <id> --concurrency 8', ['transactions', 'refund', TX, '--concurrency', '8'], '--full, --concurrency, --allow-duplicates, --failed-out and --max-wait go with --file'],
    ['refund <id> --file refunds.csv', ['transactions', 'refund', TX, '--file', 'refunds.csv'], 'give either a transaction id or --file, not both'],
    ['capture <id> --amount ""', ['transactions', 'capture', TX, '--amount', ''], '--amount: give an amount in reais'],
    ['create --card <card-id> --due-date …', ['transactions', 'create', '--amount', '10', '--card', CARD, '--due-date', `${NEXT}-01-10`], '--due-date only apply to boleto payments'],
  ] as const)('%s: exit 2 with the rule, nothing asked of the service', async ([, args, message], { home, recording }) => {
    const server = await recording([]);
    const result = await payctl([...args], { home, env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: 'zpk_test_abcdefgh12345678', PAYCTL_MARKETPLACE_ID: SELLER } });
    expect(result.stderr).toContain(message);
    expect(result.code).toBe(2);
    expect(server.requests).toEqual([]);
  });
});

describe('transactions refund', () => {
  it('takes a transaction id or --file, not both', async () => {
    await refused(['transactions', 'refund', TX, '--file', 'refunds.csv'], 'give either a transaction id or --file, not both');
    expect((await accepted(['transactions', 'refund', TX])).args).toEqual([TX]);
    expect((await accepted(['transactions', 'refund', '--file', '-'])).options.file).toBe('-');
  });

  it('leaves a missing id to be asked for (or named) when it runs', async () => {
    const call = await accepted(['transactions', 'refund']);
    expect(call.args).toEqual([]);
    expect(call.missing).toEqual([]);
  });

  it.each([
    ['--full', []],
    ['--concurrency', ['8']],
    ['--allow-duplicates', []],
    ['--failed-out', ['retry.csv']],
    ['--max-wait', ['60']],
  ])('takes %s only with --file', async (flag, value) => {
    await refused(['transactions', 'refund', TX, flag, ...value], '--full, --concurrency, --allow-duplicates, --failed-out and --max-wait go with --file');
    await accepted(['transactions', 'refund', '--file', 'refunds.csv', flag, ...value]);
  });

  it('with --file takes no amount: the rows give them', async () => {
    await refused(['transactions', 'refund', '--file', 'refunds.csv', '--amount', '5.00'], '--file: amounts come from the file');
    await refused(['transactions', 'refund', '--file', 'refunds.csv', '--amount-cents', '500'], '--file: amounts come from the file');
    await refused(['transactions', 'refund', '--file', 'refunds.csv', '--amount', ''], '--file: amounts come from the file');
  });

  it('with --file: --concurrency is a whole number from 1 to 64', async () => {
    for (const bad of ['0', '65', '2.5', 'abc', '-1', '']) {
      if (bad === '-1') await refused(['transactions', 'refund', '--file', 'f.csv', `--concurrency=${bad}`], '--concurrency: give a whole number from 1 to 64');
      else await refused(['transactions', 'refund', '--file', 'f.csv', '--concurrency', bad], '--concurrency: give a whole number from 1 to 64');
    }
    for (const good of ['1', '64']) expect((await accepted(['transactions', 'refund', '--file', 'f.csv', '--concurrency', good])).options.concurrency).toBe(good);
  });

  it('with --file: --max-wait is seconds from 0 to 86400', async () => {
    for (const bad of ['86401', 'abc', '1e3', '']) await refused(['transactions', 'refund', '--file', 'f.csv', '--max-wait', bad], '--max-wait: give seconds, from 0 to 86400');
    await refused(['transactions', 'refund', '--file', 'f.csv', '--max-wait=-1'], '--max-wait: give seconds');
    for (const good of ['0', '1.5', '86400']) await accepted(['transactions', 'refund', '--file', 'f.csv', '--max-wait', good]);
  });

  it('with --file: --again, --no-wait and --full pass through', async () => {
    const call = await accepted(['transactions', 'refund', '--file', 'f.csv', '--full', '--again', '--no-wait', '--allow-duplicates']);
    expect(call.options).toMatchObject({ file: 'f.csv', full: true, again: true, wait: false, allowDuplicates: true });
  });
});

// Refund and capture share their amount flags, read by the same rule.
describe.each(['refund', 'capture'])('transactions %s: its amount', (verb) => {
  it('is --amount or --amount-cents, not both', async () => {
    await refused(['transactions', verb, TX, '--amount', '5.00', '--amount-cents', '500'], 'use either --amount or --amount-cents, not both');
  });

  it('is read strictly, a decimal comma as a decimal point', async () => {
    for (const [given, cents] of [
      ['5,00', 500],
      ['5.5', 550],
      ['0,01', 1],
      ['1234,56', 123456],
    ] as const) {
      const call = await accepted(['transactions', verb, TX, '--amount', given]);
      expect(amountFromFlags(call.options)).toBe(cents);
    }
    for (const [given, why] of [
      ['5.001', 'more than 2 decimal places'],
      ['1.234,56', 'thousands separator'],
      ['1e3', 'exponent'],
      ['5 00', 'contains a space'],
      ['R$5', 'is not an amount'],
      ['5.', 'digits on both sides'],
      ['', 'give an amount in reais'],
    ] as const) {
      await refused(['transactions', verb, TX, '--amount', given], new RegExp(`--amount: .*${why}`));
    }
    await refused(['transactions', verb, TX, '--amount=-5'], 'has a sign');
  });

  it('in cents is a whole number above 0', async () => {
    expect(amountFromFlags((await accepted(['transactions', verb, TX, '--amount-cents', '500'])).options)).toBe(500);
    for (const bad of ['5.00', '0', 'abc', '']) await refused(['transactions', verb, TX, '--amount-cents', bad], '--amount-cents:');
  });

  it('left out is all that may be moved, and --again and --no-wait pass through', async () => {
    const call = await accepted(['transactions', verb, TX, '--again', '--no-wait']);
    expect(amountFromFlags(call.options)).toBeUndefined();
    expect(call.options).toMatchObject({ again: true, wait: false });
  });

  it('--wait (for a decision on a move sent for approval) is the same option set the other way; the last one given wins', async () => {
    expect(moneyMoveFlags((await accepted(['transactions', verb, TX, '--wait'])).options)).toEqual({ again: false, noWait: false, waitForApproval: true });
    expect(moneyMoveFlags((await accepted(['transactions', verb, TX])).options)).toEqual({ again: false, noWait: false, waitForApproval: false });
    expect(moneyMoveFlags((await accepted(['transactions', verb, TX, '--wait', '--no-wait'])).options)).toEqual({ again: false, noWait: true, waitForApproval: false });
  });
});

describe('transactions create', () => {
  const create = (...flags: string[]) => ['transactions', 'create', '--amount', '10,50', ...flags];

  it('with no flags at all passes, to be walked through (or named) when it runs', async () => {
    const call = await accepted(['transactions', 'create']);
    // --wait and --no-wait: neither given, neither said.
    expect(call.options).toEqual({ capture: true });
    expect(call.missing).toEqual([]);
  });

  it('takes one of the four payment types', async () => {
    await refused(create('--payment-type', 'debit'), "argument 'debit' is invalid. Allowed choices are credit, boleto, bolepix, pix");
    for (const type of ['boleto', 'bolepix', 'pix']) expect((await accepted(create('--payment-type', type))).options.paymentType).toBe(type);
  });

  it('its amount: --amount or --amount-cents, not both, read strictly', async () => {
    await refused(create('--amount-cents', '1050'), 'use either --amount or --amount-cents, not both');
    expect(amountFromFlags((await accepted(create('--card', CARD))).options)).toBe(1050);
    await refused(['transactions', 'create', '--amount', '10.505'], '--amount: "10.505" has more than 2 decimal places');
    await refused(['transactions', 'create', '--amount', ''], '--amount: give an amount in reais');
    await refused(['transactions', 'create', '--amount-cents', '10,50'], '--amount-cents: "10,50" is not a whole number of centavos');
  });

  it.each([
    ['--card', [CARD]],
    ['--card-number', ['4111111111111111']],
    ['--card-file', ['card.json']],
    ['--installments', ['3']],
    ['--no-capture', []],
  ])('%s only applies to a card', async (flag, value) => {
    for (const type of ['boleto', 'bolepix', 'pix']) await refused(create('--payment-type', type, flag, ...value), `${flag} only apply to --payment-type credit`);
  });

  it.each([
    ['--due-date', [`${NEXT}-01-10`]],
    ['--payment-limit-date', [`${NEXT}-01-10`]],
    ['--instruction', ['Não receber após o vencimento']],
    ['--late-fee', ['2%']],
    ['--interest', ['1%']],
    ['--discount', [`5%@${NEXT}-01-05`]],
    ['--payer-first-name', ['Maria']],
    ['--payer-city', ['São Paulo']],
    ['--payer-postal-code', ['01310-100']],
  ])('%s only applies to a boleto', async (flag, value) => {
    for (const type of ['credit', 'pix']) await refused(create('--payment-type', type, flag, ...value), `${flag} only apply to boleto payments`);
  });

  it('a boleto flag without --payment-type makes a card sale, which refuses it', async () => {
    await refused(create('--due-date', `${NEXT}-01-10`), '--due-date only apply to boleto payments');
  });

  it('--pix-expires-at only applies to a PIX, and is a date-time in the future', async () => {
    for (const type of ['credit', 'boleto', 'bolepix']) await refused(create('--payment-type', type, '--pix-expires-at', `${NEXT}-01-10T12:00:00Z`), '--pix-expires-at only applies to --payment-type pix');
    await accepted(create('--payment-type', 'pix', '--pix-expires-at', `${NEXT}-01-10T12:00:00Z`));
    await refused(create('--payment-type', 'pix', '--pix-expires-at', '2020-01-10T12:00:00Z'), '--pix-expires-at: 2020-01-10T12:00:00');
    await refused(create('--payment-type', 'pix', '--pix-expires-at', 'tomorrow'), '--pix-expires-at: "tomorrow" is not a date and time');
  });

  it('reads its shared flags strictly: currency, seller, reference, metadata, splits, buyer', async () => {
    await refused(create('--currency', 'reais'), '--currency: "reais" is not a currency code');
    await refused(create('--on-behalf-of', 'seller 1'), '--on-behalf-of: malformed seller id');
    await refused(create('--reference-id', 'order\n1'), '--reference-id: holds a control character');
    await refused(create('--reference-id', 'x'.repeat(501)), '--reference-id: at most 500 characters');
    await refused(create('--metadata', 'order'), '--metadata: "order" should look like key=value');
    await refused(create('--metadata', 'a=1', '--metadata', 'a=2'), '--metadata: key "a" is given more than once');
    await refused(create('--split', SELLER), '--split: ');
    await refused(create('--customer', 'maria silva'), '--customer: malformed buyer id');
    const call = await accepted(create('--currency', 'brl', '--on-behalf-of', SELLER, '--reference-id', 'order-1', '--metadata', 'order=1', '--split', `${BUYER}:30%,net`, '--customer', BUYER));
    expect(call.options).toMatchObject({ currency: 'brl', onBehalfOf: SELLER, referenceId: 'order-1', metadata: ['order=1'], split: [`${BUYER}:30%,net`], customer: BUYER });
  });

  it('pays a card one way: its details, a card on file or a buyer; a new card for a buyer is its details with --customer', async () => {
    await refused(create('--card', CARD, '--customer', BUYER), 'choose one way to pay: --card, --customer were all given');
    await refused(create(...CARD_FLAGS, '--card', CARD), 'choose one way to pay: card details, --card were all given');
    await refused(create('--card-file', 'card.json', '--card', CARD, '--customer', BUYER), 'choose one way to pay: card details, --card, --customer');
    await accepted(create(...CARD_FLAGS, '--customer', BUYER));
    await accepted(create('--card-file', 'card.json', '--customer', BUYER));
  });

  it('takes a card from --card-file or its flags, not both; five card flags are checked as given', async () => {
    await refused(create('--card-file', 'card.json', '--cvv', '123'), 'use either --card-file or the card flags');
    await refused(create(...CARD_FLAGS.map((v) => (v === '4111111111111111' ? '4111111111111112' : v))), '--card-number:');
    await refused(create(...CARD_FLAGS.map((v) => (v === 'Maria Silva' ? ' ' : v))), '--holder-name: the cardholder name is empty');
    // Some of them only: the rest are asked for on a terminal (or named) when it runs.
    await accepted(create('--card-number', '4111111111111111'));
    const call = await accepted(create(...CARD_FLAGS, '--installments', '12', '--no-capture'));
    expect(call.options).toMatchObject({ cardNumber: '4111111111111111', installments: '12', capture: false });
  });

  it('--installments is from 1 to 12', async () => {
    for (const bad of ['0', '13', '2.5', 'três']) await refused(create('--card', CARD, '--installments', bad), '--installments:');
  });

  it("a boleto's dates: not in the past, the last day to pay not before the due date", async () => {
    await refused(create('--payment-type', 'boleto', '--customer', BUYER, '--due-date', '2020-01-10'), '--due-date: 2020-01-10 is in the past');
    await refused(create('--payment-type', 'boleto', '--customer', BUYER, '--due-date', `${NEXT}-13-01`), '--due-date:');
    await refused(create('--payment-type', 'boleto', '--customer', BUYER, '--payment-limit-date', '2020-01-10'), '--payment-limit-date: 2020-01-10 is in the past');
    await refused(create('--payment-type', 'boleto', '--customer', BUYER, '--due-date', `${NEXT}-01-10`, '--payment-limit-date', `${NEXT}-01-09`), `--payment-limit-date ${NEXT}-01-09 is before --due-date ${NEXT}-01-10`);
    await accepted(create('--payment-type', 'boleto', '--customer', BUYER, '--due-date', `${NEXT}-01-10`, '--payment-limit-date', `${NEXT}-01-10`));
  });

  it("a boleto's instructions, fees, interest and discounts are read strictly", async () => {
    const boleto = (...flags: string[]) => create('--payment-type', 'boleto', '--customer', BUYER, ...flags);
    await refused(boleto(...Array.from({ length: 6 }, (_, i) => ['--instruction', `linha ${i}`]).flat()), '--instruction: at most 5 instructions (got 6)');
    await refused(boleto('--instruction', 'uma\nduas'), '--instruction: holds a control character');
    await refused(boleto('--late-fee', '101%'), '--late-fee: "101%" is not a percentage between 0 and 100');
    await refused(boleto('--late-fee', '5,001'), '--late-fee: "5,001" has more than 2 decimal places');
    await refused(boleto('--interest', 'muito'), '--interest:');
    await refused(boleto('--discount', '5%'), '--discount: "5%" should look like 5%@2026-12-01');
    await refused(boleto('--discount', '5%@amanhã'), '--discount:');
    await accepted(boleto('--late-fee', '2%', '--late-fee', '2%', '--interest', '0,1%/day', '--discount', `2,00@${NEXT}-01-05`, '--discount', `5%@${NEXT}-01-01`));
  });

  it('an inline boleto payer: its name and CPF or CNPJ, each detail read strictly, never with --customer', async () => {
    const payer = ['--payer-first-name', 'Maria', '--payer-last-name', 'Silva', '--payer-taxpayer-id', '529.982.247-25'];
    await refused(create('--payment-type', 'boleto', '--payer-first-name', 'Maria'), 'an inline boleto payer needs --payer-last-name, --payer-taxpayer-id');
    await refused(create('--payment-type', 'boleto', ...payer.slice(0, 4), '--payer-taxpayer-id', '111.111.111-11'), '--payer-taxpayer-id:');
    await refused(create('--payment-type', 'boleto', ...payer, '--payer-email', 'maria'), '--payer-email:');
    await refused(create('--payment-type', 'boleto', ...payer, '--payer-phone', 'ligar'), '--payer-phone:');
    await refused(create('--payment-type', 'boleto', ...payer, '--payer-birthdate', '31/12/1990'), '--payer-birthdate:');
    await refused(create('--payment-type', 'boleto', ...payer, '--payer-state', 'São Paulo'), '--payer-state: use the two-letter state code');
    await refused(create('--payment-type', 'boleto', ...payer, '--payer-postal-code', '0131'), '--payer-postal-code: a CEP has 8 digits');
    await refused(create('--payment-type', 'boleto', ...payer, '--customer', BUYER), 'bill either a registered buyer (--customer) or an inline payer (--payer-* flags), not both');
    await accepted(create('--payment-type', 'boleto', ...payer, '--payer-email', 'maria@example.com', '--payer-state', 'sp', '--payer-postal-code', '01310-100', '--payer-birthdate', '1990-12-31'));
  });

  it('a bolepix bills a registered buyer, with one discount at most', async () => {
    await refused(create('--payment-type', 'bolepix', '--payer-first-name', 'Maria', '--payer-last-name', 'Silva', '--payer-taxpayer-id', '529.982.247-25'), 'bolepix bills a registered buyer: use --customer');
    await refused(create('--payment-type', 'bolepix', '--customer', BUYER, '--discount', `5%@${NEXT}-01-01`, '--discount', `2%@${NEXT}-01-05`), '--discount: a boleto with PIX takes a single discount');
    await accepted(create('--payment-type', 'bolepix', '--customer', BUYER, '--discount', `5%@${NEXT}-01-01`));
  });

  it('--allow-duplicate-reference and --no-wait pass through (a reference typed in a walk-through also counts, so it is checked when it runs)', async () => {
    const call = await accepted(create('--card', CARD, '--allow-duplicate-reference', '--no-wait'));
    expect(call.options).toMatchObject({ allowDuplicateReference: true, wait: false });
  });
});
