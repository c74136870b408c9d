import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { SANDBOX_MARKETPLACE_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import * as z from 'zod/mini';
import { transactionStrict } from '../../src/provider/schemas/transaction.js';
import { cardData, DECLINED, expectAnswer, expectError, HEX32, ISO_MS, MASTERCARD, VISA, type Client } from './helpers.js';

/** A token as this file reads it: its card's fields are looked at one by one. */
const tokenAnswer = z.looseObject({ id: z.string(), card: z.looseObject({ id: z.string(), fingerprint: z.string() }) });

async function tokenize(api: Client, card: unknown) {
  return expectAnswer(await api.post('/v1/cards/tokens', card), 200, tokenAnswer);
}

function chargeCardId(api: Client, cardId: string, cents = 1500) {
  return api.post('/v1/transactions', {
    payment_type: 'credit',
    on_behalf_of: SANDBOX_SELLER_ID,
    amount: cents,
    currency: 'BRL',
    source: { type: 'card', usage: 'single_use', amount: cents, currency: 'BRL', card: { id: cardId } },
  });
}

describe('POST /v1/cards/tokens', () => {
  it('answers 200 with the seed 2.5 token: first4_digits and no last4_digits', async ({ fileSandbox: { api } }) => {
    const token = await tokenize(api, cardData(VISA));
    expect(token).toMatchObject({ resource: 'token', type: 'card', used: 'false' });
    expect(token.id).toMatch(HEX32);
    const card = token.card;
    for (const key of ['id', 'resource', 'card_brand', 'first4_digits', 'expiration_month', 'expiration_year', 'holder_name', 'fingerprint', 'uri']) {
      expect(typeof card[key], key).toBe('string');
    }
    expect(card.customer).toBeNull();
    // No last4_digits field, but the description names them, as the card's does everywhere else.
    expect(card.description).toBe('Visa final 1111');
    for (const key of ['is_active', 'is_valid', 'is_verified']) expect(typeof card[key], key).toBe('boolean');
    expect(card.metadata).toEqual({});
    expect(card.created_at).toMatch(ISO_MS);
    expect(card.updated_at).toMatch(ISO_MS);
    expect(card).toMatchObject({ resource: 'card', card_brand: 'Visa', first4_digits: '4111', holder_name: 'MARIA SILVA', expiration_month: '12' });
    expect(card).not.toHaveProperty('last4_digits');
    expect(card.verification_checklist).toEqual({
      postal_code_check: expect.any(String),
      security_code_check: expect.any(String),
      address_line1_check: expect.any(String),
    });
    expect(card.uri).toBe(`/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}/cards/${card.id}`);
  });

  it('gives each card its own fingerprint, not one derived from the number', async ({ fileSandbox: { api } }) => {
    const a = await tokenize(api, cardData(VISA));
    const b = await tokenize(api, cardData(VISA));
    expect(a.card.fingerprint).not.toBe(b.card.fingerprint);
    expect(a.card.fingerprint).not.toContain(VISA); // random hex may hold '4111'; never the number
  });

  it('rejects a Luhn-invalid number, an expired card and a missing CVV with 400', async ({ fileSandbox: { api } }) => {
    const luhn = await api.post('/v1/cards/tokens', cardData('5555555555554445'));
    expect(expectError(luhn, 400, 'invalid_parameter').reasons?.join(' ')).toMatch(/card_number/);
    expect(JSON.stringify(luhn.body)).not.toContain('5555555555554445');

    const expired = await api.post('/v1/cards/tokens', cardData(VISA, { expiration_month: '1', expiration_year: '2021' }));
    expect(expectError(expired, 400, 'invalid_parameter').reasons?.join(' ')).toMatch(/expired/);

    const { security_code: _omitted, ...noCvv } = cardData(VISA);
    const missing = await api.post('/v1/cards/tokens', noCvv);
    expect(expectError(missing, 400, 'invalid_parameter').reasons?.join(' ')).toMatch(/security_code/);
  });

  it("stores the token's card so it can be charged by id", async ({ fileSandbox: { api } }) => {
    const token = await tokenize(api, cardData(MASTERCARD));
    const sale = expectAnswer(await chargeCardId(api, token.card.id), 201, transactionStrict);
    expect(sale).toMatchObject({ status: 'succeeded', amount: '15.00' });
    expect(sale.payment_method).toMatchObject({ id: token.card.id, card_brand: 'MasterCard', first4_digits: '5555', last4_digits: '4444' });
  });

  it('declines a charge on a tokenized declined test card', async ({ fileSandbox: { api } }) => {
    const token = await tokenize(api, cardData(DECLINED));
    expect(expectAnswer(await chargeCardId(api, token.card.id), 201, transactionStrict).status).toBe('failed');
  });

  it('also answers under the marketplace prefix', async ({ fileSandbox: { api } }) => {
    const reply = await api.post(`/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}/cards/tokens`, cardData(VISA));
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ resource: 'token' });
  });
});
