import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { SANDBOX_API_KEY, SANDBOX_MARKETPLACE_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { listPageSchema } from '../../src/provider/schemas/index.js';
import { transactionStrict } from '../../src/provider/schemas/transaction.js';
import { basicAuth, client, directCardBody, expectAnswer, expectError, VISA } from './helpers.js';

describe('authentication', () => {
  it('answers 401 in the provider error body without credentials', async ({ fileSandbox: { sandbox } }) => {
    const reply = await client(sandbox.url, null).get('/v1/transactions');
    expect(expectError(reply, 401, 'unauthorized')).toMatchObject({ status: 'Unauthorized', status_code: 401, type: 'invalid_request_error' });
    expect(reply.headers.get('www-authenticate')).toMatch(/^Basic/);
  });

  it('refuses keys that are not test keys, and other schemes', async ({ fileSandbox: { api, sandbox } }) => {
    expectError(await client(sandbox.url, 'zpk_live_abcdef').get('/v1/transactions'), 401, 'unauthorized');
    expectError(await client(sandbox.url, '').get('/v1/transactions'), 401, 'unauthorized');
    const bearer = await api.request('GET', '/v1/transactions', undefined, { headers: { Authorization: `Bearer ${SANDBOX_API_KEY}` } });
    expectError(bearer, 401, 'unauthorized');
  });

  it('accepts any zpk_test_ key with an empty password', async ({ fileSandbox: { api, sandbox } }) => {
    const reply = await client(sandbox.url, 'zpk_test_someone_else').get('/v1/transactions');
    expect(reply.status).toBe(200);
    const viaHeader = await api.request('GET', '/v1/transactions', undefined, { headers: { Authorization: basicAuth(SANDBOX_API_KEY) } });
    expect(viaHeader.status).toBe(200);
  });

  it('checks credentials before touching anything (no create without a key)', async ({ fileSandbox: { api, sandbox } }) => {
    const before = await api.get('/v1/transactions');
    const reply = await client(sandbox.url, null).post('/v1/transactions', directCardBody(VISA));
    expect(reply.status).toBe(401);
    const after = await api.get('/v1/transactions');
    expect(expectAnswer(after, 200, listPageSchema).total).toBe(expectAnswer(before, 200, listPageSchema).total);
  });
});

describe('request bodies', () => {
  it('answers 400 to malformed JSON', async ({ fileSandbox: { api } }) => {
    const reply = await api.request('POST', '/v1/transactions', undefined, { raw: '{"payment_type": "credit",' });
    expect(expectError(reply, 400, 'invalid_parameter').message).toMatch(/JSON/);
    expect(reply.headers.get('content-type')).toMatch(/application\/json/);
  });

  it('answers 400 to a JSON body that is not an object', async ({ fileSandbox: { api } }) => {
    expectError(await api.request('POST', '/v1/cards/tokens', undefined, { raw: '[1,2]' }), 400, 'invalid_parameter');
  });
});

describe('routing', () => {
  it('serves every route under /v1/marketplaces/{id}/ as well', async ({ fileSandbox: { api } }) => {
    const prefix = `/v1/marketplaces/${SANDBOX_MARKETPLACE_ID}`;
    const { id } = expectAnswer(await api.post(`${prefix}/transactions`, directCardBody(VISA, 1000)), 201, transactionStrict);
    expect(expectAnswer(await api.get(`/v1/transactions/${id}`), 200, transactionStrict).id).toBe(id);
    expect(expectAnswer(await api.get(`${prefix}/transactions/${id}`), 200, transactionStrict).id).toBe(id);
    expect((await api.put(`${prefix}/transactions/${id}`, { description: 'x' })).status).toBe(200);
    expect(expectAnswer(await api.post(`${prefix}/transactions/${id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 1000 }), 200, transactionStrict).status).toBe('canceled');
    expect((await api.get(`${prefix}/transactions/${id}/cancelled-letter`)).status).toBe(200);
  });

  it('answers 404 resource_not_found for an unknown marketplace', async ({ fileSandbox: { api } }) => {
    const other = 'e'.repeat(32);
    const reply = await api.get(`/v1/marketplaces/${other}/transactions`);
    const error = expectError(reply, 404, 'resource_not_found');
    expect(error).toMatchObject({ status: 'Not Found', type: 'invalid_request_error' });
    expect(error.message).toContain(other);
    expectError(await api.post(`/v1/marketplaces/${other}/cards/tokens`, {}), 404, 'resource_not_found');
  });

  it('answers 404 for an unknown path and 405 for a wrong method', async ({ fileSandbox: { api } }) => {
    expectError(await api.get('/v1/nothing-here'), 404, 'resource_not_found');
    expectError(await api.get('/v2/transactions'), 404, 'resource_not_found');
    const wrong = await api.request('DELETE', '/v1/transactions');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, POST');
    expect(wrong.body).toMatchObject({ error: { status_code: 405 } });
  });
});
