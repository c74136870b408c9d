import { describe, expect } from 'vitest';
import type * as z from 'zod/mini';
import { itOnClock } from '../helpers/fixtures.js';
import { SANDBOX_BUYER_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { transactionStrict } from '../../src/provider/schemas/transaction.js';
import { bolepixSale, boletoSale, cardSale, pixSale } from './answers.js';
import {
  directCardBody,
  expectAnswer,
  expectBoletoPaymentMethod,
  expectError,
  expectReasons,
  expectTransactionShape,
  HEX32,
  ref,
  VISA,
  type Client,
} from './helpers.js';
import { readPng } from '../helpers/png.js';

// The clock is pinned so due dates and expirations can be asserted exactly.
const NOW = new Date('2026-11-22T10:00:00.000Z');

const it = itOnClock(() => NOW);

/** A sale made, read with `schema` (a sale with the payment method its payment_type carries). */
async function create<S extends z.ZodMiniType>(api: Client, body: unknown, schema: S): Promise<z.infer<S>> {
  return expectAnswer(await api.post('/v1/transactions', body), 201, schema);
}

const base = (paymentType: string, extra: Record<string, unknown> = {}) => ({
  payment_type: paymentType,
  on_behalf_of: SANDBOX_SELLER_ID,
  amount: 2500,
  currency: 'BRL',
  description: 'Mensalidade',
  reference_id: ref(paymentType),
  ...extra,
});

const payer = {
  first_name: 'Ana',
  last_name: 'Pereira',
  email: 'ana@example.com',
  taxpayer_id: '111.444.777-35',
  phone_number: '+5521999990000',
  birthdate: '1985-02-10',
  address: { line1: 'Rua das Flores, 10', neighborhood: 'Centro', city: 'Rio de Janeiro', state: 'RJ', postal_code: '20010-000' },
};

/** FEBRABAN general check digit (position 5) of a 44-digit barcode. */
function barcodeCheckDigitValid(barcode: string): boolean {
  const digits = barcode.slice(0, 4) + barcode.slice(5);
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    sum += Number(digits[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const dv = 11 - (sum % 11);
  return String(dv === 0 || dv >= 10 ? 1 : dv) === barcode[4];
}

describe('boleto', () => {
  it('creates a simple boleto for a customer: pending, with every seed 2.2 field', async ({ fileSandbox: { api } }) => {
    const txn = await create(api, base('boleto', { customer: SANDBOX_BUYER_ID }), boletoSale);
    expectTransactionShape(txn);
    expectBoletoPaymentMethod(txn.payment_method);
    // Due on the 25th: paid that day, the seller gets the money the day after.
    expect(txn).toMatchObject({ status: 'pending', payment_type: 'boleto', captured: false, customer: SANDBOX_BUYER_ID, amount: '25.00', expected_on: '2026-11-26T00:00:00.000Z' });
    expect(txn.transaction_number).toMatch(/^\d+$/);
    expect(txn.sales_receipt).toMatch(HEX32);
    expect(txn.payment_method).toMatchObject({
      status: 'not_paid',
      customer: SANDBOX_BUYER_ID,
      expiration_date: '2026-11-25',
      payment_limit_date: '2026-11-25',
      created_at: NOW.toISOString(),
    });
    expect(txn.payment_method.address).toMatch(/São Paulo - SP/);
    expect(barcodeCheckDigitValid(txn.payment_method.barcode)).toBe(true);
    expect(txn.payment_method.barcode.slice(9, 19)).toBe('0000002500');
    expect(txn.history.map((h) => h.operation_type)).toEqual(['created']);
  });

  it('creates a complete boleto with an inline payer, due dates and instructions', async ({ fileSandbox: { api } }) => {
    const txn = await create(api, 
      base('boleto', {
        payment_method: {
          expiration_date: '2026-12-01',
          payment_limit_date: '2026-12-10',
          buyer: payer,
          body_instructions: ['Não receber após o vencimento', 'Multa de 2%'],
          billing_instructions: {
            late_fee: { mode: 'PERCENTAGE', percentage: 2, start_date: '2026-12-02' },
            interest: { mode: 'MONTHLY_PERCENTAGE', percentage: 1, start_date: '2026-12-02' },
            discount: [{ mode: 'FIXED', amount: 100, limit_date: '2026-11-28' }],
          },
        },
      }),
      boletoSale,
    );
    expectBoletoPaymentMethod(txn.payment_method);
    expect(txn.customer).toMatch(HEX32);
    expect(txn.customer).not.toBe(SANDBOX_BUYER_ID);
    expect(txn.payment_method).toMatchObject({
      expiration_date: '2026-12-01',
      payment_limit_date: '2026-12-10',
      customer: txn.customer,
      body_instructions: ['Não receber após o vencimento', 'Multa de 2%'],
      billing_instructions: { late_fee: { mode: 'PERCENTAGE' } },
    });
    expect(txn.payment_method.address).toBe('Rua das Flores, 10 - Centro, Rio de Janeiro - RJ, 20010-000');
  });

  it('validates the complete boleto', async ({ fileSandbox: { api } }) => {
    const tooMany = await api.post('/v1/transactions', base('boleto', { customer: SANDBOX_BUYER_ID, payment_method: { body_instructions: ['1', '2', '3', '4', '5', '6'] } }));
    expectReasons(tooMany, ['payment_method.body_instructions: may hold at most 5 lines']);
    const notLines = await api.post('/v1/transactions', base('boleto', { customer: SANDBOX_BUYER_ID, payment_method: { body_instructions: ['1', 2] } }));
    expectReasons(notLines, ['payment_method.body_instructions: must be an array of strings']);

    const badCpf = await api.post('/v1/transactions', base('boleto', { payment_method: { buyer: { ...payer, taxpayer_id: '11144477700' } } }));
    expect(expectError(badCpf, 400, 'invalid_parameter').reasons?.join(' ')).toMatch(/taxpayer_id/);

    const { first_name: _first, taxpayer_id: _document, ...unnamed } = payer;
    const nameless = await api.post('/v1/transactions', base('boleto', { payment_method: { buyer: { ...unnamed, last_name: ' ', address: { neighborhood: 'Centro' } } } }));
    expectReasons(nameless, [
      'payment_method.buyer.first_name: is required',
      'payment_method.buyer.last_name: must not be empty',
      'payment_method.buyer.taxpayer_id: is required',
      'payment_method.buyer.address.line1: is required',
      'payment_method.buyer.address.city: is required',
      'payment_method.buyer.address.state: is required',
      'payment_method.buyer.address.postal_code: is required',
    ]);
    const notAnAddress = await api.post('/v1/transactions', base('boleto', { payment_method: { buyer: { ...payer, address: 'Rua das Flores, 10' } } }));
    expectReasons(notAnAddress, ['payment_method.buyer.address: must be an object']);

    const limitFirst = await api.post(
      '/v1/transactions',
      base('boleto', { customer: SANDBOX_BUYER_ID, payment_method: { expiration_date: '2026-12-10', payment_limit_date: '2026-12-01' } }),
    );
    expect(expectError(limitFirst, 400, 'invalid_parameter').reasons?.join(' ')).toMatch(/payment_limit_date/);

    const past = await api.post('/v1/transactions', base('boleto', { customer: SANDBOX_BUYER_ID, payment_method: { expiration_date: '2026-11-21' } }));
    expectError(past, 400, 'invalid_parameter');

    const notADate = await api.post('/v1/transactions', base('boleto', { customer: SANDBOX_BUYER_ID, payment_method: { expiration_date: '2027-02-30' } }));
    expectError(notADate, 400, 'invalid_parameter');

    const badLateFee = await api.post(
      '/v1/transactions',
      base('boleto', { customer: SANDBOX_BUYER_ID, payment_method: { billing_instructions: { late_fee: { mode: 'SOMETIMES' } } } }),
    );
    expectReasons(badLateFee, ['payment_method.billing_instructions.late_fee.mode: must be one of FIXED, PERCENTAGE']);

    const instructions = { interest: { mode: 'DAILY_AMOUNT', amount: -1 }, discount: [{ mode: 'FIXED', percentage: '5' }, 'none'] };
    const badInstructions = await api.post('/v1/transactions', base('boleto', { customer: SANDBOX_BUYER_ID, payment_method: { billing_instructions: instructions } }));
    expectReasons(badInstructions, [
      'payment_method.billing_instructions.interest.amount: must be a non-negative number',
      'payment_method.billing_instructions.discount.percentage: must be a non-negative number',
      'payment_method.billing_instructions.discount: must be an object',
    ]);
    const notAList = await api.post('/v1/transactions', base('boleto', { customer: SANDBOX_BUYER_ID, payment_method: { billing_instructions: { discount: {} } } }));
    expectReasons(notAList, ['payment_method.billing_instructions.discount: must be an array']);
  });

  it('needs a customer or a payer, and 404s for an unknown customer', async ({ fileSandbox: { api } }) => {
    const none = await api.post('/v1/transactions', base('boleto'));
    expect(expectError(none, 400, 'invalid_parameter').reasons?.join(' ')).toMatch(/customer/);
    expectError(await api.post('/v1/transactions', base('boleto', { customer: 'd'.repeat(32) })), 404, 'resource_not_found');
  });

  it('is paid by approve, once; before that it cannot be voided, and after it neither', async ({ fileSandbox: { api } }) => {
    const txn = await create(api, base('boleto', { customer: SANDBOX_BUYER_ID }), boletoSale);
    const pendingVoid = await api.post(`/v1/transactions/${txn.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 2500 });
    expect(expectError(pendingVoid, 400, 'void_transaction_error').message).toMatch(/pending/);

    const paid = await api.post(`/v1/transactions/${txn.id}/approve`);
    const paidSale = expectAnswer(paid, 200, boletoSale);
    expectTransactionShape(paid.body);
    // Paid today, three days early: the money comes the day after the payment, not the due date.
    expect(paid.body).toMatchObject({ status: 'succeeded', captured: true, expected_on: '2026-11-23T00:00:00.000Z' });
    expect(paid.body).toMatchObject({ transaction_number: txn.transaction_number, sales_receipt: txn.sales_receipt });
    expect(paidSale.payment_method).toMatchObject({ status: 'paid', paid_at: NOW.toISOString() });
    expect(paidSale.history.map((h) => h.operation_type)).toEqual(['created', 'paid']);
    expect(paidSale.fees).not.toBe('0.00');

    expectError(await api.post(`/v1/transactions/${txn.id}/approve`), 400, 'approve_transaction_error');
    expectError(await api.post(`/v1/transactions/${txn.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 100 }), 400, 'void_transaction_error');
  });
});

describe('bolepix', () => {
  it('creates a boleto with a PIX code for a customer', async ({ fileSandbox: { api } }) => {
    const txn = await create(api, 
      base('bolepix', {
        customer: SANDBOX_BUYER_ID,
        payment_method: {
          due_at: '2026-11-30',
          payment_limit_at: '2026-12-05',
          interest: { mode: 'PERCENTAGE', frequency: 'MONTHLY', value: '1.00', start_at: '2026-12-01' },
          late_fee: { mode: 'FIXED', value: '500', start_at: '2026-12-01' },
        },
      }),
      bolepixSale,
    );
    expectTransactionShape(txn);
    expect(txn).toMatchObject({ status: 'pending', payment_type: 'bolepix', customer: SANDBOX_BUYER_ID, expected_on: '2026-12-01T00:00:00.000Z' });
    expect(txn.transaction_number).toMatch(/^\d+$/);
    expect(txn.sales_receipt).toMatch(HEX32);
    // Every field of a boleto (seed 2.2), its dates under both names, and the provider's own.
    expectBoletoPaymentMethod(txn.payment_method, 'bolepix');
    expect(txn.payment_method).toMatchObject({
      resource: 'bolepix',
      due_at: '2026-11-30',
      payment_limit_at: '2026-12-05',
      expiration_date: '2026-11-30',
      payment_limit_date: '2026-12-05',
      description: 'Mensalidade',
      recipient: 'Loja Sandbox Ltda',
      customer: SANDBOX_BUYER_ID,
      status: 'not_paid',
    });
    expect(txn.payment_method.address).toMatch(/São Paulo - SP/);
    expect(barcodeCheckDigitValid(txn.payment_method.barcode)).toBe(true);
    expect(txn.payment_method.digitable_line.replace(/\D/g, '').slice(32)).toBe(txn.payment_method.barcode.slice(4, 19));
    // base64 is the PIX code's QR image, a PNG.
    const png = readPng(Buffer.from(txn.payment_method.base64, 'base64'));
    expect(png).toMatchObject({ bitDepth: 1, colorType: 0, chunks: ['IHDR', 'IDAT', 'IEND'] });
    expect(png.width).toBe(png.height);
    expect(png.width).toBeGreaterThan(100);
    expect(txn.payment_method.emv).toMatch(/^000201.*6304[0-9A-F]{4}$/);
    expect(txn.payment_method.digitable_line.replace(/\D/g, '')).toHaveLength(47);
    expect(txn.payment_method.interest).toMatchObject({ frequency: 'MONTHLY' });

    const paid = await api.post(`/v1/transactions/${txn.id}/approve`);
    expect(paid.body).toMatchObject({ status: 'succeeded', expected_on: '2026-11-23T00:00:00.000Z', payment_method: { status: 'paid' } });
  });

  it('numbers its boletos in the same sequence as plain boletos, and its sales with card sales', async ({ fileSandbox: { api } }) => {
    const boleto = await create(api, base('boleto', { customer: SANDBOX_BUYER_ID }), boletoSale);
    const bolepix = await create(api, base('bolepix', { customer: SANDBOX_BUYER_ID }), bolepixSale);
    const card = await create(api, directCardBody(VISA, 1000), cardSale);
    expect(Number(bolepix.payment_method.sequence)).toBe(Number(boleto.payment_method.sequence) + 1);
    expect([boleto, bolepix, card].map((t) => Number(t.transaction_number) - Number(boleto.transaction_number))).toEqual([0, 1, 2]);
    // The default due date is three days away, as for a boleto.
    expect(bolepix.payment_method).toMatchObject({ due_at: '2026-11-25', expiration_date: '2026-11-25', description: 'Mensalidade' });
  });

  it('requires a customer and valid options', async ({ fileSandbox: { api } }) => {
    expectError(await api.post('/v1/transactions', base('bolepix')), 400, 'invalid_parameter');
    const badFrequency = await api.post(
      '/v1/transactions',
      base('bolepix', { customer: SANDBOX_BUYER_ID, payment_method: { interest: { mode: 'PERCENTAGE', frequency: 'HOURLY' } } }),
    );
    expectReasons(badFrequency, ['payment_method.interest.frequency: must be one of DAILY, MONTHLY, ANNUALLY']);
    const options = { late_fee: { mode: 'DAILY_AMOUNT' }, discount: { mode: 'FIXED', amount: -5 }, billing_message_list: 'Pague em dia' };
    const badOptions = await api.post('/v1/transactions', base('bolepix', { customer: SANDBOX_BUYER_ID, payment_method: options }));
    expectReasons(badOptions, [
      'payment_method.late_fee.mode: must be one of PERCENTAGE, FIXED',
      'payment_method.discount.amount: must be a non-negative number',
      'payment_method.billing_message_list: must be an object',
    ]);
  });
});

describe('pix', () => {
  it('creates a pending PIX charge with a QR code that expires in an hour by default', async ({ fileSandbox: { api } }) => {
    const txn = await create(api, base('pix'), pixSale);
    expectTransactionShape(txn);
    // Payable until 11:00 today, so the seller would be paid tomorrow.
    expect(txn).toMatchObject({ status: 'pending', payment_type: 'pix', customer: null, captured: false, expected_on: '2026-11-23T00:00:00.000Z' });
    expect(txn.transaction_number).toMatch(/^\d+$/);
    expect(txn.sales_receipt).toMatch(HEX32);
    expect(txn.payment_method).toMatchObject({ resource: 'pix', status: 'not_paid', expiration_date: '2026-11-22T11:00:00.000Z' });
    expect(txn.payment_method.qr_code.emv).toMatch(/^000201.*5802BR.*6304[0-9A-F]{4}$/);
    // Dynamic: the code points at the pix_link, where the amount is served (no field 54 in the code).
    expect(txn.payment_method.qr_code.emv).toContain(txn.payment_method.pix_link.replace(/^https:\/\//, ''));
    expect(txn.payment_method.qr_code.emv).not.toContain('540525.00');
  });

  it('honours pix_expiration_date_time and rejects one in the past or without its offset', async ({ fileSandbox: { api } }) => {
    const txn = await create(api, base('pix', { pix_expiration_date_time: '2026-11-23T09:30:00-03:00' }), pixSale);
    expect(txn.payment_method.expiration_date).toBe('2026-11-23T12:30:00.000Z');
    const past = await api.post('/v1/transactions', base('pix', { pix_expiration_date_time: '2026-11-22T09:00:00Z' }));
    expectReasons(past, ['pix_expiration_date_time: must be in the future']);
    // A time without its offset is a different moment on every machine.
    const local = await api.post('/v1/transactions', base('pix', { pix_expiration_date_time: '2026-11-23T09:30:00' }));
    expectReasons(local, ['pix_expiration_date_time: must be an ISO 8601 date-time with offset']);
  });

  it('once paid, may be voided like a card', async ({ fileSandbox: { api } }) => {
    const txn = await create(api, base('pix', { amount: 1000 }), pixSale);
    const paid = await api.post(`/v1/transactions/${txn.id}/approve`);
    expect(expectAnswer(paid, 200, pixSale).status).toBe('succeeded');
    const partial = await api.post(`/v1/transactions/${txn.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 400 });
    expect(partial.body).toMatchObject({ status: 'succeeded', amount: '6.00', original_amount: '10.00' });
    const full = await api.post(`/v1/transactions/${txn.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 600 });
    expect(full.body).toMatchObject({ status: 'canceled', voided: true });
    expect(expectAnswer(full, 200, pixSale).history.map((h) => h.operation_type)).toEqual(['created', 'paid', 'void', 'void']);
  });
});

describe('approve on anything else', () => {
  it('refuses a card sale and 404s an unknown id', async ({ fileSandbox: { api } }) => {
    const card = await create(api, directCardBody(VISA, 1000), transactionStrict);
    const reply = await api.post(`/v1/transactions/${card.id}/approve`);
    expect(expectError(reply, 400, 'approve_transaction_error').message).toMatch(/credit/);
    expectError(await api.post(`/v1/transactions/${'5'.repeat(32)}/approve`), 404, 'resource_not_found');
  });
});
