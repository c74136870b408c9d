import { generateCnpj } from '@brazilian-utils/brazilian-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_MARKETPLACE_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { buyerStrict } from '../../src/provider/schemas/parties.js';
import { transactionStrict } from '../../src/provider/schemas/transaction.js';
import { parseTaxpayerId } from '../../src/sandbox/buyers.js';
import { expectAnswer, expectError, freshSandbox, pageOf, ref, type Client, type Fresh } from './helpers.js';

// The alphanumeric CNPJ the Receita Federal issues from July 2026 (12.ABC.345/01DE-35) is a
// company document like any other CNPJ: the sandbox stores it without punctuation, upper-cased,
// and finds the buyer by it.
let fresh: Fresh;
let api: Client;
const PREFIX = `/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}`;

beforeAll(async () => {
  fresh = await freshSandbox(() => new Date('2026-11-22T10:00:00.000Z'));
  api = fresh.api;
});
afterAll(async () => {
  await fresh.close();
});

/** A page of buyers, each read as the provider describes a buyer. */
const buyersPage = pageOf(buyerStrict);

const punctuate = (id: string) => `${id.slice(0, 2)}.${id.slice(2, 5)}.${id.slice(5, 8)}/${id.slice(8, 12)}-${id.slice(12)}`;

describe('parseTaxpayerId', () => {
  it.each([
    ['529.982.247-25', '52998224725'],
    ['11.222.333/0001-81', '11222333000181'],
    ['12.ABC.345/01DE-35', '12ABC34501DE35'],
    ['12.abc.345/01de-35', '12ABC34501DE35'],
    [' 12ABC34501DE35 ', '12ABC34501DE35'],
  ])('%j → %s', (input, id) => {
    expect(parseTaxpayerId(input)).toBe(id);
  });

  it.each(['12.ABC.345/01DE-36', '12.ABC.345/01DE-3E', '12ABC34501DE3', 'CPF 52998224725', '12_ABC_345_01DE_35', 'abc', 12345678909, null])('rejects %j', (input) => {
    expect(parseTaxpayerId(input)).toBeUndefined();
  });
});

describe('buyers with an alphanumeric CNPJ', () => {
  it('creates, gets, searches and lists by it, with or without punctuation, in any case', async () => {
    const created = expectAnswer(await api.post('/v1/buyers', { first_name: 'Loja', last_name: 'Nova', taxpayer_id: '12.abc.345/01de-35' }), 201, buyerStrict);
    expect(created.taxpayer_id).toBe('12ABC34501DE35');
    expect(expectAnswer(await api.get(`${PREFIX}/buyers/${created.id}`), 200, buyerStrict).taxpayer_id).toBe('12ABC34501DE35');

    for (const typed of ['12ABC34501DE35', '12.ABC.345/01DE-35', '12abc34501de35']) {
      const found = await api.get(`${PREFIX}/buyers/search?taxpayer_id=${encodeURIComponent(typed)}`);
      expect(found.status, typed).toBe(200);
      expect(expectAnswer(found, 200, buyerStrict).id).toBe(created.id);
      const listed = expectAnswer(await api.get(`${PREFIX}/buyers?taxpayer_id=${encodeURIComponent(typed)}`), 200, buyersPage);
      expect(listed.items.map((b) => b.id), typed).toEqual([created.id]);
    }
    // A numeric CNPJ sharing its digits is another document.
    const other = expectAnswer(await api.get(`${PREFIX}/buyers?taxpayer_id=123450135`), 200, buyersPage);
    expect(other.items).toEqual([]);

    // One buyer per document, whichever way it is written.
    expectError(await api.post('/v1/buyers', { first_name: 'Outra', taxpayer_id: '12ABC34501DE35' }), 409, 'duplicate_taxpayer_id');
  });

  it('moves a buyer to an alphanumeric CNPJ, and takes one an inline boleto payer gives', async () => {
    const buyer = expectAnswer(await api.post('/v1/buyers', { first_name: 'Muda', taxpayer_id: '11.444.777/0001-61' }), 201, buyerStrict);
    const id = generateCnpj(2);
    const moved = expectAnswer(await api.put(`/v1/buyers/${buyer.id}`, { taxpayer_id: punctuate(id).toLowerCase() }), 200, buyerStrict);
    expect(moved.taxpayer_id).toBe(id);

    const payerId = generateCnpj(2);
    const boleto = await api.post('/v1/transactions', {
      payment_type: 'boleto',
      on_behalf_of: SANDBOX_SELLER_ID,
      amount: 1000,
      currency: 'BRL',
      reference_id: ref('boleto'),
      payment_method: { buyer: { first_name: 'Empresa', last_name: 'Nova', taxpayer_id: punctuate(payerId) } },
    });
    const sale = expectAnswer(boleto, 201, transactionStrict);
    expect(expectAnswer(await api.get(`${PREFIX}/buyers/search?taxpayer_id=${payerId}`), 200, buyerStrict).id).toBe(sale.customer);
  });

  it('answers 400 naming taxpayer_id for a wrong check digit, on create, update and search', async () => {
    const bad = expectError(await api.post('/v1/buyers', { first_name: 'X', taxpayer_id: '12.ABC.345/01DE-36' }), 400, 'invalid_parameter');
    expect(bad.reasons?.join(' ')).toMatch(/taxpayer_id: .*CNPJ with matching check digits/);
    expectError(await api.get(`${PREFIX}/buyers/search?taxpayer_id=12ABC34501DE36`), 400, 'invalid_parameter');
  });
});
