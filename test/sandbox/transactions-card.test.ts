import { describe, expect } from 'vitest';
import type * as z from 'zod/mini';
import { it } from '../helpers/fixtures.js';
import { SANDBOX_BUYER_ID, SANDBOX_CARD_ID, SANDBOX_MARKETPLACE_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { cancellationLetterSchema, transactionStrict } from '../../src/provider/schemas/transaction.js';
import { cardSale } from './answers.js';
import {
  cardData,
  DECLINED,
  directCardBody,
  expectAnswer,
  expectCardPaymentMethod,
  expectError,
  expectTransactionShape,
  HEX32,
  MASTERCARD,
  ref,
  VISA,
  type Client,
} from './helpers.js';

/** A card sale made, as the provider describes it. */
async function create(api: Client, body: unknown) {
  return expectAnswer(await api.post('/v1/transactions', body), 201, cardSale);
}

const ops = (txn: Pick<z.infer<typeof transactionStrict>, 'history'>) => txn.history.map((h) => h.operation_type);

describe('direct card authorization', () => {
  it('approves the Visa test card and returns every seed 2.1 / 2.3 field with its type', async ({ fileSandbox: { api } }) => {
    const body = directCardBody(VISA, 1050);
    const txn = await create(api, body);
    expectTransactionShape(txn);
    expectCardPaymentMethod(txn.payment_method);
    expect(txn).toMatchObject({
      status: 'succeeded',
      captured: true,
      voided: false,
      refunded: false,
      amount: '10.50',
      original_amount: '10.50',
      currency: 'BRL',
      payment_type: 'credit',
      on_behalf_of: SANDBOX_SELLER_ID,
      description: 'Pedido 123',
      reference_id: body.reference_id,
      installment_plan: null,
    });
    expect(txn.uri).toBe(`/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}/transactions/${txn.id}`);
    expect(txn.payment_method).toMatchObject({ description: 'Visa final 1111', card_brand: 'Visa', first4_digits: '4111', last4_digits: '1111', holder_name: 'MARIA SILVA' });
    expect(txn.transaction_number).toMatch(/^\d+$/);
    expect(txn.sales_receipt).toMatch(HEX32);
    expect(txn.fee_details).toMatchObject({ amount: expect.stringMatching(/^\d+\.\d{2}$/), prepaid: false, currency: 'BRL' });
    expect(ops(txn)).toEqual(['created', 'authorization']);
    expect(txn.history[1]?.status).toBe('succeeded');
  });

  it('approves the MasterCard test card and names its brand', async ({ fileSandbox: { api } }) => {
    const txn = await create(api, directCardBody(MASTERCARD, 2000));
    expect(txn.status).toBe('succeeded');
    expect(txn.payment_method).toMatchObject({ description: 'MasterCard final 4444', card_brand: 'MasterCard', first4_digits: '5555', last4_digits: '4444' });
  });

  it('approves any other Luhn-valid number, brand by prefix', async ({ fileSandbox: { api } }) => {
    const amex = await create(api, directCardBody('378282246310005', 500));
    expect(amex.status).toBe('succeeded');
    expect(amex.payment_method.card_brand).toBe('American Express');
    expect(amex.payment_method.description).toBe('American Express final 0005');
    const visa = await create(api, directCardBody('4012888888881881', 500));
    expect(visa.payment_method.card_brand).toBe('Visa');
    const unknown = await create(api, directCardBody('1000000000000008', 500));
    expect(unknown.payment_method).toMatchObject({ card_brand: 'Unknown', description: 'Cartão final 0008' });
  });

  it('creates the declined test card as a failed transaction with a declined history entry', async ({ fileSandbox: { api } }) => {
    const txn = await create(api, directCardBody(DECLINED, 1000));
    expectTransactionShape(txn);
    expect(txn).toMatchObject({ status: 'failed', captured: false, fees: '0.00', sales_receipt: null, expected_on: null });
    // Numbered like every sale, but nothing was sold, so there is no receipt.
    expect(txn.transaction_number).toMatch(/^\d+$/);
    const auth = txn.history.find((h) => h.operation_type === 'authorization');
    expect(auth?.status).toBe('failed');
    expect(auth?.response_message).toMatch(/declined/i);
  });

  it('rejects a Luhn-invalid number with 400 invalid_parameter, without echoing the number', async ({ fileSandbox: { api } }) => {
    const reply = await api.post('/v1/transactions', directCardBody('4111111111111112'));
    expect(expectError(reply, 400, 'invalid_parameter').reasons?.join(' ')).toMatch(/source\.card\.card_number/);
    expect(JSON.stringify(reply.body)).not.toContain('4111111111111112');
  });

  it('rejects an expired card and a malformed CVV', async ({ fileSandbox: { api } }) => {
    const expired = directCardBody(VISA);
    expired.source.card = cardData(VISA, { expiration_month: '01', expiration_year: '2020' });
    expectError(await api.post('/v1/transactions', expired), 400, 'invalid_parameter');
    const badCvv = directCardBody(VISA);
    badCvv.source.card = cardData(VISA, { security_code: '12' });
    const reply = await api.post('/v1/transactions', badCvv);
    expect(expectError(reply, 400, 'invalid_parameter').reasons?.join(' ')).toMatch(/security_code/);
  });

  it('accepts amount and currency at the top level, as the provider requires, and numeric strings', async ({ fileSandbox: { api } }) => {
    const { source, ...rest } = directCardBody(VISA);
    const txn = await create(api, { ...rest, amount: '1234', currency: 'brl', source: { type: 'card', card: source.card } });
    expect(txn.amount).toBe('12.34');
    expect(txn.currency).toBe('BRL');
  });

  it('rejects a top-level amount that disagrees with source.amount', async ({ fileSandbox: { api } }) => {
    const reply = await api.post('/v1/transactions', { ...directCardBody(VISA, 1000), amount: 999, currency: 'BRL' });
    expect(expectError(reply, 400, 'invalid_parameter').reasons?.join(' ')).toMatch(/source\.amount/);
  });

  it('names every missing or invalid field in one 400', async ({ fileSandbox: { api } }) => {
    const reply = await api.post('/v1/transactions', {
      payment_type: 'credit',
      source: { type: 'card', amount: 10.5, currency: 'REAL', card: cardData(VISA) },
    });
    const reasons = expectError(reply, 400, 'invalid_parameter').reasons?.join('\n');
    expect(reasons).toMatch(/on_behalf_of/);
    expect(reasons).toMatch(/amount/);
    expect(reasons).toMatch(/currency/);
  });

  it('rejects a zero amount and an unsupported payment type', async ({ fileSandbox: { api } }) => {
    expectError(await api.post('/v1/transactions', directCardBody(VISA, 0)), 400, 'invalid_parameter');
    const reply = await api.post('/v1/transactions', { ...directCardBody(VISA), payment_type: 'bolet' });
    expect(expectError(reply, 400, 'invalid_parameter').reasons).toEqual(['payment_type: must be credit, debit, boleto, bolepix or pix']);
  });

  it('answers 404 for an on_behalf_of that is not the sandbox seller', async ({ fileSandbox: { api } }) => {
    const reply = await api.post('/v1/transactions', { ...directCardBody(VISA), on_behalf_of: 'f'.repeat(32) });
    expect(expectError(reply, 404, 'resource_not_found').message).toMatch(/seller/);
  });

  it('records an installment plan', async ({ fileSandbox: { api } }) => {
    const txn = await create(api, { ...directCardBody(VISA, 30000), installment_plan: { number_installments: 3 } });
    expect(txn.installment_plan).toMatchObject({ number_installments: 3 });
    const reply = await api.post('/v1/transactions', { ...directCardBody(VISA), installment_plan: { number_installments: 13 } });
    expectError(reply, 400, 'invalid_parameter');
  });
});

describe('customer id and card id variants', () => {
  it("charges the seeded buyer's card on file", async ({ fileSandbox: { api } }) => {
    const txn = await create(api, { payment_type: 'credit', on_behalf_of: SANDBOX_SELLER_ID, customer: SANDBOX_BUYER_ID, amount: 700, currency: 'BRL', reference_id: ref() });
    expectTransactionShape(txn);
    expect(txn).toMatchObject({ status: 'succeeded', amount: '7.00', customer: SANDBOX_BUYER_ID });
    expect(txn.payment_method).toMatchObject({ id: SANDBOX_CARD_ID, last4_digits: '1111', holder_name: 'MARIA SILVA', customer: SANDBOX_BUYER_ID });
  });

  it('answers 404 for an unknown customer and 400 for a customer without a card', async ({ fileSandbox: { api } }) => {
    const unknown = await api.post('/v1/transactions', { payment_type: 'credit', on_behalf_of: SANDBOX_SELLER_ID, customer: 'a'.repeat(32), amount: 700, currency: 'BRL' });
    expect(expectError(unknown, 404, 'resource_not_found').message).toContain('a'.repeat(32));

    // A complete boleto registers its inline payer as a buyer, who has no card.
    const created = await api.post('/v1/transactions', {
      payment_type: 'boleto',
      on_behalf_of: SANDBOX_SELLER_ID,
      amount: 1000,
      currency: 'BRL',
      payment_method: { buyer: { first_name: 'João', last_name: 'Souza', taxpayer_id: '11144477735' } },
    });
    const boleto = expectAnswer(created, 201, transactionStrict);
    const noCard = await api.post('/v1/transactions', { payment_type: 'credit', on_behalf_of: SANDBOX_SELLER_ID, customer: boleto.customer, amount: 700, currency: 'BRL' });
    expectError(noCard, 400, 'invalid_parameter');
  });

  it('charges a stored card by id, and 404s for an unknown card id', async ({ fileSandbox: { api } }) => {
    const txn = await create(api, {
      payment_type: 'credit',
      on_behalf_of: SANDBOX_SELLER_ID,
      amount: 900,
      currency: 'BRL',
      source: { type: 'card', usage: 'single_use', amount: 900, currency: 'BRL', card: { id: SANDBOX_CARD_ID } },
    });
    expect(txn).toMatchObject({ status: 'succeeded', amount: '9.00', customer: SANDBOX_BUYER_ID });
    expect(txn.payment_method.id).toBe(SANDBOX_CARD_ID);
    const reply = await api.post('/v1/transactions', {
      payment_type: 'credit',
      on_behalf_of: SANDBOX_SELLER_ID,
      amount: 900,
      currency: 'BRL',
      source: { type: 'card', card: { id: 'b'.repeat(32) } },
    });
    expectError(reply, 404, 'resource_not_found');
  });

  it('asks for a source or a customer when neither is given', async ({ fileSandbox: { api } }) => {
    const reply = await api.post('/v1/transactions', { payment_type: 'credit', on_behalf_of: SANDBOX_SELLER_ID, amount: 900, currency: 'BRL' });
    expect(expectError(reply, 400, 'invalid_parameter').reasons?.join(' ')).toMatch(/source/);
  });
});

describe('capture', () => {
  it('turns a pre-authorization into a captured sale of the captured amount', async ({ fileSandbox: { api } }) => {
    const pre = await create(api, { ...directCardBody(VISA, 1000), capture: false });
    expect(pre).toMatchObject({ status: 'pre_authorized', captured: false, amount: '10.00' });
    expect(pre.history[1]?.status).toBe('pre_authorized');

    const tooMuch = await api.post(`/v1/transactions/${pre.id}/capture`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 1001 });
    expectError(tooMuch, 400, 'capture_transaction_error');

    const captured = await api.post(`/v1/transactions/${pre.id}/capture`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 600 });
    expect(captured.status).toBe(200);
    expectTransactionShape(captured.body);
    expect(captured.body).toMatchObject({ status: 'succeeded', captured: true, amount: '6.00', original_amount: '10.00' });
    expect(ops(expectAnswer(captured, 200, cardSale))).toEqual(['created', 'authorization', 'capture']);

    const again = await api.post(`/v1/transactions/${pre.id}/capture`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 100 });
    expectError(again, 400, 'capture_transaction_error');
  });

  it('refuses to capture a sale that was captured at creation', async ({ fileSandbox: { api } }) => {
    const txn = await create(api, directCardBody(VISA, 1000));
    expectError(await api.post(`/v1/transactions/${txn.id}/capture`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 1000 }), 400, 'capture_transaction_error');
  });

  it('needs on_behalf_of and amount', async ({ fileSandbox: { api } }) => {
    const pre = await create(api, { ...directCardBody(VISA, 1000), capture: false });
    const reply = await api.post(`/v1/transactions/${pre.id}/capture`, {});
    expect(expectError(reply, 400, 'invalid_parameter').reasons?.join(' ')).toMatch(/on_behalf_of[\s\S]*amount/);
  });
});

describe('void (refund)', () => {
  it('partially voids, then fully voids, then answers 402', async ({ fileSandbox: { api } }) => {
    const txn = await create(api, directCardBody(VISA, 1000));
    const partial = await api.post(`/v1/transactions/${txn.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 300 });
    expect(partial.status).toBe(200);
    expect(partial.body).toMatchObject({ status: 'succeeded', amount: '7.00', original_amount: '10.00', voided: false });

    const over = await api.post(`/v1/transactions/${txn.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 701 });
    expect(expectError(over, 402, 'void_transaction_error').message).toMatch(/^The transaction has not sufficient amount for the requested void/);

    const full = await api.post(`/v1/transactions/${txn.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 700 });
    expect(full.body).toMatchObject({ status: 'canceled', voided: true, amount: '0.00', original_amount: '10.00' });
    const voided = expectAnswer(full, 200, cardSale);
    expect(ops(voided)).toEqual(['created', 'authorization', 'void', 'void']);
    expect(voided.history.slice(2).map((h) => h.amount)).toEqual(['3.00', '7.00']);

    expectError(await api.post(`/v1/transactions/${txn.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 1 }), 402, 'void_transaction_error');
  });

  it('voids a pre-authorization in full', async ({ fileSandbox: { api } }) => {
    const pre = await create(api, { ...directCardBody(VISA, 1000), capture: false });
    const reply = await api.post(`/v1/transactions/${pre.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 1000 });
    expect(reply.body).toMatchObject({ status: 'canceled', voided: true });
  });

  it('refuses to void a failed transaction (400) and validates its body', async ({ fileSandbox: { api } }) => {
    const failed = await create(api, directCardBody(DECLINED, 1000));
    const reply = await api.post(`/v1/transactions/${failed.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 1000 });
    expect(expectError(reply, 400, 'void_transaction_error').message).toMatch(/failed/);

    const ok = await create(api, directCardBody(VISA, 1000));
    expectError(await api.post(`/v1/transactions/${ok.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID }), 400, 'invalid_parameter');
    expectError(await api.post(`/v1/transactions/${ok.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: -5 }), 400, 'invalid_parameter');
    expectError(await api.post(`/v1/transactions/${ok.id}/void`, { on_behalf_of: 'c'.repeat(32), amount: 100 }), 404, 'resource_not_found');
  });

  it('answers 404 in the provider wording for an unknown transaction', async ({ fileSandbox: { api } }) => {
    const id = '9'.repeat(32);
    const reply = await api.post(`/v1/transactions/${id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 100 });
    expect(expectError(reply, 404, 'resource_not_found').message).toBe(`Sorry, the transaction (id: ${id}) you are trying to use does not exist or has been deleted.`);
  });
});

describe('cancellation letter', () => {
  it('links a letter for a fully voided transaction only', async ({ fileSandbox: { api } }) => {
    const txn = await create(api, directCardBody(VISA, 500));
    const before = await api.get(`/v1/transactions/${txn.id}/cancelled-letter`);
    expect(expectError(before, 404, 'resource_not_found').message).toMatch(/succeeded/);

    await api.post(`/v1/transactions/${txn.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 500 });
    const after = await api.get(`/v1/transactions/${txn.id}/cancelled-letter`);
    const { url } = expectAnswer(after, 200, cancellationLetterSchema);
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/files/cancelled-letters/Carta_Cancelamento_${txn.id}\\.pdf$`));
    // The link is served by the sandbox itself, without the API key, like a pre-signed URL.
    const letter = await fetch(url);
    expect(letter.status).toBe(200);
    expect(letter.headers.get('content-type')).toBe('application/pdf');
    expect((await letter.text()).startsWith('%PDF-1.4')).toBe(true);
  });

  it('serves no letter for a transaction that is not canceled', async ({ fileSandbox: { api, sandbox } }) => {
    const txn = await create(api, directCardBody(VISA, 500));
    const url = `${sandbox.url}/files/cancelled-letters/Carta_Cancelamento_${txn.id}.pdf`;
    expect((await fetch(url)).status).toBe(404);
  });

  it('404s for an unknown transaction', async ({ fileSandbox: { api } }) => {
    expectError(await api.get(`/v1/transactions/${'8'.repeat(32)}/cancelled-letter`), 404, 'resource_not_found');
  });
});

describe('get and update', () => {
  it('gets a transaction by id, and 404s in the provider wording', async ({ fileSandbox: { api } }) => {
    const txn = await create(api, directCardBody(VISA, 800));
    const got = await api.get(`/v1/transactions/${txn.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(txn);
    const missing = await api.get(`/v1/transactions/${'7'.repeat(32)}`);
    expect(expectError(missing, 404, 'resource_not_found').message).toMatch(/^Sorry, the transaction \(id: 7{32}\) you are trying to use does not exist/);
  });

  it('updates description and metadata, merging metadata and appending history', async ({ fileSandbox: { api } }) => {
    const txn = await create(api, { ...directCardBody(VISA, 800), metadata: { order: '42', channel: 'web' } });
    const reply = await api.put(`/v1/transactions/${txn.id}`, { description: 'Pedido 42 (ajustado)', metadata: { channel: null, note: 'gift' } });
    const updated = expectAnswer(reply, 200, cardSale);
    expect(updated.description).toBe('Pedido 42 (ajustado)');
    expect(updated.metadata).toEqual({ order: '42', note: 'gift' });
    expect(ops(updated)).toEqual(['created', 'authorization', 'update']);
    expect(updated.status).toBe('succeeded');
    const got = await api.get(`/v1/transactions/${txn.id}`);
    expect(expectAnswer(got, 200, cardSale).metadata).toEqual({ order: '42', note: 'gift' });
  });

  it('refuses fields other than description and metadata, and an empty update', async ({ fileSandbox: { api } }) => {
    const txn = await create(api, directCardBody(VISA, 800));
    expectError(await api.put(`/v1/transactions/${txn.id}`, { amount: 1 }), 400, 'invalid_parameter');
    expectError(await api.put(`/v1/transactions/${txn.id}`, {}), 400, 'invalid_parameter');
    expectError(await api.put(`/v1/transactions/${'6'.repeat(32)}`, { description: 'x' }), 404, 'resource_not_found');
  });
});
