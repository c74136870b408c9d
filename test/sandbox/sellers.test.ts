// The sellers API of the sandbox: people and companies, checked as the provider would, and each
// seller's own lists.
import { describe, expect } from 'vitest';
import { SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { it } from '../helpers/fixtures.js';
import { client, directCardBody, type Json } from './helpers.js';

const person = { first_name: 'João', last_name: 'Souza', taxpayer_id: '529.982.247-25', email: 'joao@example.com' };
const company = { business_name: 'Loja Azul Ltda', ein: '12.abc.345/01de-35', business_email: 'contato@lojaazul.com.br' };

describe('the sellers API', () => {
  it('checks each kind of seller for its own fields and documents', async ({ sandbox: { api } }) => {
    const bad = await api.post('/v1/sellers/individuals', { first_name: 'A', taxpayer_id: '11.444.777/0001-61', ein: '1' });
    expect(bad.status).toBe(400);
    const reasons = (bad.body as Json).error.reasons.join('\n');
    for (const fragment of ['ein: is not a field of an individual seller', 'taxpayer_id: must be a CPF with matching check digits', 'last_name: is required', 'email: is required']) expect(reasons).toContain(fragment);
    const badCompany = await api.post('/v1/sellers/businesses', { ...company, ein: '12.ABC.345/01DE-36' });
    expect(badCompany.status).toBe(400);
    expect((badCompany.body as Json).error.reasons.join('\n')).toContain('ein: must be a CNPJ');

    const created = await api.post('/v1/sellers/businesses', company);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: 'business', ein: '12ABC34501DE35', resource: 'seller' });
    const id = (created.body as Json).id;
    expect((await api.put(`/v1/sellers/individuals/${id}`, { email: 'x@example.com' })).status).toBe(400);
    expect((await api.put(`/v1/sellers/businesses/${id}`, { business_email: 'novo@example.com' })).body).toMatchObject({ business_email: 'novo@example.com' });
    const list = (await api.get('/v1/sellers?type=business')).body as Json;
    expect(list.items.map((s: Json) => s.id).sort()).toEqual([id, SANDBOX_SELLER_ID].sort());
    expect((await api.post('/v1/sellers/individuals', person)).status).toBe(201);
    expect((await api.post('/v1/sellers/individuals', person)).status).toBe(409);
    expect((await api.get(`/v1/sellers/${'f'.repeat(32)}/transactions`)).status).toBe(404);
  });

  it("a sale's statement, receipt and PIX code name its own seller", async ({ sandbox: { api } }) => {
    const seller = ((await api.post('/v1/sellers/businesses', { ...company, business_name: 'Panificadora São João Ltda' })).body as Json).id;
    const sale = (await api.post('/v1/transactions', directCardBody(undefined, 1000, { on_behalf_of: seller }))).body as Json;
    expect(sale.statement_descriptor).toBe('PANIFICADORA SAO JOAO');
    const receipt = (await api.get(`/v1/receipts/${sale.sales_receipt}`)).body as Json;
    expect(receipt).toMatchObject({ business_name: 'Panificadora São João Ltda', taxpayer_id: '12ABC34501DE35', seller });
    const pix = (await api.post('/v1/transactions', { amount: 500, currency: 'BRL', payment_type: 'pix', on_behalf_of: seller })).body as Json;
    expect(pix.payment_method.qr_code.emv).toContain('PANIFICADORA SAO JOAO');
    // The seeded seller's sales are as before.
    const own = (await api.post('/v1/transactions', directCardBody(undefined, 1000))).body as Json;
    expect(own.statement_descriptor).toBe('LOJA SANDBOX');
  });
});
