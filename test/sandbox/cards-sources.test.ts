import { describe, expect } from 'vitest';
import * as z from 'zod/mini';
import { it } from '../helpers/fixtures.js';
import { SANDBOX_BUYER_ID, SANDBOX_CARD_ID, SANDBOX_MARKETPLACE_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { cardStrict } from '../../src/provider/schemas/cards.js';
import { buyerStrict } from '../../src/provider/schemas/parties.js';
import { sourceStrict } from '../../src/provider/schemas/source.js';
import {
  cardData,
  CVV,
  expectAnswer,
  expectCardPaymentMethod,
  expectError,
  expectReasons,
  HEX32,
  ISO_MS,
  MASTERCARD,
  nextCpf,
  readStateFile,
  VISA,
  type Client,
} from './helpers.js';
import { expectNoCardData } from './db-helpers.js';
import { tokenWithCard } from './answers.js';

const PREFIX = `/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}`;
const AMEX = '378282246310005';

async function createBuyer(api: Client) {
  const reply = await api.post('/v1/buyers', { first_name: 'Bruno', last_name: 'Lima', taxpayer_id: nextCpf(), email: 'bruno@example.com' });
  return expectAnswer(reply, 201, buyerStrict);
}

async function tokenize(api: Client, pan = VISA) {
  return expectAnswer(await api.post('/v1/cards/tokens', cardData(pan)), 200, tokenWithCard);
}

/** The buyer's card charged when a sale names only the buyer. */
async function defaultCredit(api: Client, buyerId: string) {
  return expectAnswer(await api.get(`/v1/buyers/${buyerId}`), 200, buyerStrict).default_credit;
}

function chargeCard(api: Client, cardId: string) {
  return api.post('/v1/transactions', {
    payment_type: 'credit',
    on_behalf_of: SANDBOX_SELLER_ID,
    amount: 500,
    currency: 'BRL',
    source: { type: 'card', card: { id: cardId } },
  });
}

/** The card record: seed 2.3 plus verification_checklist and address. */
function expectCardRecord(answer: unknown): void {
  expectCardPaymentMethod(answer);
  const card = z.parse(cardStrict, answer);
  expect(card.verification_checklist).toEqual({
    postal_code_check: expect.any(String),
    security_code_check: expect.any(String),
    address_line1_check: expect.any(String),
  });
  expect(card).toHaveProperty('address', null);
  expect(card.uri).toBe(`/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}/cards/${card.id}`);
  expect(card.created_at).toMatch(ISO_MS);
}

describe('POST /cards (associate a token with a buyer)', () => {
  it("answers 200 with the card, now the buyer's, and its first card becomes default_credit", async ({ fileSandbox: { api, dir } }) => {
    const buyer = await createBuyer(api);
    const token = await tokenize(api, MASTERCARD);
    const reply = await api.post('/v1/cards', { token: token.id, customer: buyer.id });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expectCardRecord(reply.body);
    expect(reply.body).toMatchObject({ id: token.card.id, customer: buyer.id, card_brand: 'MasterCard', first4_digits: '5555', last4_digits: '4444' });
    expect(await defaultCredit(api, buyer.id)).toBe(token.card.id);

    // A second card does not displace the first as default.
    const second = await tokenize(api, VISA);
    const again = await api.post(`${PREFIX}/cards`, { token: second.id, customer: buyer.id });
    expect(expectAnswer(again, 200, cardStrict).customer).toBe(buyer.id);
    expect(await defaultCredit(api, buyer.id)).toBe(token.card.id);

    const state = await readStateFile(dir);
    expect(state.tokens[token.id]?.used).toBe(true);
  });

  it('spends the token: a second association answers 400 token_already_used', async ({ fileSandbox: { api } }) => {
    const buyer = await createBuyer(api);
    const token = await tokenize(api);
    expect((await api.post('/v1/cards', { token: token.id, customer: buyer.id })).status).toBe(200);
    const reply = await api.post('/v1/cards', { token: token.id, customer: buyer.id });
    expect(expectError(reply, 400, 'token_already_used').message).toBe(`The token (id: ${token.id}) has already been used`);
  });

  it('refuses a token already spent on a charge', async ({ fileSandbox: { api } }) => {
    const buyer = await createBuyer(api);
    const token = await tokenize(api);
    expect((await chargeCard(api, token.card.id)).status).toBe(201);
    expectError(await api.post('/v1/cards', { token: token.id, customer: buyer.id }), 400, 'token_already_used');
  });

  it('answers 404 for an unknown token or customer, in the provider wording, and changes nothing', async ({ fileSandbox: { api } }) => {
    const buyer = await createBuyer(api);
    const token = await tokenize(api);
    const unknownToken = 'c'.repeat(32);
    const noToken = await api.post('/v1/cards', { token: unknownToken, customer: buyer.id });
    expect(expectError(noToken, 404, 'resource_not_found').message).toBe(`Sorry, the token (id: ${unknownToken}) you are trying to use does not exist or has been deleted.`);
    const noCustomer = await api.post('/v1/cards', { token: token.id, customer: 'd'.repeat(32) });
    expect(expectError(noCustomer, 404, 'resource_not_found').message).toContain('d'.repeat(32));
    // The failed attempt did not spend the token.
    expect((await api.post('/v1/cards', { token: token.id, customer: buyer.id })).status).toBe(200);
  });

  it('needs both token and customer (400)', async ({ fileSandbox: { api } }) => {
    const reply = await api.post('/v1/cards', {});
    const reasons = expectError(reply, 400, 'invalid_parameter').reasons?.join(' ');
    expect(reasons).toMatch(/token/);
    expect(reasons).toMatch(/customer/);
  });
});

describe('GET and DELETE /cards/{id}', () => {
  it('gets the seeded card and a tokenized one; 404 for an unknown id', async ({ fileSandbox: { api } }) => {
    const seeded = await api.get(`/v1/cards/${SANDBOX_CARD_ID}`);
    expect(seeded.status).toBe(200);
    expectCardRecord(seeded.body);
    expect(seeded.body).toMatchObject({ customer: SANDBOX_BUYER_ID, first4_digits: '4111', last4_digits: '1111' });
    const token = await tokenize(api, AMEX);
    const got = await api.get(`${PREFIX}/cards/${token.card.id}`);
    expect(got.body).toMatchObject({ id: token.card.id, customer: null, card_brand: 'American Express', last4_digits: '0005' });
    expectError(await api.get(`/v1/cards/${'e'.repeat(32)}`), 404, 'resource_not_found');
  });

  it("removes a card: 200, the owner's default_credit cleared, and the card can no longer be charged", async ({ fileSandbox: { api } }) => {
    const buyer = await createBuyer(api);
    const token = await tokenize(api);
    const cardId = token.card.id;
    await api.post('/v1/cards', { token: token.id, customer: buyer.id });
    expect((await chargeCard(api, cardId)).status).toBe(201);

    const reply = await api.del(`${PREFIX}/cards/${cardId}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ id: cardId, resource: 'card', deleted: true });
    expect(await defaultCredit(api, buyer.id)).toBeNull();
    expectError(await api.get(`/v1/cards/${cardId}`), 404, 'resource_not_found');
    expectError(await chargeCard(api, cardId), 404, 'resource_not_found');
    const byCustomer = await api.post('/v1/transactions', { payment_type: 'credit', on_behalf_of: SANDBOX_SELLER_ID, amount: 500, currency: 'BRL', customer: buyer.id });
    expectError(byCustomer, 400, 'invalid_parameter');
    expectError(await api.del(`/v1/cards/${cardId}`), 404, 'resource_not_found');
  });

  it('keeps referential integrity: a buyer with a card cannot be removed until the card is', async ({ fileSandbox: { api } }) => {
    const buyer = await createBuyer(api);
    const token = await tokenize(api);
    await api.post('/v1/cards', { token: token.id, customer: buyer.id });
    const refused = await api.del(`/v1/buyers/${buyer.id}`);
    expect(expectError(refused, 409, 'buyer_has_dependents').message).toContain(token.card.id);
    expect((await api.del(`/v1/cards/${token.card.id}`)).status).toBe(200);
    expect((await api.del(`/v1/buyers/${buyer.id}`)).status).toBe(200);
  });
});

const SOURCE_FIELDS = [
  'id',
  'resource',
  'status',
  'usage',
  'amount',
  'currency',
  'description',
  'type',
  'capture',
  'on_behalf_of',
  'reference_id',
  'card',
  'customer',
  'token',
  'installment_plan',
  'statement_descriptor',
  'uri',
  'metadata',
  'created_at',
  'updated_at',
];

function expectSource(answer: unknown): void {
  const source = z.parse(sourceStrict, answer);
  expect(Object.keys(source).sort()).toEqual([...SOURCE_FIELDS].sort());
  expect(source.id).toMatch(HEX32);
  expect(source).toMatchObject({ resource: 'source', status: 'pending' });
  expect(source.uri).toBe(`/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}/sources/${source.id}`);
  expect(source.created_at).toMatch(ISO_MS);
  if (source.card !== null) expectCardRecord(source.card);
}

describe('POST /sources', () => {
  it('creates a card source from a stored card id (201)', async ({ fileSandbox: { api } }) => {
    const reply = await api.post('/v1/sources', {
      usage: 'reusable',
      currency: 'BRL',
      type: 'card',
      amount: 1990,
      description: 'Assinatura',
      capture: false,
      on_behalf_of: SANDBOX_SELLER_ID,
      reference_id: 'src-1',
      installment_plan: { number_installments: 2 },
      statement_descriptor: 'LOJA',
      metadata: { plan: 'pro' },
      card: { id: SANDBOX_CARD_ID },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expectSource(reply.body);
    expect(reply.body).toMatchObject({
      usage: 'reusable',
      currency: 'BRL',
      type: 'card',
      amount: '19.90',
      description: 'Assinatura',
      capture: false,
      on_behalf_of: SANDBOX_SELLER_ID,
      reference_id: 'src-1',
      installment_plan: { number_installments: 2 },
      statement_descriptor: 'LOJA',
      metadata: { plan: 'pro' },
      customer: null,
      token: null,
    });
    expect(expectAnswer(reply, 201, sourceStrict).card).toMatchObject({ id: SANDBOX_CARD_ID, last4_digits: '1111', first4_digits: '4111' });
  });

  it('creates a card source from raw card data, keeping only what may be stored', async ({ fileSandbox: { api } }) => {
    const reply = await api.post(`${PREFIX}/sources`, { usage: 'single_use', currency: 'BRL', type: 'card', card: cardData(AMEX) });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expectSource(reply.body);
    expect(reply.body).toMatchObject({ amount: null, card: { card_brand: 'American Express', first4_digits: '3782', last4_digits: '0005', customer: null } });
    expect(JSON.stringify(reply.body)).not.toContain(AMEX);
    // The card it made is a card on file like a token's.
    const { card } = expectAnswer(reply, 201, sourceStrict);
    expect(card).not.toBeNull();
    expect(expectAnswer(await api.get(`/v1/cards/${card?.id}`), 200, cardStrict).last4_digits).toBe('0005');
  });

  it('checks raw card data like tokenization (Luhn, expiry, CVV)', async ({ fileSandbox: { api } }) => {
    const luhn = await api.post('/v1/sources', { usage: 'single_use', currency: 'BRL', type: 'card', card: cardData('4111111111111112') });
    expect(expectError(luhn, 400, 'invalid_parameter').reasons?.join(' ')).toMatch(/card\.card_number/);
    expect(JSON.stringify(luhn.body)).not.toContain('4111111111111112');
    const expired = await api.post('/v1/sources', { usage: 'single_use', currency: 'BRL', type: 'card', card: cardData(VISA, { expiration_year: '2020' }) });
    expect(expectError(expired, 400, 'invalid_parameter').reasons?.join(' ')).toMatch(/expired/);
    const both = await api.post('/v1/sources', { usage: 'single_use', currency: 'BRL', type: 'card', card: { ...cardData(VISA), id: SANDBOX_CARD_ID } });
    expectError(both, 400, 'invalid_parameter');
  });

  it('creates a customer source ({id, amount})', async ({ fileSandbox: { api } }) => {
    const reply = await api.post('/v1/sources', { usage: 'reusable', currency: 'BRL', type: 'card', amount: 700, customer: SANDBOX_BUYER_ID });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expectSource(reply.body);
    expect(reply.body).toMatchObject({ type: 'card', customer: { id: SANDBOX_BUYER_ID, amount: '7.00' }, token: null, card: null });
    // The provider's type takes only `card`: the old per-origin types are refused.
    expectError(await api.post('/v1/sources', { usage: 'reusable', currency: 'BRL', type: 'customer', customer: SANDBOX_BUYER_ID }), 400, 'invalid_parameter');
    expectError(await api.post('/v1/sources', { usage: 'reusable', currency: 'BRL', type: 'card', customer: SANDBOX_BUYER_ID, token: { id: 'a'.repeat(32) } }), 400, 'invalid_parameter');
    expectError(await api.post('/v1/sources', { usage: 'reusable', currency: 'BRL', type: 'card', customer: 'f'.repeat(32) }), 404, 'resource_not_found');
  });

  it('creates a token source: single_use spends the token, reusable does not', async ({ fileSandbox: { api, dir } }) => {
    const reusableToken = await tokenize(api);
    const reusable = await api.post('/v1/sources', { usage: 'reusable', currency: 'BRL', type: 'card', token: { id: reusableToken.id, amount: 300 } });
    expect(reusable.status, JSON.stringify(reusable.body)).toBe(201);
    expectSource(reusable.body);
    expect(reusable.body).toMatchObject({ token: { id: reusableToken.id, amount: '3.00' }, card: { id: reusableToken.card.id, last4_digits: '1111' } });
    expect((await readStateFile(dir)).tokens[reusableToken.id]?.used).toBe(false);

    const singleToken = await tokenize(api);
    const single = await api.post('/v1/sources', { usage: 'single_use', currency: 'BRL', type: 'card', token: { id: singleToken.id } });
    expect(single.status).toBe(201);
    expect((await readStateFile(dir)).tokens[singleToken.id]?.used).toBe(true);
    const reused = await api.post('/v1/sources', { usage: 'single_use', currency: 'BRL', type: 'card', token: { id: singleToken.id } });
    expectError(reused, 400, 'token_already_used');
    const buyer = await createBuyer(api);
    expectError(await api.post('/v1/cards', { token: singleToken.id, customer: buyer.id }), 400, 'token_already_used');

    expectError(await api.post('/v1/sources', { usage: 'single_use', currency: 'BRL', type: 'card', token: { id: '1'.repeat(32) } }), 404, 'resource_not_found');
  });

  it('answers 404 for an unknown card id or seller', async ({ fileSandbox: { api } }) => {
    expectError(await api.post('/v1/sources', { usage: 'single_use', currency: 'BRL', type: 'card', card: { id: '2'.repeat(32) } }), 404, 'resource_not_found');
    const seller = await api.post('/v1/sources', { usage: 'single_use', currency: 'BRL', type: 'card', on_behalf_of: '3'.repeat(32), card: { id: SANDBOX_CARD_ID } });
    expect(expectError(seller, 404, 'resource_not_found').message).toMatch(/seller/);
  });

  it('names every missing or invalid field in one 400', async ({ fileSandbox: { api } }) => {
    const missing = await api.post('/v1/sources', {});
    const reasons = expectError(missing, 400, 'invalid_parameter').reasons?.join('\n');
    for (const field of ['usage', 'type', 'currency']) expect(reasons).toContain(`${field}:`);

    const invalid = await api.post('/v1/sources', { usage: 'forever', currency: 'REAL', type: 'wallet', amount: 1.5 });
    const why = expectError(invalid, 400, 'invalid_parameter').reasons?.join('\n');
    for (const field of ['usage', 'type', 'currency', 'amount']) expect(why).toContain(`${field}:`);

    const noOrigin = await api.post('/v1/sources', { usage: 'single_use', currency: 'BRL', type: 'card' });
    expect(expectError(noOrigin, 400, 'invalid_parameter').reasons?.join(' ')).toContain('card: is required unless token or customer is given');
    for (const origin of ['customer', 'token']) {
      const empty = await api.post('/v1/sources', { usage: 'single_use', currency: 'BRL', type: 'card', [origin]: {} });
      expect(expectError(empty, 400, 'invalid_parameter').reasons?.join(' ')).toContain(`${origin}.id:`);
    }
  });

  it("holds its texts to their lengths, and names one origin with a card's share in whole cents", async ({ fileSandbox: { api } }) => {
    const source = { usage: 'single_use', currency: 'BRL', type: 'card' };
    const texts = await api.post('/v1/sources', { ...source, card: { id: SANDBOX_CARD_ID }, description: 'd'.repeat(501), statement_descriptor: 'S'.repeat(23) });
    expectReasons(texts, ['description: must be at most 500 characters', 'statement_descriptor: must be at most 22 characters']);
    const notText = await api.post('/v1/sources', { ...source, card: { id: SANDBOX_CARD_ID }, description: 7 });
    expectReasons(notText, ['description: must be a string']);
    const two = await api.post('/v1/sources', { ...source, customer: SANDBOX_BUYER_ID, token: 'a'.repeat(32) });
    expectReasons(two, ['customer: give one of card, token or customer, not token and customer']);
    const share = await api.post('/v1/sources', { ...source, card: { id: SANDBOX_CARD_ID, amount: 0 } });
    expectReasons(share, ['card.amount: must be a positive integer amount in cents']);
    const fits = await api.post('/v1/sources', { ...source, card: { id: SANDBOX_CARD_ID, amount: '150' }, description: null, statement_descriptor: 'S'.repeat(22) });
    expect(fits.status, JSON.stringify(fits.body)).toBe(201);
    expect(fits.body).toMatchObject({ description: null, statement_descriptor: 'S'.repeat(22), card: { id: SANDBOX_CARD_ID } });
  });
});

describe('GET and DELETE /sources/{id}', () => {
  it('gets a source, removes it (200), and then answers 404', async ({ fileSandbox: { api, dir } }) => {
    const created = await api.post('/v1/sources', { usage: 'reusable', currency: 'BRL', type: 'card', card: { id: SANDBOX_CARD_ID } });
    const { id } = expectAnswer(created, 201, sourceStrict);
    const got = await api.get(`${PREFIX}/sources/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);
    const removed = await api.del(`/v1/sources/${id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ id, resource: 'source', deleted: true });
    expect((await readStateFile(dir)).sources[id]?.status).toBe('deleted');
    expectError(await api.get(`/v1/sources/${id}`), 404, 'resource_not_found');
    expectError(await api.del(`${PREFIX}/sources/${id}`), 404, 'resource_not_found');
    expectError(await api.get(`/v1/sources/${'4'.repeat(32)}`), 404, 'resource_not_found');
  });
});

describe('the state file', () => {
  it('holds no card number or CVV after tokens, associations and sources', async ({ fileSandbox: { api, dir } }) => {
    const pans = [VISA, MASTERCARD, AMEX, '4012888888881881'];
    const buyer = await createBuyer(api);
    for (const pan of pans) {
      const token = await tokenize(api, pan);
      await api.post('/v1/cards', { token: token.id, customer: buyer.id });
      expect((await api.post('/v1/sources', { usage: 'single_use', currency: 'BRL', type: 'card', card: cardData(pan) })).status).toBe(201);
      const second = await tokenize(api, pan);
      expect((await api.post('/v1/sources', { usage: 'single_use', currency: 'BRL', type: 'card', token: { id: second.id } })).status).toBe(201);
    }
    // The database, its write-ahead log and its shared-memory index, byte for byte and value by value.
    await expectNoCardData(dir, pans, CVV);
  });
});
