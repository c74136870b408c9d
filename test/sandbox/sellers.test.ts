// The sellers API of the sandbox: people and companies, checked as the provider would, and each
// seller's own lists.
import { describe, expect } from 'vitest';
import { SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { it } from '../helpers/fixtures.js';
import { resourceSchemas } from '../../src/provider/schemas/index.js';
import { transactionStrict } from '../../src/provider/schemas/transaction.js';
import { client, directCardBody, expectAnswer, expectError, pageOf } from './helpers.js';

const person = { first_name: 'João', last_name: 'Souza', taxpayer_id: '529.982.247-25', email: 'joao@example.com' };
const company = { business_name: 'Loja Azul Ltda', ein: '12.abc.345/01de-35', business_email: 'contato@lojaazul.com.br' };

describe('the sellers API', () => {
  it('checks each kind of seller for its own fields and documents', async ({ sandbox: { api } }) => {
    const bad = await api.post('/v1/sellers/individuals', { first_name: 'A', taxpayer_id: '11.444.777/0001-61', ein: '1' });
    const reasons = (expectError(bad, 400, 'invalid_parameter').reasons ?? []).join('\n');
    for (const fragment of ['ein: is not a field of an individual seller', 'taxpayer_id: must be a CPF with matching check digits', 'last_name: is required', 'email: is required']) expect(reasons).toContain(fragment);
    const badCompany = await api.post('/v1/sellers/businesses', { ...company, ein: '12.ABC.345/01DE-36' });
    expect((expectError(badCompany, 400, 'invalid_parameter').reasons ?? []).join('\n')).toContain('ein: must be a CNPJ');

    const created = await api.post('/v1/sellers/businesses', company);
    const { id } = expectAnswer(created, 201, resourceSchemas.seller);
    expect(created.body).toMatchObject({ type: 'business', ein: '12ABC34501DE35', resource: 'seller' });
    expect((await api.put(`/v1/sellers/individuals/${id}`, { email: 'x@example.com' })).status).toBe(400);
    expect((await api.put(`/v1/sellers/businesses/${id}`, { business_email: 'novo@example.com' })).body).toMatchObject({ business_email: 'novo@example.com' });
    const list = expectAnswer(await api.get('/v1/sellers?type=business'), 200, pageOf(resourceSchemas.seller));
    expect(list.items.map((s) => s.id).sort()).toEqual([id, SANDBOX_SELLER_ID].sort());
    expect((await api.post('/v1/sellers/individuals', person)).status).toBe(201);
    expect((await api.post('/v1/sellers/individuals', person)).status).toBe(409);
    expect((await api.get(`/v1/sellers/${'f'.repeat(32)}/transactions`)).status).toBe(404);
  });

  it("a sale's statement, receipt and PIX code name its own seller", async ({ sandbox: { api } }) => {
    const seller = expectAnswer(await api.post('/v1/sellers/businesses', { ...company, business_name: 'Panificadora São João Ltda' }), 201, resourceSchemas.seller).id;
    const sale = expectAnswer(await api.post('/v1/transactions', directCardBody(undefined, 1000, { on_behalf_of: seller })), 201, transactionStrict);
    expect(sale.statement_descriptor).toBe('PANIFICADORA SAO JOAO');
    const receipt = (await api.get(`/v1/receipts/${sale.sales_receipt}`)).body;
    expect(receipt).toMatchObject({ business_name: 'Panificadora São João Ltda', taxpayer_id: '12ABC34501DE35', seller });
    const pix = expectAnswer(await api.post('/v1/transactions', { amount: 500, currency: 'BRL', payment_type: 'pix', on_behalf_of: seller }), 201, transactionStrict);
    expect(pix.payment_method).toMatchObject({ qr_code: { emv: expect.stringContaining('PANIFICADORA SAO JOAO') } });
    // The seeded seller's sales are as before.
    const own = expectAnswer(await api.post('/v1/transactions', directCardBody(undefined, 1000)), 201, transactionStrict);
    expect(own.statement_descriptor).toBe('LOJA SANDBOX');
  });
});
