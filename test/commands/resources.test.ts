import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { SANDBOX_BUYER_ID } from '../../src/provider/sandbox-account.js';
import { ANSI, cardFlags, cardJson, expectError, expectJson, paidWith, present, run } from './helpers.js';

// Buyers, cards, sources, boletos, receipts and receivables against the embedded sandbox: the
// day-to-day flows of a support agent, with the sandbox keeping referential integrity.
const CPF = '390.533.447-05';
const json = async <const A extends readonly string[]>(home: string, args: A, stdin?: string) => expectJson(await run(home, [...args, '-o', 'json'], stdin === undefined ? {} : { stdin }));

async function newBuyer(home: string, taxpayerId = CPF, extra: string[] = []) {
  return json(home, ['buyers', 'create', '--first-name', 'João', '--last-name', 'Souza', '--taxpayer-id', taxpayerId, '--email', 'joao@example.com', ...extra]);
}

async function tokenize(home: string, number?: string) {
  return json(home, ['cards', 'tokenize', '--card-file', '-'], cardJson(number));
}

describe('buyers', () => {
  it('create, get, search by CPF with or without punctuation, update, list as a table with the CPF masked', async ({ home }) => {
    const buyer = await newBuyer(home);
    expect(buyer).toMatchObject({ resource: 'buyer', first_name: 'João', last_name: 'Souza', taxpayer_id: '39053344705', email: 'joao@example.com' });
    expect((await json(home, ['buyers', 'get', buyer.id])).id).toBe(buyer.id);
    expect((await json(home, ['buyers', 'search', '--taxpayer-id', CPF])).id).toBe(buyer.id);
    expect((await json(home, ['buyers', 'search', '--taxpayer-id', '39053344705'])).id).toBe(buyer.id);
    expect(await json(home, ['buyers', 'update', buyer.id, '--phone', '(21) 99909-9999', '--city', 'Niterói', '--state', 'rj'])).toMatchObject({
      phone_number: '21999099999',
      address: { city: 'Niterói', state: 'RJ' },
    });
    const table = await run(home, ['buyers', 'list', '--no-color'], { tty: true });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^ID\s+NAME\s+CPF\/CNPJ\s+EMAIL\s+CREATED/);
    expect(table.stdout).toContain('João Souza');
    expect(table.stdout).toContain('***.***.*47-05');
    expect(table.stdout).not.toContain('39053344705');
    expect(table.stdout).not.toMatch(ANSI);
  });

  it('an alphanumeric CNPJ (from July 2026) is accepted, sent and stored without punctuation, upper-cased, and found again', async ({ home }) => {
    const dry = await run(home, ['buyers', 'create', '--first-name', 'Loja', '--taxpayer-id', '12.abc.345/01de-35', '--dry-run']);
    expect(expectJson(dry)).toMatchObject({ dry_run: true, method: 'POST', body: { first_name: 'Loja', taxpayer_id: '12ABC34501DE35' } });

    const buyer = await newBuyer(home, '12.ABC.345/01DE-35');
    expect(buyer).toMatchObject({ resource: 'buyer', first_name: 'João', taxpayer_id: '12ABC34501DE35' });
    expect((await json(home, ['buyers', 'get', buyer.id])).taxpayer_id).toBe('12ABC34501DE35');
    for (const typed of ['12.ABC.345/01DE-35', '12abc34501de35']) {
      expect((await json(home, ['buyers', 'search', '--taxpayer-id', typed])).id).toBe(buyer.id);
    }
    expectError(await run(home, ['buyers', 'create', '--first-name', 'Outra', '--taxpayer-id', '12abc34501de35']), 6, 'HTTP 409');
  });

  it('an alphanumeric CNPJ with a wrong check digit exits 2 naming --taxpayer-id, before anything is sent', async ({ home }) => {
    const line = expectError(await run(home, ['buyers', 'create', '--first-name', 'Loja', '--taxpayer-id', '12.ABC.345/01DE-36']), 2, '--taxpayer-id:');
    expect(line).toContain('"12.ABC.345/01DE-36" is not a valid CNPJ (the check digits do not match); look for a typo');
    expectError(await run(home, ['buyers', 'search', '--taxpayer-id', '12ABC34501DE53']), 2, '--taxpayer-id:', 'not a valid CNPJ');
  });

  it('a second buyer with the same CPF is refused by the API', async ({ home }) => {
    await newBuyer(home);
    const line = expectError(await run(home, ['buyers', 'create', '--first-name', 'Outro', '--taxpayer-id', CPF]), 6, 'HTTP 409');
    expect(line).toMatch(/already exists \(id: [0-9a-f]{32}\): taxpayer_id: already registered to buyer [0-9a-f]{32} \(duplicate_taxpayer_id, HTTP 409\)$/);
  });

  it('search for an unknown CPF exits 5; a malformed one exits 2', async ({ home }) => {
    expectError(await run(home, ['buyers', 'search', '--taxpayer-id', '111.444.777-35']), 5, 'HTTP 404');
    expectError(await run(home, ['buyers', 'search', '--taxpayer-id', '111.444.777-00']), 2, '--taxpayer-id:');
  });

  it('remove asks, and with --yes removes; the buyer is then gone (exit 5)', async ({ home }) => {
    const buyer = await newBuyer(home);
    expectError(await run(home, ['buyers', 'remove', buyer.id]), 2, '--yes required');
    expect((await json(home, ['buyers', 'get', buyer.id])).id).toBe(buyer.id);
    expect(await json(home, ['buyers', 'remove', buyer.id, '--yes'])).toMatchObject({ id: buyer.id, deleted: true });
    expectError(await run(home, ['buyers', 'get', buyer.id]), 5, 'resource_not_found');
  });
});

describe('cards and referential integrity', () => {
  it('a token is associated once; the card becomes the buyer default and pays by customer id; a buyer with cards cannot be removed', async ({ home }) => {
    const buyer = await newBuyer(home);
    const token = await tokenize(home, '5555555555554444');
    expect(token.used).toBe('false');
    const card = await json(home, ['cards', 'associate', '--token', token.id, '--customer', buyer.id]);
    expect(card).toMatchObject({ resource: 'card', customer: buyer.id, card_brand: 'MasterCard', last4_digits: '4444', first4_digits: '5555' });
    expectError(await run(home, ['cards', 'associate', '--token', token.id, '--customer', buyer.id]), 6, 'token_already_used', 'HTTP 400');
    expect((await json(home, ['buyers', 'get', buyer.id])).default_credit).toBe(card.id);

    const tx = await json(home, ['transactions', 'create', '--amount', '20', '--customer', buyer.id]);
    expect(tx).toMatchObject({ status: 'succeeded', customer: buyer.id, payment_method: { id: card.id, last4_digits: '4444' } });

    expectError(await run(home, ['buyers', 'remove', buyer.id, '--yes']), 6, 'HTTP 409');
    expect(await json(home, ['cards', 'remove', card.id, '--yes'])).toMatchObject({ id: card.id, deleted: true });
    expectError(await run(home, ['cards', 'get', card.id]), 5);
    expectError(await run(home, ['transactions', 'create', '--amount', '5', '--card', card.id]), 5);
    expect(await json(home, ['buyers', 'remove', buyer.id, '--yes'])).toMatchObject({ deleted: true });
  });

  it('cards remove asks first', async ({ home }) => {
    const token = await tokenize(home);
    const card = await json(home, ['cards', 'associate', '--token', token.id, '--customer', SANDBOX_BUYER_ID]);
    expectError(await run(home, ['cards', 'remove', card.id]), 2, '--yes required');
    expect((await json(home, ['cards', 'get', card.id])).id).toBe(card.id);
  });

  it('unknown token or buyer: exit 5', async ({ home }) => {
    const token = await tokenize(home);
    expectError(await run(home, ['cards', 'associate', '--token', token.id, '--customer', 'f'.repeat(32)]), 5, 'HTTP 404');
    expectError(await run(home, ['cards', 'associate', '--token', 'e'.repeat(32), '--customer', SANDBOX_BUYER_ID]), 5, 'HTTP 404');
  });
});

describe('sources', () => {
  it('from a card, a token and a buyer; get; remove', async ({ home }) => {
    const token = await tokenize(home);
    const card = await json(home, ['cards', 'associate', '--token', token.id, '--customer', SANDBOX_BUYER_ID]);
    const fromCard = await json(home, ['sources', 'create', '--card', card.id, '--usage', 'reusable', '--amount', '12.34']);
    expect(fromCard).toMatchObject({ resource: 'source', type: 'card', usage: 'reusable', amount: '12.34', card: { id: card.id } });
    const freshToken = await tokenize(home, '5555555555554444');
    const fromToken = await json(home, ['sources', 'create', '--token', freshToken.id]);
    expect(fromToken).toMatchObject({ type: 'card', usage: 'single_use', token: { id: freshToken.id } });
    const fromBuyer = await json(home, ['sources', 'create', '--customer', SANDBOX_BUYER_ID]);
    expect(fromBuyer).toMatchObject({ type: 'card', customer: { id: SANDBOX_BUYER_ID } });
    const fromDetails = await json(home, ['sources', 'create', '--card-file', '-'], cardJson());
    expect(fromDetails.card).toMatchObject({ first4_digits: '4111', last4_digits: '1111' });

    expect((await json(home, ['sources', 'get', fromCard.id])).id).toBe(fromCard.id);
    expectError(await run(home, ['sources', 'remove', fromCard.id]), 2, '--yes required');
    expect(await json(home, ['sources', 'remove', fromCard.id, '--yes'])).toMatchObject({ deleted: true });
    expectError(await run(home, ['sources', 'get', fromCard.id]), 5);
  });
});

describe('boletos', () => {
  it('get, send to the buyer (--to checks the address on file), cancel a pending one (asks), refuse the rest', async ({ home }) => {
    const tx = await json(home, ['transactions', 'create', '--payment-type', 'boleto', '--amount', '150', '--customer', SANDBOX_BUYER_ID]);
    const boletoId = tx.payment_method.id;
    const boleto = await json(home, ['boletos', 'get', boletoId]);
    expect(boleto).toMatchObject({ id: boletoId, barcode: expect.any(String), url: expect.any(String) });

    const sent = await run(home, ['boletos', 'send', boletoId]);
    expect(sent.code, sent.stderr).toBe(0);
    expect(JSON.parse(sent.stdout)).toMatchObject({ message: 'success' });
    expect(sent.stderr).toContain(`Sent boleto ${boletoId} by e-mail to`);
    const sentTo = await json(home, ['boletos', 'send', boletoId, '--to', 'maria.silva@example.com']);
    expect(sentTo).toMatchObject({ message: 'success', to: 'maria.silva@example.com' });
    expectError(await run(home, ['boletos', 'send', boletoId, '--to', 'fin@example.com']), 2, "only to its buyer's address on file");

    expectError(await run(home, ['boletos', 'cancel', tx.id]), 2, '--yes required');
    const canceled = await json(home, ['boletos', 'cancel', tx.id, '--yes']);
    expect(canceled).toMatchObject({ status: 'Requested', transaction_id: tx.id });
    expect((await json(home, ['transactions', 'get', tx.id])).status).toBe('canceled');

    const paid = await json(home, ['transactions', 'create', '--payment-type', 'boleto', '--amount', '10', '--customer', SANDBOX_BUYER_ID]);
    await json(home, ['sandbox', 'pay', paid.id]);
    expectError(await run(home, ['boletos', 'cancel', paid.id, '--yes']), 6, 'Transaction status is invalid', 'HTTP 422');

    const card = await json(home, ['transactions', 'create', '--amount', '10', ...cardFlags()]);
    expectError(await run(home, ['boletos', 'cancel', card.id, '--yes']), 2, 'only a boleto');
    expectError(await run(home, ['boletos', 'get', 'a'.repeat(32)]), 5);
  });
});

describe('boletos get of a bolepix', () => {
  it('on a terminal names its QR image instead of printing the base64; JSON carries it whole', async ({ home }) => {
    const tx = await json(home, ['transactions', 'create', '--payment-type', 'bolepix', '--amount', '80', '--customer', SANDBOX_BUYER_ID]);
    const bolepix = paidWith(tx, 'bolepix');
    const id = bolepix.id;
    const table = await run(home, ['boletos', 'get', id, '--no-color', '--no-pager'], { tty: true });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/QR code\s+PNG of the QR code of emv, \d+ characters of base64 \(-o json shows it\)/);
    expect(table.stdout).not.toContain(bolepix.base64.slice(0, 40));
    expect(table.stdout).toContain(bolepix.emv);
    expect((await json(home, ['boletos', 'get', id])).base64).toBe(bolepix.base64);
  });
});

describe('receipts', () => {
  it('get, email, sms and render the receipt of a card payment', async ({ home }) => {
    const tx = await json(home, ['transactions', 'create', '--amount', '10.50', ...cardFlags()]);
    const receiptId = present(tx.sales_receipt, 'a receipt');
    expect(receiptId).toMatch(/^[0-9a-f]{32}$/);
    expect(await json(home, ['receipts', 'get', receiptId])).toMatchObject({ id: receiptId, resource: 'receipt', amount: '10.50' });
    expect(await json(home, ['receipts', 'email', receiptId, '--to', 'maria@example.com'])).toMatchObject({ message: 'success', delivery_method: 'email' });
    expect(await json(home, ['receipts', 'sms', receiptId, '--to', '+55 (21) 99909-9999'])).toMatchObject({ message: 'success', delivery_method: 'sms' });
    expectError(await run(home, ['receipts', 'sms', receiptId, '--to', '999']), 2, '--to:');

    const piped = await run(home, ['receipts', 'render', receiptId]);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toMatch(/^<!doctype html>/i);
    expect(piped.stdout).toContain('10,50');

    const dir = mkdtempSync(join(tmpdir(), 'payctl-receipt-'));
    try {
      const file = join(dir, 'r.html');
      const saved = await run(home, ['receipts', 'render', receiptId, '--save', file], { tty: true });
      expect(saved.code, saved.stderr).toBe(0);
      expect(saved.stdout).toBe(`${file}\n`);
      expect(readFileSync(file, 'utf8')).toBe(piped.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expectError(await run(home, ['receipts', 'get', 'b'.repeat(32)]), 5);
  });
});

describe('receivables', () => {
  it('one per installment, a month apart, net of fees; a full refund cancels them', async ({ home }) => {
    const tx = await json(home, ['transactions', 'create', '--amount', '100', ...cardFlags(), '--installments', '3']);
    const items = await json(home, ['receivables', 'list', '--transaction', tx.id]);
    expect(items.map((r) => r.installment)).toEqual(['1', '2', '3']);
    expect(items.map((r) => r.gross_amount)).toEqual(['33.34', '33.33', '33.33']);
    for (const r of items) {
      expect(Number(r.amount)).toBeLessThan(Number(r.gross_amount));
      expect(r).toMatchObject({ resource: 'receivable', status: 'pending', transaction: tx.id });
    }
    const [m1, m2, m3] = items.map((r) => new Date(r.expected_on).getUTCMonth()) as [number, number, number];
    expect((m2 - m1 + 12) % 12).toBe(1);
    expect((m3 - m2 + 12) % 12).toBe(1);
    const first = present(items[0]);
    expect((await json(home, ['receivables', 'get', first.id])).id).toBe(first.id);

    const table = await run(home, ['receivables', 'list', '--transaction', tx.id, '--no-color'], { tty: true });
    expect(table.stdout).toMatch(/^INSTALLMENT\s+EXPECTED\s+GROSS\s+FEE\s+NET\s+STATUS/);
    expect(table.stdout).toContain('R$ 33,34');

    await json(home, ['transactions', 'refund', tx.id, '--yes']);
    const after = await json(home, ['receivables', 'list', '--transaction', tx.id]);
    expect(after.every((r) => r.status === 'canceled')).toBe(true);
  });

  it('an unknown transaction exits 5', async ({ home }) => {
    expectError(await run(home, ['receivables', 'list', '--transaction', 'c'.repeat(32)]), 5);
  });
});
