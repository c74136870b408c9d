import { describe, expect } from 'vitest';
import * as z from 'zod/mini';
import { itOnClock } from '../helpers/fixtures.js';
import { SANDBOX_BUYER_ID, SANDBOX_CARD_ID, SANDBOX_MARKETPLACE_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { buyerStrict } from '../../src/provider/schemas/parties.js';
import { transactionStrict } from '../../src/provider/schemas/transaction.js';
import { tokenWithCard } from './answers.js';
import { cardData, expectAnswer, expectError, HEX32, ISO_MS, nextCpf, pageOf, type Client } from './helpers.js';

// The clock is driven by the tests so created_at / updated_at can be told apart.
let clock = new Date('2026-11-22T10:00:00.000Z');
const PREFIX = `/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}`;

const it = itOnClock(() => clock);

function tick(): string {
  clock = new Date(clock.getTime() + 60_000);
  return clock.toISOString();
}

async function createBuyer(api: Client, overrides: Record<string, unknown> = {}) {
  const reply = await api.post('/v1/buyers', { first_name: 'Carla', last_name: 'Mendes', taxpayer_id: nextCpf(), ...overrides });
  return expectAnswer(reply, 201, buyerStrict);
}

const buyersPage = pageOf(buyerStrict);

const BUYER_FIELDS = [
  'id',
  'resource',
  'status',
  'first_name',
  'last_name',
  'email',
  'phone_number',
  'taxpayer_id',
  'birthdate',
  'description',
  'address',
  'delinquent',
  'default_credit',
  'default_debit',
  'default_receipt_delivery_method',
  'uri',
  'metadata',
  'created_at',
  'updated_at',
];

function expectBuyerShape(answer: unknown): void {
  const buyer = z.parse(buyerStrict, answer);
  expect(Object.keys(buyer).sort()).toEqual([...BUYER_FIELDS].sort());
  expect(buyer).toMatchObject({ resource: 'buyer', status: 'active', delinquent: false, default_debit: null, default_receipt_delivery_method: null });
  expect(buyer.id).toMatch(HEX32);
  expect(buyer.taxpayer_id).toMatch(/^(\d{11}|\d{14})$/);
  expect(buyer.created_at).toMatch(ISO_MS);
  expect(buyer.updated_at).toMatch(ISO_MS);
  expect(buyer.uri).toBe(`/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}/buyers/${buyer.id}`);
  expect(Object.keys(buyer.address).sort()).toEqual(['city', 'country_code', 'line1', 'line2', 'line3', 'neighborhood', 'postal_code', 'state']);
  if (buyer.birthdate !== null) expect(buyer.birthdate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
}

describe('POST /buyers', () => {
  it('creates a buyer (201) with every provider field, the document stripped to digits', async ({ fileSandbox: { api } }) => {
    const at = tick();
    const reply = await api.post('/v1/buyers', {
      first_name: 'Ana',
      last_name: 'Pereira',
      email: 'ana@example.com',
      phone_number: '+5521999990000',
      taxpayer_id: '111.444.777-35',
      birthdate: '1985-02-10',
      description: 'Cliente desde 2020',
      address: { line1: 'Rua das Flores, 10', neighborhood: 'Centro', city: 'Rio de Janeiro', state: 'rj', postal_code: '20010-000' },
      metadata: { crm: '42' },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expectBuyerShape(reply.body);
    expect(reply.body).toMatchObject({
      first_name: 'Ana',
      last_name: 'Pereira',
      email: 'ana@example.com',
      phone_number: '+5521999990000',
      taxpayer_id: '11144477735',
      birthdate: '1985-02-10',
      description: 'Cliente desde 2020',
      default_credit: null,
      metadata: { crm: '42' },
      created_at: at,
      updated_at: at,
    });
    expect(expectAnswer(reply, 201, buyerStrict).address).toEqual({
      line1: 'Rua das Flores, 10',
      line2: null,
      line3: null,
      neighborhood: 'Centro',
      city: 'Rio de Janeiro',
      state: 'RJ',
      postal_code: '20010000',
      country_code: null,
    });
  });

  it('accepts a CNPJ, and needs nothing but first_name and taxpayer_id', async ({ fileSandbox: { api } }) => {
    const reply = await api.post('/v1/buyers', { first_name: 'Empresa X', taxpayer_id: '11.222.333/0001-81' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expectBuyerShape(reply.body);
    expect(reply.body).toMatchObject({ taxpayer_id: '11222333000181', last_name: null, email: null, birthdate: null, metadata: {} });
    expect(Object.values(expectAnswer(reply, 201, buyerStrict).address).every((v) => v === null)).toBe(true);
  });

  it('answers 400 with a reason for a document whose check digits are wrong', async ({ fileSandbox: { api } }) => {
    for (const taxpayerId of ['111.444.777-36', '11222333000182', '11111111111', '1234', 'abc']) {
      const reply = await api.post('/v1/buyers', { first_name: 'X', taxpayer_id: taxpayerId });
      expect(expectError(reply, 400, 'invalid_parameter').reasons?.join(' '), taxpayerId).toMatch(/taxpayer_id: .*(CPF|CNPJ)/);
    }
  });

  it('names every missing or malformed field in one 400', async ({ fileSandbox: { api } }) => {
    const reply = await api.post('/v1/buyers', { email: 'not-an-email', birthdate: '1990-02-30', address: { state: 'São Paulo', postal_code: '123' }, nickname: 'x' });
    const reasons = expectError(reply, 400, 'invalid_parameter').reasons?.join('\n');
    for (const field of ['first_name', 'taxpayer_id', 'email', 'birthdate', 'address.state', 'address.postal_code', 'nickname']) {
      expect(reasons).toContain(`${field}:`);
    }
  });

  it('keeps one buyer per document: a second one answers 409 duplicate_taxpayer_id, punctuation or not', async ({ fileSandbox: { api } }) => {
    const first = await createBuyer(api, { taxpayer_id: '390.533.447-05' });
    const again = await api.post('/v1/buyers', { first_name: 'Outra', taxpayer_id: '39053344705' });
    expect(expectError(again, 409, 'duplicate_taxpayer_id').message).toContain(first.id);
    // The seeded buyer's CPF is taken too.
    expectError(await api.post('/v1/buyers', { first_name: 'Maria', taxpayer_id: '529.982.247-25' }), 409, 'duplicate_taxpayer_id');
  });

  it('answers under the marketplace prefix as well', async ({ fileSandbox: { api } }) => {
    const reply = await api.post(`${PREFIX}/buyers`, { first_name: 'Prefixo', taxpayer_id: nextCpf() });
    const { id } = expectAnswer(reply, 201, buyerStrict);
    expect(expectAnswer(await api.get(`/v1/buyers/${id}`), 200, buyerStrict).first_name).toBe('Prefixo');
  });
});

describe('the seeded buyer', () => {
  it('has the buyer shape, with its card on file as default_credit', async ({ fileSandbox: { api } }) => {
    for (const path of [`/v1/buyers/${SANDBOX_BUYER_ID}`, `${PREFIX}/buyers/${SANDBOX_BUYER_ID}`]) {
      const reply = await api.get(path);
      expect(reply.status).toBe(200);
      expectBuyerShape(reply.body);
      expect(reply.body).toMatchObject({ id: SANDBOX_BUYER_ID, taxpayer_id: '52998224725', default_credit: SANDBOX_CARD_ID, email: 'maria.silva@example.com' });
      expect(expectAnswer(reply, 200, buyerStrict).address).toMatchObject({ city: 'São Paulo', state: 'SP', postal_code: '01310100', country_code: 'BR' });
    }
  });
});

describe('GET /buyers and /buyers/{id}', () => {
  it('lists buyers in the list envelope, filters by taxpayer_id (punctuation accepted) and pages', async ({ fileSandbox: { api } }) => {
    const a = await createBuyer(api);
    const b = await createBuyer(api);
    const all = await api.get('/v1/buyers?limit=100');
    const listed = expectAnswer(all, 200, buyersPage);
    expect(all.body).toMatchObject({ resource: 'list', uri: '/v1/buyers', limit: 100, offset: 0, has_more: false });
    expect(listed.total).toBe(listed.items.length);
    const ids = listed.items.map((x) => x.id);
    expect(ids).toContain(SANDBOX_BUYER_ID);
    // Newest first by default.
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    listed.items.forEach(expectBuyerShape);

    const ascending = await api.get('/v1/buyers?sort=time-ascending&limit=100');
    expect(expectAnswer(ascending, 200, buyersPage).items.map((x) => x.id)).toEqual([...ids].reverse());

    const doc = a.taxpayer_id;
    const punctuated = `${doc.slice(0, 3)}.${doc.slice(3, 6)}.${doc.slice(6, 9)}-${doc.slice(9)}`;
    const filtered = await api.get(`${PREFIX}/buyers?taxpayer_id=${encodeURIComponent(punctuated)}`);
    const found = expectAnswer(filtered, 200, buyersPage);
    expect(found.items.map((x) => x.id)).toEqual([a.id]);
    expect(found.total).toBe(1);

    const page = await api.get('/v1/buyers?limit=1&offset=1');
    expect(page.body).toMatchObject({ limit: 1, offset: 1, has_more: true, page: 2 });
    expect(expectAnswer(page, 200, buyersPage).items).toHaveLength(1);
    expectError(await api.get('/v1/buyers?limit=0'), 400, 'invalid_parameter');
  });

  it('gets one buyer by id and 404s in the provider wording for an unknown one', async ({ fileSandbox: { api } }) => {
    const buyer = await createBuyer(api);
    expect((await api.get(`${PREFIX}/buyers/${buyer.id}`)).body).toEqual(buyer);
    const missing = await api.get(`/v1/buyers/${'a'.repeat(32)}`);
    expect(expectError(missing, 404, 'resource_not_found').message).toBe(`Sorry, the buyer (id: ${'a'.repeat(32)}) you are trying to use does not exist or has been deleted.`);
  });
});

describe('GET /buyers/search', () => {
  it('finds the buyer by CPF or CNPJ, with or without punctuation', async ({ fileSandbox: { api } }) => {
    const seeded = await api.get('/v1/buyers/search?taxpayer_id=529.982.247-25');
    expect(expectAnswer(seeded, 200, buyerStrict).id).toBe(SANDBOX_BUYER_ID);
    expectBuyerShape(seeded.body);
    const company = await createBuyer(api, { taxpayer_id: '04.252.011/0001-10' });
    const found = await api.get(`${PREFIX}/buyers/search?taxpayer_id=04252011000110`);
    expect(expectAnswer(found, 200, buyerStrict).id).toBe(company.id);
  });

  it('finds the first-registered buyer when an inline boleto payer shares its document', async ({ fileSandbox: { api } }) => {
    // A complete boleto registers its payer as it comes (as before), even with a known document.
    tick();
    const boleto = await api.post('/v1/transactions', {
      payment_type: 'boleto',
      on_behalf_of: SANDBOX_SELLER_ID,
      amount: 1000,
      currency: 'BRL',
      payment_method: { buyer: { first_name: 'Maria', last_name: 'S.', taxpayer_id: '52998224725' } },
    });
    const { customer } = expectAnswer(boleto, 201, transactionStrict);
    expect(customer).not.toBe(SANDBOX_BUYER_ID);
    expect(expectAnswer(await api.get('/v1/buyers/search?taxpayer_id=52998224725'), 200, buyerStrict).id).toBe(SANDBOX_BUYER_ID);
    // The payer's record can still be updated, re-sending its own document.
    const update = await api.put(`/v1/buyers/${customer}`, { taxpayer_id: '529.982.247-25', email: 'maria.s@example.com' });
    expect(update.status, JSON.stringify(update.body)).toBe(200);
  });

  it('answers 404 when no buyer has the document, 400 when the query is missing or not a document', async ({ fileSandbox: { api } }) => {
    expectError(await api.get(`/v1/buyers/search?taxpayer_id=${nextCpf()}`), 404, 'resource_not_found');
    const missing = await api.get('/v1/buyers/search');
    expect(expectError(missing, 400, 'invalid_parameter').reasons?.join(' ')).toMatch(/taxpayer_id/);
    expectError(await api.get('/v1/buyers/search?taxpayer_id='), 400, 'invalid_parameter');
    expectError(await api.get('/v1/buyers/search?taxpayer_id=52998224726'), 400, 'invalid_parameter');
  });
});

describe('PUT /buyers/{id}', () => {
  it('updates only what is sent, merging address and metadata', async ({ fileSandbox: { api } }) => {
    const buyer = await createBuyer(api, {
      email: 'carla@example.com',
      address: { line1: 'Rua A, 1', city: 'Recife', state: 'PE', postal_code: '50000000' },
      metadata: { crm: '1', tier: 'gold' },
    });
    const at = tick();
    const reply = await api.put(`/v1/buyers/${buyer.id}`, { last_name: 'Souza', address: { line2: 'Casa 2', city: 'Olinda' }, metadata: { tier: null, vip: 'yes' } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expectBuyerShape(reply.body);
    expect(reply.body).toMatchObject({ first_name: 'Carla', last_name: 'Souza', email: 'carla@example.com', taxpayer_id: buyer.taxpayer_id, created_at: buyer.created_at, updated_at: at });
    const updated = expectAnswer(reply, 200, buyerStrict);
    expect(updated.address).toMatchObject({ line1: 'Rua A, 1', line2: 'Casa 2', city: 'Olinda', state: 'PE', postal_code: '50000000' });
    expect(updated.metadata).toEqual({ crm: '1', vip: 'yes' });
    expect((await api.get(`/v1/buyers/${buyer.id}`)).body).toEqual(reply.body);

    const cleared = await api.put(`${PREFIX}/buyers/${buyer.id}`, { email: null, address: null });
    const emptied = expectAnswer(cleared, 200, buyerStrict);
    expect(emptied.email).toBeNull();
    expect(Object.values(emptied.address).every((v) => v === null)).toBe(true);
  });

  it('re-validates a new document or e-mail, and refuses a document another buyer holds (409)', async ({ fileSandbox: { api } }) => {
    const buyer = await createBuyer(api);
    const other = await createBuyer(api);
    const newDoc = nextCpf();
    const moved = await api.put(`/v1/buyers/${buyer.id}`, { taxpayer_id: `${newDoc.slice(0, 9)}-${newDoc.slice(9)}` });
    expect(expectAnswer(moved, 200, buyerStrict).taxpayer_id).toBe(newDoc);
    // Keeping its own document is no conflict.
    expect((await api.put(`/v1/buyers/${buyer.id}`, { taxpayer_id: newDoc })).status).toBe(200);

    const badDoc = await api.put(`/v1/buyers/${buyer.id}`, { taxpayer_id: '12345678900' });
    expect(expectError(badDoc, 400, 'invalid_parameter').reasons?.join(' ')).toMatch(/taxpayer_id/);
    const badEmail = await api.put(`/v1/buyers/${buyer.id}`, { email: 'carla at example' });
    expect(expectError(badEmail, 400, 'invalid_parameter').reasons?.join(' ')).toMatch(/email/);
    expectError(await api.put(`/v1/buyers/${buyer.id}`, { taxpayer_id: other.taxpayer_id }), 409, 'duplicate_taxpayer_id');
    expectError(await api.put(`/v1/buyers/${buyer.id}`, { first_name: '' }), 400, 'invalid_parameter');
    expectError(await api.put(`/v1/buyers/${buyer.id}`, {}), 400, 'invalid_parameter');
    expectError(await api.put(`/v1/buyers/${buyer.id}`, { default_credit: SANDBOX_CARD_ID }), 400, 'invalid_parameter');
    expectError(await api.put(`/v1/buyers/${'b'.repeat(32)}`, { last_name: 'X' }), 404, 'resource_not_found');
    // A refused update leaves the buyer as it was.
    expect(expectAnswer(await api.get(`/v1/buyers/${buyer.id}`), 200, buyerStrict).taxpayer_id).toBe(newDoc);
  });
});

describe('DELETE /buyers/{id}', () => {
  it('removes a buyer with nothing attached (200), after which it is gone', async ({ fileSandbox: { api } }) => {
    const buyer = await createBuyer(api);
    const reply = await api.del(`${PREFIX}/buyers/${buyer.id}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ id: buyer.id, resource: 'buyer', deleted: true });
    expectError(await api.get(`/v1/buyers/${buyer.id}`), 404, 'resource_not_found');
    expectError(await api.del(`/v1/buyers/${buyer.id}`), 404, 'resource_not_found');
    // Its document is free again.
    expect((await api.post('/v1/buyers', { first_name: 'Nova', taxpayer_id: buyer.taxpayer_id })).status).toBe(201);
  });

  it('refuses (409 buyer_has_dependents) while the buyer owns a card, naming it', async ({ fileSandbox: { api } }) => {
    const reply = await api.del(`/v1/buyers/${SANDBOX_BUYER_ID}`);
    const { message } = expectError(reply, 409, 'buyer_has_dependents');
    expect(message).toContain(SANDBOX_CARD_ID);
    expect(message).toMatch(/card/);
    expect((await api.get(`/v1/buyers/${SANDBOX_BUYER_ID}`)).status).toBe(200);
  });

  it('refuses while the buyer has a pending boleto or bolepix, and allows it once paid', async ({ fileSandbox: { api } }) => {
    const buyer = await createBuyer(api);
    const boleto = await api.post('/v1/transactions', {
      payment_type: 'boleto',
      on_behalf_of: SANDBOX_SELLER_ID,
      amount: 1000,
      currency: 'BRL',
      customer: buyer.id,
    });
    const { id: boletoId } = expectAnswer(boleto, 201, transactionStrict);
    const refused = await api.del(`/v1/buyers/${buyer.id}`);
    const { message } = expectError(refused, 409, 'buyer_has_dependents');
    expect(message).toContain(boletoId);
    expect(message).toMatch(/pending boleto/);

    expect((await api.post(`/v1/transactions/${boletoId}/approve`)).status).toBe(200);
    expect((await api.del(`/v1/buyers/${buyer.id}`)).status).toBe(200);
  });
});

describe('transactions by customer id', () => {
  it("charge the buyer's default_credit; a buyer without one gets 400 until a card is associated", async ({ fileSandbox: { api } }) => {
    const buyer = await createBuyer(api);
    const charge = { payment_type: 'credit', on_behalf_of: SANDBOX_SELLER_ID, amount: 1200, currency: 'BRL', customer: buyer.id };
    const noCard = await api.post('/v1/transactions', charge);
    expect(expectError(noCard, 400, 'invalid_parameter').message).toContain(buyer.id);

    const token = expectAnswer(await api.post('/v1/cards/tokens', cardData('5555555555554444')), 200, tokenWithCard);
    const card = await api.post('/v1/cards', { token: token.id, customer: buyer.id });
    expect(card.status).toBe(200);
    expect(expectAnswer(await api.get(`/v1/buyers/${buyer.id}`), 200, buyerStrict).default_credit).toBe(token.card.id);

    const txn = await api.post('/v1/transactions', charge);
    expect(txn.status).toBe(201);
    expect(txn.body).toMatchObject({ status: 'succeeded', customer: buyer.id, payment_method: { id: token.card.id, last4_digits: '4444', customer: buyer.id } });
  });
});
