import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { SANDBOX_MARKETPLACE_ID } from '../../src/provider/sandbox-account.js';
import {
  cardFlags,
  cardJson,
  create,
  CVV,
  EXP_YEAR,
  expectJson,
  expectUsage,
  getTx,
  ISO_MS,
  listAll,
  MASTERCARD,
  paidWith,
  type Ran,
  run,
  SANDBOX_LINE,
  VISA,
} from './helpers.js';

/** A token printed by `cards tokenize`: the JSON on stdout, SANDBOX and one status line on stderr. */
function expectToken(result: Ran<readonly ['cards', 'tokenize', ...string[]]>) {
  const token = expectJson(result);
  expect(result.stderr).toBe(`${SANDBOX_LINE}Created card token ${token.id}\n`);
  expect(token).toMatchObject({ resource: 'token', type: 'card', used: 'false' });
  expect(token.id).toMatch(/^[0-9a-f]{32}$/);
  // The seed's token card carries first4_digits and deliberately no last4_digits.
  expect(token.card).toHaveProperty('first4_digits');
  expect(token.card).not.toHaveProperty('last4_digits');
  expect(token.card.created_at).toMatch(ISO_MS);
  expect(result.stdout).not.toContain(VISA);
  expect(result.stdout).not.toContain(MASTERCARD);
  expect(result.stdout).not.toMatch(new RegExp(`\\b${CVV}\\b`));
  return token;
}

describe('cards tokenize', () => {
  it('from the card flags', async ({ home }) => {
    const token = expectToken(await run(home, ['cards', 'tokenize', ...cardFlags()]));
    expect(token.card).toMatchObject({
      resource: 'card',
      card_brand: 'Visa',
      first4_digits: '4111',
      holder_name: 'Maria Silva',
      expiration_month: '12',
      expiration_year: EXP_YEAR,
      uri: `/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}/cards/${token.card.id}`,
    });
  });

  it('from --card-file <path>', async ({ home }) => {
    const file = join(home, 'card.json');
    writeFileSync(file, cardJson(MASTERCARD));
    const token = expectToken(await run(home, ['cards', 'tokenize', '--card-file', file]));
    expect(token.card).toMatchObject({ card_brand: 'MasterCard', first4_digits: '5555' });
  });

  it('from --card-file - (standard input)', async ({ home }) => {
    const token = expectToken(await run(home, ['cards', 'tokenize', '--card-file', '-'], { stdin: cardJson() }));
    expect(token.card.first4_digits).toBe('4111');
  });

  it("the token's card can then be charged with transactions create --card", async ({ home }) => {
    const token = expectToken(await run(home, ['cards', 'tokenize', ...cardFlags(MASTERCARD)]));
    const tx = await create(home, ['--amount', '42.00', '--card', token.card.id]);
    expect(tx).toMatchObject({
      amount: '42.00',
      payment_type: 'credit',
      payment_method: { id: token.card.id, card_brand: 'MasterCard', first4_digits: '5555', last4_digits: '4444' },
    });
    expect(await listAll(home)).toEqual([tx]);
  });

  it('names the card by brand and last four, the same in the token, in `cards get` and in a charge', async ({ home }) => {
    const token = expectToken(await run(home, ['cards', 'tokenize', ...cardFlags(MASTERCARD), '-o', 'json']));
    // The token's card shows no last4_digits field (seed 2.5), but its description names them.
    expect(token.card.description).toBe('MasterCard final 4444');
    const stored = expectJson(await run(home, ['cards', 'get', token.card.id, '-o', 'json']));
    expect(stored).toMatchObject({ id: token.card.id, description: 'MasterCard final 4444', last4_digits: '4444' });
    const tx = await create(home, ['--amount', '5', '--card', token.card.id, '-o', 'json']);
    expect(tx.payment_method).toMatchObject({ id: token.card.id, description: 'MasterCard final 4444' });
    const direct = await create(home, ['--amount', '5', ...cardFlags(VISA), '-o', 'json']);
    expect(paidWith(direct, 'card').description).toBe('Visa final 1111');
  });

  const bad: [string, string[], string[]][] = [
    ['bad Luhn check digit', cardFlags('4111111111111112'), ['--card-number:', 'check digit']],
    ['letters in the number', cardFlags('4111-1111-1111-111x'), ['--card-number:', 'only digits']],
    ['expired', cardFlags(VISA, { '--exp-month': '01', '--exp-year': '2021' }), ['--exp-year:', 'expired']],
    ['month 13', cardFlags(VISA, { '--exp-month': '13' }), ['--exp-month:', 'not a month']],
    ['CVV of 2 digits', cardFlags(VISA, { '--cvv': '12' }), ['--cvv:', '3 or 4 digits']],
    ['empty holder name', cardFlags(VISA, { '--holder-name': '  ' }), ['--holder-name:', 'empty']],
    ['--card-file with card flags', ['--card-file', 'card.json', '--card-number', VISA], ['--card-file', 'not both']],
    ['--card-file that does not exist', ['--card-file', '/nonexistent/card.json'], ['--card-file: cannot read /nonexistent/card.json (ENOENT)']],
  ];
  it.for(bad)('a bad card (%s): exit 2 naming the flag, nothing sent', async ([_name, args, fragments], { home }) => {
    const result = await run(home, ['cards', 'tokenize', ...args]);
    expectUsage(result, ...fragments);
    expect(result.stderr).not.toContain(VISA);
    expect(existsSync(join(home, 'state'))).toBe(false); // the sandbox was never started
  });

  it.for<[string, string, string]>([
    ['not JSON', 'card_number=4111111111111111', '--card-file: not valid JSON'],
    ['a JSON array', '[]', '--card-file: expected a JSON object'],
    ['fields missing', JSON.stringify({ card_number: VISA, holder_name: 'M S' }), '--card-file: missing expiration_month, expiration_year, security_code'],
  ])('a bad --card-file (%s): exit 2', async ([_name, content, message], { home }) => {
    const file = join(home, 'card.json');
    writeFileSync(file, content);
    const result = await run(home, ['cards', 'tokenize', '--card-file', file]);
    expectUsage(result, message);
    expect(result.stderr).not.toContain(VISA);
  });

  it('prompts off (--no-input on a terminal, or piped): exit 2 naming every missing flag', async ({ home }) => {
    const all = '--card-number, --holder-name, --exp-month, --exp-year, --cvv';
    expectUsage(await run(home, ['cards', 'tokenize', '--no-input'], { tty: true }), `missing required flags ${all}`);
    expectUsage(await run(home, ['cards', 'tokenize', '--card-number', VISA, '--cvv', CVV]), 'missing required flags --holder-name, --exp-month, --exp-year');
    expect(existsSync(join(home, 'state'))).toBe(false);
  });

  it('--dry-run: the masked request, and no token is created', async ({ home }) => {
    const result = await run(home, ['cards', 'tokenize', ...cardFlags(), '--dry-run']);
    expect(expectJson(result)).toEqual({
      dry_run: true,
      method: 'POST',
      url: `sandbox://embedded/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}/cards/tokens`,
      headers: { accept: 'application/json', 'user-agent': expect.stringMatching(/^payctl\//), authorization: 'Basic [redacted]', 'content-type': 'application/json' },
      body: { holder_name: 'Maria Silva', expiration_month: '12', expiration_year: EXP_YEAR, card_number: '4111********1111', security_code: '[redacted]' },
    });
    expect(result.stderr).toBe('dry run: nothing was sent\n');
    expect(result.stdout).not.toContain(VISA);
    expect(existsSync(join(home, 'state'))).toBe(false);

    const text = await run(home, ['cards', 'tokenize', ...cardFlags(), '--dry-run'], { tty: true });
    expect(text.code).toBe(0);
    expect(text.stderr).toBe('dry run: nothing was sent\n');
    expect(text.stdout.split('\n')[0]).toBe(`POST sandbox://embedded/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}/cards/tokens`);
    expect(text.stdout).toContain('"card_number": "4111********1111"');
    expect(text.stdout).toContain('"security_code": "[redacted]"');
    expect(existsSync(join(home, 'state'))).toBe(false);
  });

  it('a tokenized card stays chargeable after its first charge', async ({ home }) => {
    const token = expectToken(await run(home, ['cards', 'tokenize', ...cardFlags()]));
    const first = await create(home, ['--amount', '1', '--card', token.card.id]);
    const second = await create(home, ['--amount', '2', '--card', token.card.id]);
    expect((await getTx(home, first.id)).payment_method.id).toBe(token.card.id);
    expect(second.payment_method.id).toBe(token.card.id);
  });
});
