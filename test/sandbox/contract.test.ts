// The sandbox answers every operation of the endpoint table in the shape the CLI checks it against
// (src/provider/schemas). The sandbox tests' HTTP client checks each successful answer as it comes
// (helpers.ts → test/helpers/contract.ts); the other test files between them reach every
// operation, and this one reaches those they do not, and shows the check can fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { findMismatch, resourceSchemas } from '../../src/provider/schemas/index.js';
import { transactionStrict } from '../../src/provider/schemas/transaction.js';
import { operationOf } from '../../src/provider/operation-of.js';
import { checkedOperations } from '../helpers/contract.js';
import { expectAnswer, freshSandbox, type Fresh } from './helpers.js';

let fresh: Fresh;
beforeAll(async () => {
  fresh = await freshSandbox();
});
afterAll(() => fresh.close());

describe('the sandbox keeps to the contract', () => {
  it('generated volume, and a seller balance, fit their schemas', async () => {
    expect((await fresh.api.post('/v1/sandbox/generate', { sales: 20, days: 3 })).status).toBe(200);
    expect((await fresh.api.get(`/v1/sellers/${SANDBOX_SELLER_ID}/balances/current`)).status).toBe(200);
    expect([...checkedOperations].sort()).toEqual(['balances.currentBySeller', 'sandbox.generate']);
  });

  it('requests are matched to their operations, literal paths before parameters', () => {
    expect(operationOf('GET', '/v1/marketplaces/m1/buyers/search?taxpayer_id=1')).toBe('buyers.search');
    expect(operationOf('GET', '/v1/buyers/b1')).toBe('buyers.get');
    expect(operationOf('GET', '/v1/recurrence_plans')).toBe('plans.list');
    expect(operationOf('DELETE', '/v1/invoices/i1/void')).toBe('invoices.refund');
  });

  it('a transaction the sandbox served, with one relied-on field spoiled, fails the check', async () => {
    const created = await fresh.api.post('/v1/transactions', {
      amount: 1000,
      currency: 'BRL',
      payment_type: 'pix',
      on_behalf_of: SANDBOX_SELLER_ID,
    });
    const served = expectAnswer(created, 201, transactionStrict);
    const schema = resourceSchemas.transaction;
    expect(findMismatch(schema, created.body)).toBeUndefined();
    expect(findMismatch(schema, { ...served, amount: '74428005.35137403' })).toBe('amount: expected a decimal string like "10.00"');
    expect(findMismatch(schema, { ...served, amount: 10 })).toBe('amount: expected a decimal string like "10.00", got a number');
    expect(findMismatch(schema, { ...served, status: { code: 1 } })).toBe('status: expected a string, got an object');
    expect(findMismatch(schema, { ...served, id: 'a/b' })).toBe('id: expected an id of 1 to 128 characters without spaces or slashes');
  });
});
