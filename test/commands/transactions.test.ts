import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from '../helpers/csv.js';
import { afterEach, beforeAll, afterAll, describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { SANDBOX_API_KEY, SANDBOX_BUYER_ID, SANDBOX_CARD_ID, SANDBOX_MARKETPLACE_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { recordingServer, type RecordingServer } from '../helpers/recording-server.js';
import { readPng } from '../helpers/png.js';
import { tempHome, type RunOptions } from '../helpers/run.js';
import {
  ANSI,
  CVV,
  DECLINED,
  EXP_YEAR,
  ISO_MS,
  MASTERCARD,
  MONEY,
  SANDBOX_LINE,
  TX_URL,
  VISA,
  brl,
  cardFlags,
  cardJson,
  create,
  createCard,
  createPix,
  createPreAuth,
  day,
  expectCreated,
  expectError,
  expectJson,
  expectUsage,
  getTx,
  expectDryRun,
  present,
  listAll,
  paidWith,
  run,
} from './helpers.js';
import type { Transaction } from '../../src/sandbox/types.js';

// ---------------------------------------------------------------------------------------------
describe('transactions create: the seven variants against the embedded sandbox', () => {
  it('direct card: succeeded, amounts as decimal strings, card shown as first 4 / last 4', async ({ home }) => {
    const tx = await create(home, [
      '--amount', '1234,5', ...cardFlags(), '--installments', '3',
      '--description', 'Pedido 1234', '--metadata', 'order=1234', '--metadata', 'note=a=b', '--reference-id', 'order-1234',
    ]);
    expect(tx).toMatchObject({
      resource: 'transaction',
      status: 'succeeded',
      amount: '1234.50',
      original_amount: '1234.50',
      currency: 'BRL',
      payment_type: 'credit',
      description: 'Pedido 1234',
      reference_id: 'order-1234',
      on_behalf_of: SANDBOX_SELLER_ID,
      captured: true,
      voided: false,
      metadata: { order: '1234', note: 'a=b' },
      installment_plan: { number_installments: 3 },
      payment_method: { resource: 'card', card_brand: 'Visa', first4_digits: '4111', last4_digits: '1111', holder_name: 'Maria Silva', expiration_month: '12', expiration_year: EXP_YEAR },
    });
    expect(tx.history.map((h) => [h.operation_type, h.status])).toEqual([['created', 'succeeded'], ['authorization', 'succeeded']]);
  });

  it('direct card from --card-file with --no-capture: pre_authorized, nothing captured yet', async ({ home }) => {
    const file = join(home, 'card.json');
    writeFileSync(file, cardJson(MASTERCARD));
    const tx = await create(home, ['--amount-cents', '9990', '--card-file', file, '--no-capture'], 'pre_authorized');
    expect(tx).toMatchObject({ amount: '99.90', captured: false, payment_method: { card_brand: 'MasterCard', last4_digits: '4444' } });
  });

  it('direct card from --card-file - (standard input)', async ({ home }) => {
    const tx = expectCreated(await run(home, ['transactions', 'create', '--amount', '5', '--card-file', '-'], { stdin: cardJson() }), 'succeeded');
    expect(tx).toMatchObject({ amount: '5.00', payment_method: { first4_digits: '4111', last4_digits: '1111' } });
  });

  it('card on file (--card): charges the seeded card', async ({ home }) => {
    const tx = await create(home, ['--amount', '25', '--card', SANDBOX_CARD_ID]);
    expect(tx).toMatchObject({ amount: '25.00', payment_type: 'credit', customer: SANDBOX_BUYER_ID, payment_method: { id: SANDBOX_CARD_ID, last4_digits: '1111' } });
  });

  it("customer's default card (--customer): succeeded, or pre_authorized with --no-capture", async ({ home }) => {
    const tx = await create(home, ['--amount', '25', '--customer', SANDBOX_BUYER_ID]);
    expect(tx).toMatchObject({ amount: '25.00', payment_type: 'credit', customer: SANDBOX_BUYER_ID, captured: true, payment_method: { id: SANDBOX_CARD_ID } });
    const held = await create(home, ['--amount', '7', '--customer', SANDBOX_BUYER_ID, '--no-capture'], 'pre_authorized');
    expect(held).toMatchObject({ amount: '7.00', captured: false, payment_method: { id: SANDBOX_CARD_ID } });
  });

  it('simple boleto: pending, billed to the buyer, due in 3 days by default', async ({ home }) => {
    const tx = await create(home, ['--payment-type', 'boleto', '--amount', '150', '--customer', SANDBOX_BUYER_ID], 'pending');
    expect(tx).toMatchObject({
      amount: '150.00',
      payment_type: 'boleto',
      customer: SANDBOX_BUYER_ID,
      captured: false,
      payment_method: { resource: 'boleto', status: 'not_paid', customer: SANDBOX_BUYER_ID, expiration_date: day(3), body_instructions: [] },
    });
    expect(typeof paidWith(tx, 'boleto').barcode).toBe('string');
  });

  it('complete boleto: due and limit dates, instructions, late fee, interest, discount and an inline payer', async ({ home }) => {
    const due = day(10);
    const tx = await create(
      home,
      [
        '--payment-type', 'boleto', '--amount', '150.00',
        '--due-date', due, '--payment-limit-date', day(15),
        '--instruction', 'Não receber após o vencimento', '--instruction', 'Pedido 1',
        '--late-fee', '2%', '--interest', '1%', '--discount', `5%@${day(5)}`,
        '--payer-first-name', 'João', '--payer-last-name', 'Souza', '--payer-taxpayer-id', '529.982.247-25',
        '--payer-email', 'joao@example.com', '--payer-address-line1', 'Rua Augusta, 500', '--payer-neighborhood', 'Consolação',
        '--payer-city', 'São Paulo', '--payer-state', 'sp', '--payer-postal-code', '01310-100',
      ],
      'pending',
    );
    expect(tx.amount).toBe('150.00');
    expect(tx.payment_method).toMatchObject({
      resource: 'boleto',
      expiration_date: due,
      payment_limit_date: day(15),
      body_instructions: ['Não receber após o vencimento', 'Pedido 1'],
      billing_instructions: {
        late_fee: { mode: 'PERCENTAGE', percentage: 2, start_date: day(11) },
        interest: { mode: 'MONTHLY_PERCENTAGE', percentage: 1, start_date: day(11) },
        discount: [{ mode: 'PERCENTAGE', percentage: 5, limit_date: day(5) }],
      },
    });
    expect(paidWith(tx, 'boleto').address).toContain('Rua Augusta, 500');
    // The inline payer became a new buyer, not the seeded one.
    expect(tx.customer).toMatch(/^[0-9a-f]{32}$/);
    expect(tx.customer).not.toBe(SANDBOX_BUYER_ID);
  });

  it('boleto with PIX (bolepix): pending, with a barcode and a PIX code', async ({ home }) => {
    const tx = await create(home, ['--payment-type', 'bolepix', '--amount', '80', '--customer', SANDBOX_BUYER_ID, '--due-date', day(7), '--late-fee', '3.00'], 'pending');
    expect(tx).toMatchObject({
      amount: '80.00',
      payment_type: 'bolepix',
      customer: SANDBOX_BUYER_ID,
      payment_method: { resource: 'bolepix', due_at: day(7), status: 'not_paid', late_fee: { mode: 'FIXED', value: '300', start_at: day(8) } },
    });
    expect(paidWith(tx, 'bolepix').emv).toMatch(/^000201/);
  });

  it('PIX: pending, expiring when asked', async ({ home }) => {
    const expires = new Date(Date.now() + 2 * 3600_000);
    expires.setUTCMilliseconds(0);
    const tx = await createPix(home, '30', ['--pix-expires-at', expires.toISOString().replace('.000Z', 'Z')]);
    expect(tx).toMatchObject({ amount: '30.00', payment_type: 'pix', customer: null, payment_method: { resource: 'pix', status: 'not_paid', expiration_date: expires.toISOString() } });
    expect(paidWith(tx, 'pix').qr_code.emv).toMatch(/^000201/);
  });

  it('PIX with --customer bills that buyer (the flag is not dropped)', async ({ home }) => {
    const tx = await createPix(home, '30', ['--customer', SANDBOX_BUYER_ID]);
    expect(tx.customer).toBe(SANDBOX_BUYER_ID);
  });

  const variants: [string, string[]][] = [
    ['direct card', ['--amount', '10', ...cardFlags()]],
    ['card on file', ['--amount', '10', '--card', SANDBOX_CARD_ID]],
    ['customer', ['--amount', '10', '--customer', SANDBOX_BUYER_ID]],
    ['simple boleto', ['--payment-type', 'boleto', '--amount', '10', '--customer', SANDBOX_BUYER_ID]],
    ['complete boleto', ['--payment-type', 'boleto', '--amount', '10', '--customer', SANDBOX_BUYER_ID, '--due-date', day(4), '--interest', '0.1%/day']],
    ['bolepix', ['--payment-type', 'bolepix', '--amount', '10', '--customer', SANDBOX_BUYER_ID]],
    ['pix', ['--payment-type', 'pix', '--amount', '10']],
  ];
  it.for(variants)('%s: one POST answered HTTP 201 (seen with --debug), card data masked in the log', async ([_name, args], { home }) => {
    const result = await run(home, ['transactions', 'create', ...args, '--debug']);
    const tx = expectJson(result);
    expect(tx.amount).toBe('10.00');
    const posts = result.stderr.match(/^> POST .*$/gm) ?? [];
    expect(posts).toEqual([expect.stringMatching(new RegExp(`^> POST http://127\\.0\\.0\\.1:\\d+${TX_URL}$`))]);
    expect(result.stderr).toMatch(/^< HTTP 201 \(\d+ ms\)$/m);
    expect(result.stderr.startsWith(SANDBOX_LINE)).toBe(true);
    expect(result.stderr).toContain(`Created transaction ${tx.id} (${tx.status}, R$ 10,00)`);
    expect(result.stderr).not.toContain(VISA);
    if (args.includes('--cvv')) expect(result.stderr).toContain('"card_number":"4111********1111"');
    if (args.includes('--cvv')) expect(result.stderr).toContain('"security_code":"[redacted]"');
  });
});

// ---------------------------------------------------------------------------------------------
describe('transactions create: declined card', () => {
  it('prints the failed transaction on stdout and exits 6 with the reason', async ({ home }) => {
    const result = await run(home, ['transactions', 'create', '--amount', '10', ...cardFlags(DECLINED)]);
    expect(result.code).toBe(6);
    const tx = JSON.parse(result.stdout);
    expect(tx).toMatchObject({ status: 'failed', amount: '10.00', captured: false, payment_method: { last4_digits: '0002' } });
    expect(result.stderr).toBe(`${SANDBOX_LINE}error: transaction ${tx.id} failed: Card declined by the issuer (do not honor).\n`);
    const [listed] = await listAll(home);
    expect(listed).toMatchObject({ id: tx.id, status: 'failed' });
  });
});

// ---------------------------------------------------------------------------------------------
describe('transactions create: validation before any request (exit 2, flag named, nothing created)', () => {
  const boleto = ['--payment-type', 'boleto', '--amount', '10', '--customer', SANDBOX_BUYER_ID];
  const cases: [string, string[], string[]][] = [
    ['bad Luhn check digit', ['--amount', '10', ...cardFlags('4111111111111112')], ['--card-number:', '4111********1112', 'check digit']],
    ['expired card', ['--amount', '10', ...cardFlags(VISA, { '--exp-month': '1', '--exp-year': '2020' })], ['--exp-year:', 'expired at the end of 01/2020']],
    ['CVV of 2 digits', ['--amount', '10', ...cardFlags(VISA, { '--cvv': '12' })], ['--cvv:', '3 or 4 digits']],
    ['13 installments', ['--amount', '10', ...cardFlags(), '--installments', '13'], ['--installments:', '1 to 12']],
    ['amount 0', ['--amount', '0', ...cardFlags()], ['--amount:', 'zero']],
    ['amount 1.005', ['--amount', '1.005', ...cardFlags()], ['--amount:', 'more than 2 decimal places']],
    ['amount -1', ['--amount', '-1', ...cardFlags()], ['--amount:', 'sign']],
    ['amount-cents 0', ['--amount-cents', '0', ...cardFlags()], ['--amount-cents:', 'zero']],
    ['both --amount and --amount-cents', ['--amount', '10', '--amount-cents', '1000', ...cardFlags()], ['--amount', '--amount-cents', 'not both']],
    ['invalid currency', ['--amount', '10', '--currency', 'R$', ...cardFlags()], ['--currency:', 'three letters']],
    ['due date 2026-02-30', [...boleto, '--due-date', '2026-02-30'], ['--due-date:', 'not a real date']],
    ['due date in the past', [...boleto, '--due-date', day(-2)], ['--due-date:', 'in the past']],
    ['PIX expiry in the past', ['--payment-type', 'pix', '--amount', '10', '--pix-expires-at', '2020-01-01T00:00:00Z'], ['--pix-expires-at:', 'not in the future']],
    ['--customer together with an inline payer', [...boleto, '--payer-first-name', 'A', '--payer-last-name', 'B', '--payer-taxpayer-id', '529.982.247-25'], ['either a registered buyer', 'not both']],
    ['payment limit before due date', [...boleto, '--due-date', day(10), '--payment-limit-date', day(9)], ['--payment-limit-date', 'before --due-date']],
    ['card flags with --payment-type pix', ['--payment-type', 'pix', '--amount', '10', ...cardFlags()], ['--card-number', '--cvv', 'only apply to --payment-type credit']],
    ['--no-capture with --payment-type pix', ['--payment-type', 'pix', '--amount', '10', '--no-capture'], ['--no-capture', 'only apply to --payment-type credit']],
    ['--installments with a boleto', [...boleto, '--installments', '2'], ['--installments', 'only apply to --payment-type credit']],
    ['--card together with card flags', ['--amount', '10', '--card', SANDBOX_CARD_ID, ...cardFlags()], ['choose one way to pay', '--card']],
    ['--card-file together with card flags', ['--amount', '10', '--card-file', 'card.json', '--cvv', '123'], ['--card-file', 'not both']],
    ['6 instructions', [...boleto, ...[1, 2, 3, 4, 5, 6].flatMap((i) => ['--instruction', `linha ${i}`])], ['--instruction:', 'at most 5']],
    ['bad late fee', [...boleto, '--late-fee', '200%'], ['--late-fee:', 'percentage']],
    ['discount without a date', [...boleto, '--discount', '5%'], ['--discount:', '5%@']],
    ['inline payer with a bad CPF', ['--payment-type', 'boleto', '--amount', '10', '--payer-first-name', 'A', '--payer-last-name', 'B', '--payer-taxpayer-id', '123.456.789-00'], ['--payer-taxpayer-id:', 'CPF']],
    ['malformed --customer', ['--amount', '10', '--customer', '../buyers'], ['--customer:', 'malformed buyer id']],
  ];
  it.for(cases)('%s', async ([_name, args, fragments], { home }) => {
    const result = await run(home, ['transactions', 'create', ...args]);
    expectUsage(result, ...fragments);
    expect(result.stderr).not.toContain(VISA);
    expect(await listAll(home)).toEqual([]);
  });

  it("a payer's address without its street is refused by the request's check: exit 2 naming the flag, nothing sent", async ({ home }) => {
    const payer = ['--payer-first-name', 'A', '--payer-last-name', 'B', '--payer-taxpayer-id', '529.982.247-25', '--payer-city', 'Rio', '--payer-state', 'RJ', '--payer-postal-code', '20010-000'];
    const result = await run(home, ['transactions', 'create', '--payment-type', 'boleto', '--amount', '10', ...payer]);
    expectError(result, 2, '--payer-address-line1: is required');
    expect(await listAll(home)).toEqual([]);
  });

  it('an unknown --payment-type is refused by the parser, with the choices', async ({ home }) => {
    const result = await run(home, ['transactions', 'create', '--payment-type', 'debit', '--amount', '10']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: option '--payment-type <type>' argument 'debit' is invalid. Allowed choices are credit, boleto, bolepix, pix.\n(run with --help for usage)\n",
    });
    expect(await listAll(home)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
describe('missing input with prompts off: exit 2 naming the missing flags and why nothing was asked, nothing sent', () => {
  const PIPED = '(prompts are off: neither stdin nor stdout is a terminal)';
  const NO_INPUT = '(prompts are off: --no-input was given)';
  const cases: [string, string[], Omit<RunOptions, 'home'>, string, string][] = [
    ['--no-input on a terminal, no flags', ['--no-input'], { tty: true }, 'missing required flag --amount (or --amount-cents)', NO_INPUT],
    ['--no-input on a terminal, half a card', ['--no-input', '--amount', '10', '--card-number', VISA], { tty: true }, 'missing required flags --holder-name, --exp-month, --exp-year, --cvv', NO_INPUT],
    ['piped, amount but no way to pay', ['--amount', '10'], { stdin: '' }, 'missing required flag --card-number --holder-name --exp-month --exp-year --cvv (or --card-file, --card <card-id>, --customer <buyer-id>)', PIPED],
    ['piped stdin with data, no amount', ['--payment-type', 'pix'], { stdin: '10\n' }, 'missing required flag --amount (or --amount-cents)', PIPED],
    ['boleto without a buyer', ['--payment-type', 'boleto', '--amount', '10'], {}, 'missing required flag --customer <buyer-id> (or the --payer-* flags for a complete boleto)', PIPED],
    ['bolepix without a buyer', ['--payment-type', 'bolepix', '--amount', '10', '--no-input'], { tty: true }, 'missing required flag --customer <buyer-id>', NO_INPUT],
    ['stdout piped from a terminal', ['--payment-type', 'pix'], { tty: true, notTty: 'stdout' }, 'missing required flag --amount (or --amount-cents)', '(prompts are off: stdout is not a terminal)'],
    ['stdin from a file on a terminal', ['--payment-type', 'pix'], { tty: true, notTty: 'stdin', stdin: '' }, 'missing required flag --amount (or --amount-cents)', '(prompts are off: stdin is not a terminal)'],
    ["an AI agent's shell on a terminal", ['--payment-type', 'pix'], { tty: true, env: { CLAUDECODE: '1' } }, 'missing required flag --amount (or --amount-cents)', "(prompts are off: this is an AI agent's shell, CLAUDECODE is set)"],
  ];
  it.for(cases)('%s', async ([_name, args, options, message, why], { home }) => {
    const result = await run(home, ['transactions', 'create', ...args], options);
    expect(expectUsage(result, message)).toContain(why);
    expect(await listAll(home)).toEqual([]);
  });

  it('an inline payer without a last name is named, prompts or not', async ({ home }) => {
    expectUsage(await run(home, ['transactions', 'create', '--payment-type', 'boleto', '--amount', '10', '--payer-first-name', 'A', '--payer-taxpayer-id', '52998224725']), 'an inline boleto payer needs --payer-last-name');
    expect(await listAll(home)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
describe('transactions list', () => {
  // One sandbox for the read-only list tests: five transactions of every kind, oldest first.
  let shared: { home: string; cleanup: () => void };
  const made: Transaction[] = [];
  const refs = ['ord-1', 'ord-2', 'ord-3', 'ord-4', 'ord-5'];
  const ids = () => made.map((t) => t.id);
  const newestFirst = () => ids().reverse();
  beforeAll(async () => {
    shared = tempHome();
    const h = shared.home;
    made.push(await create(h, ['--amount', '1234.50', ...cardFlags(), '--reference-id', 'ord-1', '--description', 'Pedido 1']));
    made.push(await create(h, ['--amount', '10', ...cardFlags(), '--no-capture', '--reference-id', 'ord-2'], 'pre_authorized'));
    made.push(await create(h, ['--payment-type', 'pix', '--amount', '30', '--reference-id', 'ord-3'], 'pending'));
    made.push(await create(h, ['--payment-type', 'boleto', '--amount', '150', '--customer', SANDBOX_BUYER_ID, '--reference-id', 'ord-4'], 'pending'));
    const declined = await run(h, ['transactions', 'create', '--amount', '5', ...cardFlags(DECLINED), '--reference-id', 'ord-5']);
    expect(declined.code).toBe(6);
    made.push(JSON.parse(declined.stdout));
  });
  afterAll(() => shared.cleanup());
  const list = async (args: string[], options: { tty?: boolean; env?: Record<string, string> } = {}) =>
    run(shared.home, ['transactions', 'list', ...args], options);
  const listIds = async (args: string[]) => {
    const result = await list(args);
    const items = expectJson(result);
    expect(result.stderr).toBe(items.length === 0 ? 'no transactions match\n' : '');
    return items.map((t) => t.id);
  };

  it('piped: a JSON array of the API objects, newest first; read-only, so no SANDBOX notice', async () => {
    const result = await list([]);
    const items = expectJson(result);
    expect(result.stderr).toBe('');
    expect(items.map((t) => t.reference_id)).toEqual([...refs].reverse());
    expect(items[4]).toEqual(made[0]);
  });

  it('--status filters, one or several', async () => {
    expect(await listIds(['--status', 'succeeded'])).toEqual([present(made[0]).id]);
    expect(await listIds(['--status', 'pending,failed'])).toEqual([present(made[4]).id, present(made[3]).id, present(made[2]).id]);
    expect(await listIds(['--status', 'canceled'])).toEqual([]);
  });

  it('--status with an unknown value: exit 2 before any request', async () => {
    expectUsage(await list(['--status', 'paid']), '--status:', '"paid" is not valid');
  });

  it('--payment-type filters', async () => {
    expect(await listIds(['--payment-type', 'pix'])).toEqual([present(made[2]).id]);
    expect(await listIds(['--payment-type', 'boleto,pix'])).toEqual([present(made[3]).id, present(made[2]).id]);
    expect(await listIds(['--payment-type', 'credit'])).toEqual([present(made[4]).id, present(made[1]).id, present(made[0]).id]);
  });

  it('--reference-id finds exactly that transaction', async () => {
    expect(await listIds(['--reference-id', 'ord-2'])).toEqual([present(made[1]).id]);
    expect(await listIds(['--reference-id', 'ord-9'])).toEqual([]);
  });

  it('--limit caps the items; --limit with --all is refused', async () => {
    expect(await listIds(['--limit', '2'])).toEqual(newestFirst().slice(0, 2));
    expect(await listIds(['--limit', '1', '--sort', 'asc'])).toEqual([present(made[0]).id]);
    expectUsage(await list(['--limit', '2', '--all']), '--limit', '--all');
    expectUsage(await list(['--limit', '0']), '--limit:');
  });

  it('--sort asc is oldest first, desc (the default) newest first', async () => {
    expect(await listIds(['--sort', 'asc'])).toEqual(ids());
    expect(await listIds(['--sort', 'desc'])).toEqual(newestFirst());
    expect(await listIds([])).toEqual(newestFirst());
    expectUsage(await list(['--sort', 'up']), '--sort:');
  });

  it('--from/--to are whole UTC days', async () => {
    expect(await listIds(['--from', day(0), '--to', day(0)])).toEqual(newestFirst());
    expect(await listIds(['--from', day(-3)])).toEqual(newestFirst());
    expect(await listIds(['--to', day(-1)])).toEqual([]);
    expect(await listIds(['--from', day(1)])).toEqual([]);
    expectUsage(await list(['--from', day(1), '--to', day(0)]), '--from', 'is after --to');
    expectUsage(await list(['--from', '2026-13-01']), '--from:', 'not a real date');
  });

  it('-o ndjson: one compact JSON object per line', async () => {
    const result = await list(['-o', 'ndjson']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(5);
    expect(lines.map((l) => JSON.parse(l).id)).toEqual(newestFirst());
    expect(JSON.parse(lines[4]!)).toEqual(made[0]);
  });

  it('-o csv: the fixed header of dotted columns, then one row per transaction', async () => {
    const result = await list(['-o', 'csv', '--sort', 'asc']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const [header, ...rows] = parseCsv(result.stdout) as [string[], ...string[][]];
    expect(header.slice(0, 4)).toEqual(['id', 'status', 'amount', 'original_amount']);
    expect(header).toContain('payment_method.card_brand');
    expect(header).toContain('payment_method.last4_digits');
    expect(rows.map((r) => r[0])).toEqual(ids());
    expect(rows[0]!.slice(1, 3)).toEqual(['succeeded', '1234.50']);
  });

  it('--fields id,status,amount on json, ndjson and csv', async () => {
    const expected = made.map((t) => ({ id: t.id, status: t.status, amount: t.amount })).reverse();
    const json = await list(['--fields', 'id,status,amount']);
    expect(expectJson(json)).toEqual(expected);
    expect(json.stderr).toBe('');

    const ndjson = await list(['--fields', 'id,status,amount', '-o', 'ndjson']);
    expect(ndjson.code).toBe(0);
    expect(ndjson.stderr).toBe('');
    expect(ndjson.stdout).toBe(expected.map((e) => `${JSON.stringify(e)}\n`).join(''));

    const csv = await list(['--fields', 'id,status,amount', '-o', 'csv']);
    expect(csv.code).toBe(0);
    expect(csv.stderr).toBe('');
    expect(csv.stdout).toBe(`id,status,amount\n${expected.map((e) => `${e.id},${e.status},${e.amount}\n`).join('')}`);
  });

  it('--fields on a table: those columns only, money formatted', async () => {
    const result = await list(['--fields', 'id,status,amount', '--no-color'], { tty: true });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]!.split(/\s{2,}/)).toEqual(['ID', 'STATUS', 'AMOUNT']);
    // Header, five rows and the totals line.
    expect(lines).toHaveLength(7);
    expect(lines[5]!.split(/\s{2,}/)).toEqual([present(made[0]).id, 'succeeded', 'R$ 1.234,50']);
    expect(lines[6]).toMatch(/^5 transactions {2}gross /);
    expect(result.stdout).not.toMatch(ANSI);
  });

  it('a table on a terminal: the default columns, money as R$ 1.234,50, dates as YYYY-MM-DD HH:MM', async () => {
    const result = await list(['--no-color'], { tty: true });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]!.split(/\s{2,}/)).toEqual(['ID', 'STATUS', 'AMOUNT', 'TYPE', 'PAYER', 'REFERENCE', 'DESCRIPTION', 'CREATED']);
    const first = lines[5]!;
    expect(first).toContain(present(made[0]).id);
    expect(first).toContain('R$ 1.234,50');
    expect(first).toContain('Pedido 1');
    expect(first).toContain(`${present(made[0]).created_at.slice(0, 10)} ${present(made[0]).created_at.slice(11, 16)}`);
    expect(lines[4]).toContain('pre_authorized');
  });
});

describe('transactions list: empty and long lists', () => {
  it('an empty list is [] in JSON, nothing in a table; "no transactions match" on stderr', async ({ home }) => {
    const json = await run(home, ['transactions', 'list']);
    expect(json).toEqual({ code: 0, stdout: '[]\n', stderr: 'no transactions match\n' });
    const table = await run(home, ['transactions', 'list'], { tty: true });
    expect(table).toEqual({ code: 0, stdout: '', stderr: 'no transactions match\n' });
    const csv = await run(home, ['transactions', 'list', '-o', 'csv', '--fields', 'id,status']);
    expect(csv).toEqual({ code: 0, stdout: 'id,status\n', stderr: 'no transactions match\n' });
  });

  it('--all returns every transaction (25), the default stops at 20', async ({ home }) => {
    const created: string[] = [];
    for (let i = 0; i < 25; i++) created.push((await createPix(home, `${i + 1}`, ['--reference-id', `bulk-${i}`])).id);
    const all = await listAll(home);
    expect(all.map((t) => t.id)).toEqual([...created].reverse());
    const byDefault = expectJson(await run(home, ['transactions', 'list']));
    expect(byDefault.map((t) => t.id)).toEqual([...created].reverse().slice(0, 20));
  });

  it('--all and --limit over more than one page of 100', async ({ home }) => {
    // 101 transactions put straight into the same state directory through the sandbox's HTTP API:
    // the same emulation the CLI embeds, without 101 CLI start-ups.
    const sandbox = await startSandbox({ stateDir: join(home, 'state') });
    try {
      const auth = `Basic ${Buffer.from(`${SANDBOX_API_KEY}:`).toString('base64')}`;
      for (let i = 0; i < 101; i++) {
        const res = await fetch(`${sandbox.url}${TX_URL}`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/json' },
          body: JSON.stringify({ payment_type: 'pix', amount: 100 + i, currency: 'BRL', on_behalf_of: SANDBOX_SELLER_ID, reference_id: `page-${i}` }),
        });
        expect(res.status).toBe(201);
        await res.arrayBuffer();
      }
    } finally {
      await sandbox.close();
    }
    const all = await listAll(home, ['--sort', 'asc']);
    expect(all.map((t) => t.reference_id)).toEqual(Array.from({ length: 101 }, (_, i) => `page-${i}`));
    const limited = await run(home, ['transactions', 'list', '--limit', '101', '-o', 'ndjson']);
    expect(limited.code).toBe(0);
    expect(limited.stderr).toBe('');
    const ids = limited.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).id);
    expect(ids).toHaveLength(101);
    expect(new Set(ids).size).toBe(101);
    const debug = await run(home, ['transactions', 'list', '--limit', '101', '--fields', 'id', '--debug']);
    expect(expectJson(debug)).toHaveLength(101);
    expect(debug.stderr.match(/^> GET .*$/gm)).toEqual([
      expect.stringMatching(/limit=100&offset=0$/),
      expect.stringMatching(/limit=1&offset=100$/),
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
describe('transactions get', () => {
  it('the JSON types of the seed: decimal strings, booleans, ISO timestamps with ms and Z', async ({ home }) => {
    const created = await createCard(home, '10.50', ['--metadata', 'k=v']);
    const tx = await getTx(home, created.id);
    expect(tx).toEqual(created);
    for (const key of ['amount', 'original_amount', 'fees'] as const) expect(tx[key], key).toMatch(MONEY);
    expect(tx.amount).toBe('10.50');
    for (const key of ['refunded', 'voided', 'captured'] as const) expect(typeof tx[key], key).toBe('boolean');
    for (const key of ['is_active', 'is_valid', 'is_verified'] as const) expect(typeof paidWith(tx, 'card')[key], key).toBe('boolean');
    for (const key of ['created_at', 'updated_at', 'expected_on'] as const) expect(tx[key], key).toMatch(ISO_MS);
    expect(tx.payment_method.created_at).toMatch(ISO_MS);
    expect(tx.transaction_number).toMatch(/^\d+$/);
    expect(tx.id).toMatch(/^[0-9a-f]{32}$/);
    expect(tx.metadata).toEqual({ k: 'v' });
    expect(tx.history).toHaveLength(2);
    for (const entry of tx.history) {
      expect(entry.amount).toBe('10.50');
      expect(entry.created_at).toMatch(ISO_MS);
      expect(entry.transaction).toBe(tx.id);
    }
  });

  it('--fields keeps the dotted paths asked for', async ({ home }) => {
    const { id } = await createCard(home);
    const result = await run(home, ['transactions', 'get', id, '--fields', 'id,status,payment_method.last4_digits,history.operation_type']);
    expect(expectJson(result)).toEqual({
      id,
      status: 'succeeded',
      payment_method: { last4_digits: '1111' },
      history: [{ operation_type: 'created' }, { operation_type: 'authorization' }],
    });
    expect(result.stderr).toBe('');
  });

  it('an unknown id: exit 5 with the provider message', async ({ home }) => {
    const id = 'f'.repeat(32);
    const result = await run(home, ['transactions', 'get', id]);
    expect(result).toEqual({
      code: 5,
      stdout: '',
      stderr: `error: Sorry, the transaction (id: ${id}) you are trying to use does not exist or has been deleted. (resource_not_found, HTTP 404)\n`,
    });
  });

  it('what is not an id is a reference_id: looked up (a read), exit 5 when no sale has it; a control character is exit 2, nothing read', async ({ home }) => {
    expectError(await run(home, ['transactions', 'get', 'abc/../def']), 5, 'no transaction has the id or reference_id "abc/../def"');
    const other = tempHome();
    try {
      expectUsage(await run(other.home, ['transactions', 'get', 'abc\u0007def']), '<id>: give a transaction id or a reference_id');
      expect(existsSync(join(other.home, 'state'))).toBe(false); // the sandbox was never started
    } finally {
      other.cleanup();
    }
  });
});

// ---------------------------------------------------------------------------------------------
describe('transactions update', () => {
  it('changes description and metadata; history grows by one', async ({ home }) => {
    const before = await createCard(home, '10.00', ['--metadata', 'keep=1']);
    const result = await run(home, ['transactions', 'update', before.id, '--description', 'Pedido 1234', '--metadata', 'order=1234']);
    const after = expectJson(result);
    expect(result.stderr).toBe(`${SANDBOX_LINE}Updated transaction ${before.id}\n`);
    expect(after).toMatchObject({ id: before.id, description: 'Pedido 1234', status: 'succeeded', amount: '10.00' });
    // The service merges metadata: keys not given are kept.
    expect(after.metadata).toEqual({ keep: '1', order: '1234' });
    expect(after.history).toHaveLength(before.history.length + 1);
    expect(after.history.at(-1)).toMatchObject({ operation_type: 'update', status: 'succeeded' });
    expect(await getTx(home, before.id)).toEqual(after);
  });

  it('no flags: exit 2, nothing changed', async ({ home }) => {
    const before = await createCard(home);
    expectUsage(await run(home, ['transactions', 'update', before.id]), 'nothing to change', '--description', '--metadata');
    expect(await getTx(home, before.id)).toEqual(before);
  });

  it('--help says metadata is merged, as the service does', async ({ home }) => {
    const result = await run(home, ['transactions', 'update', '--help']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/--metadata <key=value>\s+metadata entry \(repeatable; merged into the existing\s+metadata\)/);
    expect(result.stdout).not.toContain('replaces');
  });

  it('a bad --metadata pair: exit 2', async ({ home }) => {
    const before = await createCard(home);
    expectUsage(await run(home, ['transactions', 'update', before.id, '--metadata', 'novalue']), '--metadata:', 'key=value');
    expect(await getTx(home, before.id)).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------
describe('transactions refund', () => {
  const refund = (home: string, id: string, args: string[] = [], options = {}) => run(home, ['transactions', 'refund', id, ...args], options);

  it('partial: still succeeded, amount lowered, original_amount kept; then the rest: canceled and voided', async ({ home }) => {
    const tx = await createCard(home, '10.50');
    const partial = await refund(home, tx.id, ['--amount', '4,00', '--yes']);
    const afterPartial = expectJson(partial);
    expect(partial.stderr).toBe(`${SANDBOX_LINE}Refunded R$ 4,00 of transaction ${tx.id} (succeeded)\n`);
    expect(afterPartial).toMatchObject({ status: 'succeeded', amount: '6.50', original_amount: '10.50', voided: false });
    expect(afterPartial.history).toHaveLength(tx.history.length + 1);
    expect(afterPartial.history.at(-1)).toMatchObject({ operation_type: 'void', amount: '4.00', status: 'succeeded' });

    // All that remains cannot be refunded twice: no --again needed; it says what was refunded before.
    const rest = await refund(home, tx.id, ['-y']);
    const afterFull = expectJson(rest);
    expect(rest.stderr).toMatch(new RegExp(`^Transaction ${tx.id} was already refunded R\\$ 4,00 by payctl on \\d{4}-\\d\\d-\\d\\d at \\d\\d:\\d\\d:\\d\\d UTC \\(\\S+@\\S+\\)\\.\\n`));
    expect(rest.stderr).toContain(`.\n${SANDBOX_LINE}Refunded R$ 6,50 of transaction ${tx.id} (canceled)\n`);
    expect(afterFull).toMatchObject({ status: 'canceled', amount: '0.00', original_amount: '10.50', voided: true });
    expect(afterFull.history).toHaveLength(tx.history.length + 2);
    expect(afterFull.history.at(-1)).toMatchObject({ operation_type: 'void', amount: '6.50' });
    expect(await getTx(home, tx.id)).toEqual(afterFull);
  });

  it('full by default (--amount-cents also works for a partial one)', async ({ home }) => {
    const tx = await createCard(home, '20.00');
    const cents = expectJson(await refund(home, tx.id, ['--amount-cents', '500', '--yes']));
    expect(cents.amount).toBe('15.00');
    const result = await refund(home, tx.id, ['--yes']);
    const after = expectJson(result);
    expect(after).toMatchObject({ status: 'canceled', voided: true, amount: '0.00', original_amount: '20.00' });
    expect(result.stderr).toContain('Refunded R$ 15,00');
  });

  it('more than what remains: exit 6 naming what is left, nothing sent', async ({ home }) => {
    const tx = await createCard(home, '10.00');
    const result = await refund(home, tx.id, ['--amount', '10.01', '--yes']);
    expect(expectError(result, 6)).toBe(`error: R$ 10,01 is more than the R$ 10,00 left to refund on transaction ${tx.id}; nothing was sent`);
    expect(result.stderr).not.toContain('SANDBOX');
    expect(await getTx(home, tx.id)).toEqual(tx);
  });

  it('nothing left: all that remains is "already fully refunded" (exit 0), an amount is exit 6; nothing sent', async ({ home }) => {
    const tx = await createCard(home, '10.00');
    expectJson(await refund(home, tx.id, ['--yes']));
    const canceled = await getTx(home, tx.id);
    const done = await refund(home, tx.id, ['--yes']);
    expect(expectJson(done)).toEqual(canceled);
    expect(done.stderr).toMatch(new RegExp(`^Transaction ${tx.id} is already fully refunded \\(R\\$ 10,00 by payctl on .*\\); nothing was sent\\.\\n$`));
    for (const extra of [[], ['--again']]) {
      const more = await refund(home, tx.id, ['--amount', '1', '--yes', ...extra]);
      expectError(more, 6, `R$ 1,00 is more than the R$ 0,00 left to refund on transaction ${tx.id}; it was already refunded R$ 10,00 by payctl on`, 'nothing was sent');
      expect(more.stderr).not.toContain('--again');
    }
    expect(await getTx(home, tx.id)).toEqual(canceled);
  });

  it('a pending PIX cannot be refunded: exit 6 with the service message', async ({ home }) => {
    const tx = await createPix(home);
    expectError(await refund(home, tx.id, ['--yes']), 6, 'still pending payment', 'void_transaction_error', 'HTTP 400');
    expect(await getTx(home, tx.id)).toEqual(tx);
  });

  it.for<[string, string[], { stdin?: string; tty?: boolean }]>([
    ['piped', ['--amount', '1'], { stdin: 'y\n' }],
    ['--no-input on a terminal', ['--no-input'], { tty: true }],
  ])('without --yes and prompts off (%s): exit 2 "--yes required", nothing refunded', async ([_name, args, options], { home }) => {
    const tx = await createCard(home, '10.00');
    expectUsage(await refund(home, tx.id, args, options), '--yes required to refund');
    expect(await getTx(home, tx.id)).toEqual(tx);
  });

  it('an unknown transaction: exit 5', async ({ home }) => {
    expectError(await refund(home, '0'.repeat(32), ['--yes']), 5, 'does not exist', 'HTTP 404');
  });

  it('a bad amount: exit 2 before anything is read or sent', async ({ home }) => {
    const tx = await createCard(home, '10.00');
    expectUsage(await refund(home, tx.id, ['--amount', '0', '--yes']), '--amount:', 'zero');
    expectUsage(await refund(home, tx.id, ['--amount', '1', '--amount-cents', '100', '--yes']), 'not both');
    expect(await getTx(home, tx.id)).toEqual(tx);
  });
});

// ---------------------------------------------------------------------------------------------
describe('transactions capture', () => {
  const capture = (home: string, id: string, args: string[] = []) => run(home, ['transactions', 'capture', id, ...args]);

  it('pre_authorized → succeeded, the whole amount', async ({ home }) => {
    const tx = await createPreAuth(home, '10.00');
    const result = await capture(home, tx.id, ['--yes']);
    const after = expectJson(result);
    expect(result.stderr).toBe(`${SANDBOX_LINE}Captured R$ 10,00 of transaction ${tx.id} (succeeded)\n`);
    expect(after).toMatchObject({ status: 'succeeded', captured: true, amount: '10.00', original_amount: '10.00' });
    expect(after.expected_on).toMatch(ISO_MS);
    expect(after.history).toHaveLength(tx.history.length + 1);
    expect(after.history.at(-1)).toMatchObject({ operation_type: 'capture', amount: '10.00' });
  });

  it('a partial capture takes only that amount', async ({ home }) => {
    const tx = await createPreAuth(home, '10.00');
    const result = await capture(home, tx.id, ['--amount', '8.00', '--yes']);
    const after = expectJson(result);
    expect(result.stderr).toBe(`${SANDBOX_LINE}Captured R$ 8,00 of transaction ${tx.id} (succeeded)\n`);
    expect(after).toMatchObject({ status: 'succeeded', captured: true, amount: '8.00', original_amount: '10.00' });
  });

  it('a succeeded transaction: exit 6 from the client-side check (the sale does not allow it), nothing sent', async ({ home }) => {
    const tx = await createCard(home);
    const result = await capture(home, tx.id, ['--yes']);
    expect(expectError(result, 6)).toBe(`error: transaction ${tx.id} is succeeded; only a pre_authorized card transaction can be captured; nothing was sent`);
    expect(result.stderr).not.toContain('SANDBOX');
    expect(await getTx(home, tx.id)).toEqual(tx);
  });

  it('more than was authorized: exit 6 naming what is authorized, nothing sent', async ({ home }) => {
    const tx = await createPreAuth(home, '10.00');
    expectError(await capture(home, tx.id, ['--amount', '10.01', '--yes']), 6, `R$ 10,01 is more than the R$ 10,00 authorized on transaction ${tx.id}; nothing was sent`);
    expect(await getTx(home, tx.id)).toEqual(tx);
  });

  it('without --yes and prompts off: exit 2, still pre_authorized', async ({ home }) => {
    const tx = await createPreAuth(home);
    expectUsage(await capture(home, tx.id), '--yes required to capture');
    expect(await getTx(home, tx.id)).toEqual(tx);
  });
});

// ---------------------------------------------------------------------------------------------
describe('transactions cancellation-letter', () => {
  it('after a full refund: the link, and --save writes the PDF', async ({ home }) => {
    const tx = await createCard(home);
    expectJson(await run(home, ['transactions', 'refund', tx.id, '--yes']));

    const link = await run(home, ['transactions', 'cancellation-letter', tx.id]);
    expect(expectJson(link)).toEqual({ url: expect.stringMatching(new RegExp(`/Carta_Cancelamento_${tx.id}\\.pdf$`)) });
    expect(link.stderr).toBe('');

    const file = join(home, 'letter.pdf');
    const saved = await run(home, ['transactions', 'cancellation-letter', tx.id, '--save', file]);
    expect(expectJson(saved).url).toMatch(/\.pdf$/);
    expect(saved.stderr).toBe(`Saved the cancellation letter of transaction ${tx.id} to ${file}\n`);
    const pdf = readFileSync(file);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.toString('latin1')).toContain(tx.id);
  });

  it('before any refund (and after only a partial one): exit 5, no file written', async ({ home }) => {
    const tx = await createCard(home, '10.00');
    const file = join(home, 'letter.pdf');
    expectError(await run(home, ['transactions', 'cancellation-letter', tx.id, '--save', file]), 5, 'no cancellation letter', 'HTTP 404');
    expectJson(await run(home, ['transactions', 'refund', tx.id, '--amount', '1', '--yes']));
    expectError(await run(home, ['transactions', 'cancellation-letter', tx.id]), 5, 'status is succeeded', '(resource_not_found, HTTP 404)');
    expect(existsSync(file)).toBe(false);
  });

  it('--save to a place that cannot be written: exit 2 naming the path', async ({ home }) => {
    const tx = await createCard(home);
    expectJson(await run(home, ['transactions', 'refund', tx.id, '--yes']));
    const file = join(home, 'missing-dir', 'letter.pdf');
    expectUsage(await run(home, ['transactions', 'cancellation-letter', tx.id, '--save', file]), `--save: cannot write ${file} (ENOENT)`);
  });
});

// ---------------------------------------------------------------------------------------------
describe('--dry-run shows the request and sends nothing', () => {
  it('create (piped → JSON): method, URL, redacted credentials, masked card; nothing created', async ({ home }) => {
    const result = await run(home, ['transactions', 'create', '--amount', '10', ...cardFlags(), '--reference-id', 'dry-1', '--dry-run']);
    const shown = expectJson(result);
    expect(result.stderr).toBe('dry run: nothing was sent\n');
    expect(shown).toEqual({
      dry_run: true,
      method: 'POST',
      url: `sandbox://embedded${TX_URL}`,
      headers: { accept: 'application/json', 'user-agent': expect.stringMatching(/^payctl\//), authorization: 'Basic [redacted]', 'content-type': 'application/json' },
      body: {
        amount: 1000,
        currency: 'BRL',
        payment_type: 'credit',
        on_behalf_of: SANDBOX_SELLER_ID,
        reference_id: 'dry-1',
        capture: 'true',
        source: {
          usage: 'single_use',
          amount: 1000,
          currency: 'BRL',
          type: 'card',
          card: { card_number: '4111********1111', holder_name: 'Maria Silva', expiration_month: '12', expiration_year: EXP_YEAR, security_code: '[redacted]' },
        },
      },
    });
    expect(result.stdout).not.toContain(VISA);
    expect(result.stdout).not.toContain(CVV);
    expect(result.stdout).not.toContain(Buffer.from(`${SANDBOX_API_KEY}:`).toString('base64'));
    expect(existsSync(join(home, 'state'))).toBe(false); // not even the embedded sandbox started
    expect(await listAll(home)).toEqual([]);
  });

  it('create on a terminal: the request as text', async ({ home }) => {
    const result = await run(home, ['transactions', 'create', '--amount', '10', ...cardFlags(), '--dry-run'], { tty: true });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('dry run: nothing was sent\n');
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe(`POST sandbox://embedded${TX_URL}`);
    expect(lines).toContain('authorization: Basic [redacted]');
    expect(result.stdout).toContain('"card_number": "4111********1111"');
    expect(result.stdout).toContain('"security_code": "[redacted]"');
    expect(result.stdout).not.toContain(VISA);
    expect(await listAll(home)).toEqual([]);
  });

  it('-o json on a terminal still prints a JSON object with dry_run: true', async ({ home }) => {
    const result = await run(home, ['transactions', 'create', '--payment-type', 'pix', '--amount', '3', '--dry-run', '-o', 'json'], { tty: true });
    expect(expectJson(result)).toMatchObject({ dry_run: true, method: 'POST', body: { amount: 300, payment_type: 'pix' } });
    expect(result.stderr).toBe('dry run: nothing was sent\n');
  });

  it('update, refund and capture: nothing changes', async ({ home }) => {
    const tx = await createCard(home);
    const held = await createPreAuth(home);

    const update = await run(home, ['transactions', 'update', tx.id, '--description', 'x', '--dry-run']);
    expect(expectJson(update)).toMatchObject({ dry_run: true, method: 'PUT', url: `sandbox://embedded${TX_URL}/${tx.id}`, body: { description: 'x' } });
    expect(update.stderr).toBe('dry run: nothing was sent\n');

    const refund = await run(home, ['transactions', 'refund', tx.id, '--amount', '1', '--dry-run']);
    expect(expectJson(refund)).toMatchObject({
      dry_run: true,
      method: 'POST',
      url: `sandbox://embedded${TX_URL}/${tx.id}/void`,
      headers: { authorization: 'Basic [redacted]' },
      // A dry run reads nothing, so the seller is the transaction's own, named but not looked up.
      body: { on_behalf_of: "(the transaction's seller)", amount: 100 },
    });
    expect(refund.stderr).toBe('dry run: nothing was sent\n');

    const capture = await run(home, ['transactions', 'capture', held.id, '--dry-run']);
    expect(expectJson(capture)).toMatchObject({ dry_run: true, method: 'POST', url: `sandbox://embedded${TX_URL}/${held.id}/capture` });
    expect(capture.stderr).toBe('dry run: nothing was sent\n');

    expect(await getTx(home, tx.id)).toEqual(tx);
    expect(await getTx(home, held.id)).toEqual(held);
    expect(await listAll(home)).toHaveLength(2);
  });

  describe('against a live-style service: not one request reaches it', () => {
    let server: RecordingServer;
    afterEach(async () => server?.close());
    const KEY = 'zpk_live_dryrunkey12345678';
    const TX = 'e'.repeat(32);
    const runs: [string, string[]][] = [
      ['create', ['transactions', 'create', '--amount', '10', ...cardFlags()]],
      ['update', ['transactions', 'update', TX, '--metadata', 'a=1']],
      ['refund', ['transactions', 'refund', TX]],
      ['capture', ['transactions', 'capture', TX, '--amount', '2']],
      ['tokenize', ['cards', 'tokenize', ...cardFlags()]],
      ['sandbox pay', ['sandbox', 'pay', TX]],
    ];
    it.for(runs)('%s', async ([_name, args], { home }) => {
      server = await recordingServer([]);
      const result = await run(home, [...args, '--dry-run'], { env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: KEY, PAYCTL_MARKETPLACE_ID: SANDBOX_MARKETPLACE_ID, PAYCTL_SELLER_ID: 'f'.repeat(32) } });
      const shown = expectDryRun(result);
      expect(result.stderr).toBe('dry run: nothing was sent\n');
      expect(shown.dry_run).toBe(true);
      expect(shown.url.startsWith(`${server.url}/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}/`)).toBe(true);
      expect(shown.headers.authorization).toBe('Basic [redacted]');
      expect(result.stdout).not.toContain(KEY);
      expect(result.stdout).not.toContain(Buffer.from(`${KEY}:`).toString('base64'));
      expect(result.stdout).not.toContain(VISA);
      expect(server.requests).toEqual([]);
    });
  });
});

// ---------------------------------------------------------------------------------------------
describe('boleto and bolepix: the fields the sandbox fills from creation', () => {
  const BOLETO_FIELDS = [
    'id', 'service_boleto_id', 'resource', 'description', 'reference_number', 'document_number', 'expiration_date', 'payment_limit_date', 'recipient',
    'bank_code', 'customer', 'address', 'sequence', 'url', 'barcode', 'created_at', 'updated_at', 'status',
  ] as const;
  const nextDayOf = (date: string) => `${new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)}T00:00:00.000Z`;

  it('boleto: a transaction number, a receipt that is pending until `sandbox pay`, and the payday after the due date', async ({ home }) => {
    const tx = await create(home, ['--payment-type', 'boleto', '--amount', '150', '--customer', SANDBOX_BUYER_ID, '--due-date', day(5), '-o', 'json'], 'pending');
    expect(tx.transaction_number).toMatch(/^\d+$/);
    expect(tx.sales_receipt).toMatch(/^[0-9a-f]{32}$/);
    expect(tx.expected_on).toMatch(ISO_MS);
    expect(tx.expected_on).toBe(nextDayOf(day(5)));

    const pending = expectJson(await run(home, ['receipts', 'get', tx.sales_receipt!, '-o', 'json']));
    expect(pending).toMatchObject({ id: tx.sales_receipt, status: 'pending', transaction: tx.id, payment_type: 'boleto', amount: '150.00' });
    // Not sent while unpaid: the API refuses, exit 6.
    expectError(await run(home, ['receipts', 'email', tx.sales_receipt!, '--to', 'maria@example.com']), 6, 'still pending payment');

    const paid = expectJson(await run(home, ['sandbox', 'pay', tx.id, '-o', 'json']));
    expect(paid).toMatchObject({ status: 'succeeded', transaction_number: tx.transaction_number, sales_receipt: tx.sales_receipt, expected_on: nextDayOf(day(0)) });
    const approved = expectJson(await run(home, ['receipts', 'get', tx.sales_receipt!, '-o', 'json']));
    expect(approved).toMatchObject({ id: tx.sales_receipt, status: 'approved', transaction: tx.id });
  });

  it('bolepix: every field of a boleto (seed 2.2), the PIX code, and its QR code as a PNG', async ({ home }) => {
    const tx = await create(home, ['--payment-type', 'bolepix', '--amount', '80', '--customer', SANDBOX_BUYER_ID, '--due-date', day(7), '-o', 'json'], 'pending');
    expect(tx.transaction_number).toMatch(/^\d+$/);
    expect(tx.sales_receipt).toMatch(/^[0-9a-f]{32}$/);
    expect(tx.expected_on).toBe(nextDayOf(day(7)));
    const pm = paidWith(tx, 'bolepix');
    for (const key of BOLETO_FIELDS) expect(typeof pm[key], key).toBe('string');
    expect(pm).toMatchObject({ resource: 'bolepix', expiration_date: day(7), payment_limit_date: day(7), due_at: day(7), payment_limit_at: day(7), customer: SANDBOX_BUYER_ID });
    expect(pm.emv).toMatch(/^000201/);
    const png = readPng(Buffer.from(pm.base64, 'base64'));
    expect(png).toMatchObject({ bitDepth: 1, colorType: 0 });
    expect(png.width).toBe(png.height);
  });
});

// ---------------------------------------------------------------------------------------------
describe('concurrency', () => {
  it('8 creates at once against the same home all succeed and all are listed', async ({ home }) => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => run(home, ['transactions', 'create', '--amount', `${i + 1}`, ...cardFlags(), '--reference-id', `par-${i}`])),
    );
    const txs = results.map((r) => expectCreated(r, 'succeeded'));
    expect(new Set(txs.map((t) => t.id)).size).toBe(8);
    const listed = await listAll(home);
    expect(listed).toHaveLength(8);
    expect(listed.map((t) => t.reference_id).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `par-${i}`));
    expect(listed.map((t) => t.id).sort()).toEqual(txs.map((t) => t.id).sort());
    expect(new Set(listed.map((t) => t.transaction_number)).size).toBe(8);
  });
});
