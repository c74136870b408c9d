import { describe, expect } from 'vitest';
import * as z from 'zod/mini';
import { itOnClock } from '../helpers/fixtures.js';
import { SANDBOX_BUYER_ID, SANDBOX_MARKETPLACE_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { receiptStrict } from '../../src/provider/schemas/documents.js';
import { buyerStrict } from '../../src/provider/schemas/parties.js';
import { transactionStrict } from '../../src/provider/schemas/transaction.js';
import { bolepixSale, boletoSale, cardSale } from './answers.js';
import {
  directCardBody,
  expectAnswer,
  expectBoletoPaymentMethod,
  expectError,
  expectReasons,
  expectTransactionShape,
  nextCpf,
  readStateFile,
  VISA,
  type Client,
  type Reply,
} from './helpers.js';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const PREFIX = `/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}`;
const OTHER_MARKETPLACE = 'e'.repeat(32);

const it = itOnClock(() => NOW);

type Sale = z.infer<typeof transactionStrict>;

/** A sale made, read with `schema` (a sale with the payment method its payment_type carries). */
async function create<S extends z.ZodMiniType>(api: Client, body: unknown, schema: S): Promise<z.infer<S>> {
  return expectAnswer(await api.post('/v1/transactions', body), 201, schema);
}

const charge = <S extends z.ZodMiniType>(api: Client, paymentType: string, schema: S, extra: Record<string, unknown> = {}) =>
  create(api, { payment_type: paymentType, on_behalf_of: SANDBOX_SELLER_ID, amount: 2500, currency: 'BRL', customer: SANDBOX_BUYER_ID, ...extra }, schema);

/** A sale as the API serves it now. */
const sale = async (api: Client, id: string) => expectAnswer(await api.get(`/v1/transactions/${id}`), 200, transactionStrict);

const cancelPath = (transactionId: string, marketplace = SANDBOX_MARKETPLACE_ID) =>
  `/v1/boletos/cancellation/marketplaces/${marketplace}/transactions/${transactionId}`;

function expectBare(reply: Reply, status: number, body: unknown): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.body).toEqual(body);
}

describe('GET /boletos/{id}', () => {
  it('answers the boleto of a boleto transaction, with the provider fields it adds', async ({ fileSandbox: { api } }) => {
    const txn = await charge(api, 'boleto', boletoSale);
    const id = txn.payment_method.id;
    for (const path of [`/v1/boletos/${id}`, `${PREFIX}/boletos/${id}`]) {
      const reply = await api.get(path);
      expect(reply.status).toBe(200);
      expectBoletoPaymentMethod(reply.body);
      expect(reply.body).toEqual({
        ...txn.payment_method,
        accepted: 'false',
        printed: 'false',
        downloaded: 'false',
        paid_at: null,
        uri: `/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}/boletos/${id}`,
        metadata: {},
        transaction: txn.id,
      });
    }
    await api.post(`/v1/transactions/${txn.id}/approve`);
    expect((await api.get(`/v1/boletos/${id}`)).body).toMatchObject({ status: 'paid', paid_at: NOW.toISOString() });
  });

  it('answers the boleto of a bolepix too, and 404 for anything else in the provider wording', async ({ fileSandbox: { api } }) => {
    const bolepix = await charge(api, 'bolepix', bolepixSale);
    expect((await api.get(`/v1/boletos/${bolepix.payment_method.id}`)).body).toMatchObject({ resource: 'bolepix', transaction: bolepix.id });
    const card = await create(api, directCardBody(VISA), cardSale);
    for (const id of ['0'.repeat(32), card.payment_method.id, card.id]) {
      const reply = await api.get(`/v1/boletos/${id}`);
      expect(expectError(reply, 404, 'resource_not_found').message).toBe('Sorry, the boleto you are trying to use does not exist or has been deleted.');
    }
  });
});

describe('POST /boletos/{id}/emails', () => {
  it("sends to the buyer's e-mail on file, records the delivery, and takes no body (415), as the provider", async ({ fileSandbox: { api, dir } }) => {
    const txn = await charge(api, 'boleto', boletoSale);
    const id = txn.payment_method.id;
    const toBuyer = await api.post(`/v1/boletos/${id}/emails`);
    expect(toBuyer.status).toBe(200);
    expect(toBuyer.body).toEqual({ message: 'success', delivery_method: 'email', to: 'maria.silva@example.com' });
    expectError(await api.post(`${PREFIX}/boletos/${id}/emails`, { to: 'financeiro@example.com' }), 415, 'unsupported_media_type');
    expectError(await api.post(`${PREFIX}/boletos/${id}/emails`, {}), 415, 'unsupported_media_type');
    const state = await readStateFile(dir);
    const mine = state.deliveries.filter((d) => d.resource_id === id);
    expect(mine).toEqual([{ kind: 'boleto', resource_id: id, method: 'email', target: 'maria.silva@example.com', at: NOW.toISOString() }]);
  });

  it('answers 400 missing_email when the buyer has no address, 404 for an unknown boleto', async ({ fileSandbox: { api, dir } }) => {
    const buyer = expectAnswer(await api.post('/v1/buyers', { first_name: 'Sem', last_name: 'Email', taxpayer_id: nextCpf() }), 201, buyerStrict);
    const txn = await charge(api, 'boleto', boletoSale, { customer: buyer.id });
    const id = txn.payment_method.id;
    const before = (await readStateFile(dir)).deliveries.length;
    expectError(await api.post(`/v1/boletos/${id}/emails`), 400, 'missing_email');
    expect((await readStateFile(dir)).deliveries).toHaveLength(before);
    expectError(await api.post(`/v1/boletos/${'1'.repeat(32)}/emails`), 404, 'resource_not_found');
  });
});

describe('boleto cancellation (outside the marketplace prefix)', () => {
  it('cancels a pending boleto (202), then acknowledges a repeat request (202)', async ({ fileSandbox: { api } }) => {
    const txn = await charge(api, 'boleto', boletoSale);
    const first = await api.post(cancelPath(txn.id));
    expectBare(first, 202, { status: 'Requested', message: 'Cancellation request created successfully', transaction_id: txn.id });

    const after = await api.get(`/v1/transactions/${txn.id}`);
    expectTransactionShape(after.body);
    const canceled = expectAnswer(after, 200, boletoSale);
    expect(canceled.status).toBe('canceled');
    expect(canceled.payment_method.status).toBe('canceled');
    expect(canceled.history.map((h) => h.operation_type)).toEqual(['created', 'cancellation']);
    expect((await api.get(`/v1/boletos/${txn.payment_method.id}`)).body).toMatchObject({ status: 'canceled' });

    const again = await api.post(cancelPath(txn.id));
    expectBare(again, 202, { status: 'Requested', message: 'Cancellation already requested successfully', transaction_id: txn.id });
    expect((await sale(api, txn.id)).history).toHaveLength(2);
    // A canceled boleto can no longer be paid.
    expectError(await api.post(`/v1/transactions/${txn.id}/approve`), 400, 'approve_transaction_error');
  });

  it('cancels a bolepix through the path without a marketplace', async ({ fileSandbox: { api } }) => {
    const txn = await charge(api, 'bolepix', transactionStrict);
    const reply = await api.post(`/v1/boletos/cancellation/transactions/${txn.id}`);
    expectBare(reply, 202, { status: 'Requested', message: 'Cancellation request created successfully', transaction_id: txn.id });
    expect((await api.get(`/v1/transactions/${txn.id}`)).body).toMatchObject({ status: 'canceled', payment_method: { status: 'canceled' } });
  });

  it('frees the buyer: a canceled boleto no longer blocks removing it', async ({ fileSandbox: { api } }) => {
    const buyer = expectAnswer(await api.post('/v1/buyers', { first_name: 'Temp', taxpayer_id: nextCpf() }), 201, buyerStrict);
    const txn = await charge(api, 'boleto', transactionStrict, { customer: buyer.id });
    expectError(await api.del(`/v1/buyers/${buyer.id}`), 409, 'buyer_has_dependents');
    await api.post(cancelPath(txn.id));
    expect((await api.del(`/v1/buyers/${buyer.id}`)).status).toBe(200);
  });

  it('refuses (422 REFUSED) a card sale, a paid boleto and a PIX, changing nothing', async ({ fileSandbox: { api } }) => {
    const card = await create(api, directCardBody(VISA), transactionStrict);
    const paid = await charge(api, 'boleto', transactionStrict);
    await api.post(`/v1/transactions/${paid.id}/approve`);
    const pix = await charge(api, 'pix', transactionStrict);
    for (const txn of [card, paid, pix]) {
      const before = await api.get(`/v1/transactions/${txn.id}`);
      expectBare(await api.post(cancelPath(txn.id)), 422, { status: 'REFUSED', message: 'Transaction status is invalid' });
      expect((await api.get(`/v1/transactions/${txn.id}`)).body).toEqual(before.body);
    }
  });

  it('answers 422 ERROR for an unknown transaction', async ({ fileSandbox: { api } }) => {
    expectBare(await api.post(cancelPath('2'.repeat(32))), 422, { status: 'ERROR', message: 'Transaction not found' });
    expectBare(await api.post(`/v1/boletos/cancellation/transactions/${'2'.repeat(32)}`), 422, { status: 'ERROR', message: 'Transaction not found' });
  });

  it("answers 404 for another marketplace's path and under the marketplace prefix", async ({ fileSandbox: { api } }) => {
    const txn = await charge(api, 'boleto', transactionStrict);
    const other = await api.post(cancelPath(txn.id, OTHER_MARKETPLACE));
    expect(expectError(other, 404, 'resource_not_found').message).toContain(OTHER_MARKETPLACE);
    expectError(await api.post(`${PREFIX}/boletos/cancellation/transactions/${txn.id}`), 404, 'resource_not_found');
    expectError(await api.post(`${PREFIX}${cancelPath(txn.id).slice(3)}`), 404, 'resource_not_found');
    expect((await sale(api, txn.id)).status).toBe('pending');
  });
});

const RECEIPT_FIELDS = [
  'id',
  'resource',
  'status',
  'amount',
  'sub_total',
  'currency',
  'payment_type',
  'business_name',
  'description',
  'taxpayer_id',
  'card',
  'seller',
  'buyer',
  'auth_number',
  'receipt_number',
  'auth_nsu',
  'installment_plan',
  'business_address',
  'uri',
  'metadata',
  'created_at',
  'updated_at',
  'transaction',
];

function expectReceipt(answer: unknown, txn: Sale, status = 'approved'): void {
  const receipt = z.parse(receiptStrict, answer);
  expect(Object.keys(receipt).sort()).toEqual([...RECEIPT_FIELDS].sort());
  expect(receipt).toMatchObject({
    id: txn.sales_receipt,
    resource: 'receipt',
    status,
    currency: 'BRL',
    payment_type: txn.payment_type,
    business_name: 'Loja Sandbox Ltda',
    taxpayer_id: expect.stringMatching(/^\d{14}$/),
    seller: SANDBOX_SELLER_ID,
    buyer: txn.customer,
    transaction: txn.id,
    uri: `/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}/receipts/${txn.sales_receipt}`,
  });
  expect(receipt.receipt_number).toMatch(/^\d{9}$/);
  expect(receipt.business_address).toMatchObject({ city: expect.any(String), state: expect.any(String), country_code: 'BR' });
}

describe('GET /receipts/{id}', () => {
  it("describes a card sale: amounts, the card's brand and first digits, the authorization", async ({ fileSandbox: { api } }) => {
    const txn = await create(api, { ...directCardBody(VISA, 1050), installment_plan: { number_installments: 2 } }, transactionStrict);
    expect(txn.sales_receipt).toMatch(/^[0-9a-f]{32}$/);
    const reply = await api.get(`${PREFIX}/receipts/${txn.sales_receipt}`);
    expect(reply.status).toBe(200);
    expectReceipt(reply.body, txn);
    const auth = txn.history.find((h) => h.operation_type === 'authorization');
    expect(auth).toBeDefined();
    expect(reply.body).toMatchObject({
      amount: '10.50',
      sub_total: '10.50',
      description: 'Pedido 123',
      card: { card_brand: 'Visa', first4_digits: '4111', first6_digits: '411111' },
      auth_number: auth?.authorization_code,
      auth_nsu: auth?.authorization_nsu,
      installment_plan: { number_installments: 2 },
      created_at: NOW.toISOString(),
    });
    expect((await api.get(`/v1/receipts/${txn.sales_receipt}`)).body).toEqual(reply.body);
  });

  it('gives a boleto, a bolepix and a PIX their receipt from creation: pending until paid, then approved', async ({ fileSandbox: { api } }) => {
    for (const type of ['boleto', 'bolepix', 'pix']) {
      const txn = await charge(api, type, transactionStrict);
      expect(txn.sales_receipt).toMatch(/^[0-9a-f]{32}$/);
      const pending = await api.get(`/v1/receipts/${txn.sales_receipt}`);
      expect(pending.status).toBe(200);
      expectReceipt(pending.body, txn, 'pending');
      expect(pending.body).toMatchObject({ amount: '25.00', payment_type: type, card: null, auth_number: null, created_at: txn.created_at });

      const paid = expectAnswer(await api.post(`/v1/transactions/${txn.id}/approve`), 200, transactionStrict);
      expect(paid.sales_receipt).toBe(txn.sales_receipt);
      const receipt = await api.get(`/v1/receipts/${paid.sales_receipt}`);
      expect(receipt.status).toBe(200);
      expectReceipt(receipt.body, paid);
      expect(receipt.body).toMatchObject({ amount: '25.00', payment_type: type, card: null, auth_number: null, buyer: SANDBOX_BUYER_ID });
    }
  });

  it("follows a canceled boleto, whose sale no longer expects a payment", async ({ fileSandbox: { api } }) => {
    const txn = await charge(api, 'boleto', transactionStrict);
    expect(txn.expected_on).toBe('2026-11-26T00:00:00.000Z');
    await api.post(cancelPath(txn.id));
    expect((await api.get(`/v1/transactions/${txn.id}`)).body).toMatchObject({ status: 'canceled', expected_on: null, sales_receipt: txn.sales_receipt });
    expectReceipt((await api.get(`/v1/receipts/${txn.sales_receipt}`)).body, txn, 'canceled');
  });

  it('says canceled for a fully voided card sale, approved while any of it stands', async ({ fileSandbox: { api } }) => {
    const txn = await create(api, directCardBody(VISA, 1000), transactionStrict);
    const receiptStatus = async () => expectAnswer(await api.get(`/v1/receipts/${txn.sales_receipt}`), 200, receiptStrict).status;
    await api.post(`/v1/transactions/${txn.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 400 });
    expect(await receiptStatus()).toBe('approved');
    await api.post(`/v1/transactions/${txn.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 600 });
    expect(await receiptStatus()).toBe('canceled');
  });

  it('answers 404 for an unknown receipt', async ({ fileSandbox: { api } }) => {
    const reply = await api.get(`/v1/receipts/${'3'.repeat(32)}`);
    expect(expectError(reply, 404, 'resource_not_found').message).toMatch(/^Sorry, the receipt/);
  });
});

describe('sending receipts', () => {
  it('e-mails (200) and texts (200) a receipt, recording each delivery', async ({ fileSandbox: { api, dir } }) => {
    const txn = await create(api, directCardBody(VISA), transactionStrict);
    const id = txn.sales_receipt;
    const email = await api.post(`/v1/receipts/${id}/emails`, { to: 'cliente@example.com' });
    expect(email.status).toBe(200);
    expect(email.body).toEqual({ message: 'success', delivery_method: 'email' });
    for (const to of ['+55 21999099999', '+5511987654321', '+55 2133334444']) {
      const sms = await api.post(`${PREFIX}/receipts/${id}/texts`, { to });
      expect(sms.status, to).toBe(200);
      expect(sms.body).toEqual({ message: 'success', delivery_method: 'sms' });
    }
    const mine = (await readStateFile(dir)).deliveries.filter((d) => d.resource_id === id);
    expect(mine.map((d) => [d.kind, d.method, d.target])).toEqual([
      ['receipt', 'email', 'cliente@example.com'],
      ['receipt', 'sms', '+55 21999099999'],
      ['receipt', 'sms', '+5511987654321'],
      ['receipt', 'sms', '+55 2133334444'],
    ]);
  });

  it('refuses (400) to send the receipt of a sale not paid yet, and sends it once paid', async ({ fileSandbox: { api, dir } }) => {
    const txn = await charge(api, 'boleto', transactionStrict);
    const id = txn.sales_receipt;
    const email = await api.post(`/v1/receipts/${id}/emails`, { to: 'cliente@example.com' });
    expect(expectError(email, 400, 'receipt_not_approved').message).toContain('still pending payment');
    expectError(await api.post(`/v1/receipts/${id}/texts`, { to: '+55 21999099999' }), 400, 'receipt_not_approved');
    expect((await readStateFile(dir)).deliveries.filter((d) => d.resource_id === id)).toEqual([]);

    await api.post(`/v1/transactions/${txn.id}/approve`);
    expect((await api.post(`/v1/receipts/${id}/emails`, { to: 'cliente@example.com' })).status).toBe(200);
    expect((await api.post(`/v1/receipts/${id}/texts`, { to: '+55 21999099999' })).status).toBe(200);
  });

  it('answers 400 for a missing or malformed destination, 404 for an unknown receipt', async ({ fileSandbox: { api, dir } }) => {
    const txn = await create(api, directCardBody(VISA), transactionStrict);
    const id = txn.sales_receipt;
    for (const body of [{}, { to: '' }, { to: 'cliente' }, { to: ['a@example.com'] }]) {
      const reply = await api.post(`/v1/receipts/${id}/emails`, body);
      expect(expectError(reply, 400, 'invalid_parameter').reasons?.join(' ')).toMatch(/^to:/);
    }
    for (const to of [undefined, '21999099999', '+1 2125551234', '+55 2199909999999', '+55 219990', '+55 (21) 99909-9999']) {
      expectError(await api.post(`/v1/receipts/${id}/texts`, to === undefined ? {} : { to }), 400, 'invalid_parameter');
    }
    const mobile = 'to: must be a Brazilian mobile number: +55, a 2-digit area code and 8 or 9 digits (+55 21999099999)';
    const answers: [unknown, string][] = [
      [undefined, 'to: is required'],
      ['', 'to: is required'],
      [5521999099999, 'to: must be a string'],
      [`+55 21999099999${' '.repeat(16)}`, 'to: must be at most 30 characters'],
      ['+55 219990', mobile],
    ];
    for (const [to, reason] of answers) {
      const reply = await api.post(`/v1/receipts/${id}/texts`, to === undefined ? {} : { to });
      expectReasons(reply, [reason]);
    }
    expect((await readStateFile(dir)).deliveries.filter((d) => d.resource_id === id)).toEqual([]);
    expectError(await api.post(`/v1/receipts/${'4'.repeat(32)}/emails`, { to: 'a@example.com' }), 404, 'resource_not_found');
    expectError(await api.post(`/v1/receipts/${'4'.repeat(32)}/texts`, { to: '+55 21999099999' }), 404, 'resource_not_found');
  });
});

describe('GET /v1/receipts/{marketplace_id}/{receipt_id} (HTML, outside the prefix)', () => {
  it('renders a self-contained HTML receipt of a card sale', async ({ fileSandbox: { api } }) => {
    const txn = await create(api, { ...directCardBody(VISA, 123456), description: 'Pedido <b>7</b> & "cia"' }, transactionStrict);
    const reply = await api.get(`/v1/receipts/${SANDBOX_MARKETPLACE_ID}/${txn.sales_receipt}`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = reply.body;
    if (typeof html !== 'string') throw new Error(`the receipt should be HTML text, got ${JSON.stringify(html)}`);
    const receipt = expectAnswer(await api.get(`/v1/receipts/${txn.sales_receipt}`), 200, receiptStrict);
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('Loja Sandbox Ltda');
    expect(html).toContain('R$ 1.234,56');
    expect(html).toContain('22/11/2026');
    expect(html).toMatch(/Visa\s*•+\s*1111/);
    expect(html).toContain(receipt.receipt_number);
    // The description is shown, escaped.
    expect(html).toContain('Pedido &#60;b&#62;7&#60;/b&#62; &#38; &#34;cia&#34;');
    expect(html).not.toContain('<b>7</b>');
    // Self-contained: no scripts, nothing fetched from elsewhere.
    expect(html).not.toMatch(/<script|<link|src=|https?:\/\//i);
    expect(html).not.toContain(VISA);
  });

  it('names the payment type for a paid boleto, and says an unpaid one awaits payment', async ({ fileSandbox: { api } }) => {
    const txn = await charge(api, 'boleto', transactionStrict);
    const unpaid = await api.get(`/v1/receipts/${SANDBOX_MARKETPLACE_ID}/${txn.sales_receipt}`);
    expect(unpaid.status).toBe(200);
    expect(unpaid.body).toContain('<dt>Situação</dt><dd>Aguardando pagamento</dd>');
    const paid = expectAnswer(await api.post(`/v1/transactions/${txn.id}/approve`), 200, transactionStrict);
    const reply = await api.get(`/v1/receipts/${SANDBOX_MARKETPLACE_ID}/${paid.sales_receipt}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('Boleto');
    expect(reply.body).toContain('R$ 25,00');
    expect(reply.body).not.toContain('Situação');
  });

  it('answers 404 JSON for an unknown receipt, another marketplace, or under the prefix', async ({ fileSandbox: { api } }) => {
    const txn = await create(api, directCardBody(VISA), transactionStrict);
    const unknown = await api.get(`/v1/receipts/${SANDBOX_MARKETPLACE_ID}/${'5'.repeat(32)}`);
    expectError(unknown, 404, 'resource_not_found');
    expect(unknown.headers.get('content-type')).toMatch(/application\/json/);
    expectError(await api.get(`/v1/receipts/${OTHER_MARKETPLACE}/${txn.sales_receipt}`), 404, 'resource_not_found');
    expectError(await api.get(`${PREFIX}/receipts/${SANDBOX_MARKETPLACE_ID}/${txn.sales_receipt}`), 404, 'resource_not_found');
  });
});
