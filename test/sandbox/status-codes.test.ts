// The HTTP statuses the provider publishes for the sandbox's refusals and successes: 200 for a new
// split rule, 409 when a request clashes with what is stored, 400 for an action the resource's
// state does not allow, and 400 (not an empty list) for a list filter value it does not know.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { listPageSchema, resourceSchemas } from '../../src/provider/schemas/index.js';
import { splitRuleStrict, transactionStrict } from '../../src/provider/schemas/transaction.js';
import type { Transaction } from '../../src/sandbox/types.js';
import { directCardBody, expectAnswer, expectError, freshSandbox, VISA, type Client, type Fresh } from './helpers.js';

let clock = new Date('2026-11-20T10:00:00.000Z');
let fresh: Fresh;
let api: Client;
let recipient: string;

beforeAll(async () => {
  fresh = await freshSandbox(() => clock);
  api = fresh.api;
  const seller = await api.post('/v1/sellers/businesses', { business_name: 'Loja Azul Ltda', ein: '12.abc.345/01de-35', business_email: 'contato@lojaazul.com.br' });
  recipient = expectAnswer(seller, 201, resourceSchemas.seller).id;
});
afterAll(async () => {
  await fresh.close();
});

async function sale(cents = 10_000): Promise<Transaction> {
  return expectAnswer(await api.post('/v1/transactions', directCardBody(VISA, cents)), 201, transactionStrict);
}

const rulesPath = (txn: Transaction) => `/v1/transactions/${txn.id}/split_rules`;
/** The provider's file requires amount and charge_processing_fee in every rule; a percentage's amount is not read. */
const byPercentage = (percentage: number) => ({ percentage, amount: 0, charge_processing_fee: false });
const byAmount = (amount: number) => ({ amount, charge_processing_fee: false });

describe('split rules', () => {
  it('answers a new rule with 200, and a rule clashing with the ones the sale has with 409', async () => {
    const txn = await sale();
    const added = await api.post(rulesPath(txn), { recipient, ...byPercentage(30) });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body).toMatchObject({ resource: 'split_rule', recipient, transaction: txn.id });

    const again = await api.post(rulesPath(txn), { recipient, ...byAmount(100) });
    const error = expectError(again, 409, 'split_rule_precondition_creation_failure');
    expect(error.status).toBe('Conflict');
    expect(error.reasons).toEqual([`split_rules: names recipient ${recipient} more than once`]);
    expect(expectAnswer(await api.get(rulesPath(txn)), 200, listPageSchema).items).toHaveLength(1);
  });

  it('a rule wrong on its own stays a 400', async () => {
    const txn = await sale();
    expectError(await api.post(rulesPath(txn), { recipient: SANDBOX_SELLER_ID, ...byPercentage(10) }), 400, 'invalid_parameter');
    expectError(await api.post(rulesPath(txn), { recipient, ...byAmount(20_000) }), 400, 'invalid_parameter');
    expectError(await api.post(rulesPath(txn), { recipient }), 400, 'invalid_parameter');
  });

  it('a sale whose rules can no longer change answers 409, to an add and to a remove', async () => {
    const txn = await sale();
    const rule = expectAnswer(await api.post(rulesPath(txn), { recipient, ...byPercentage(10) }), 200, splitRuleStrict);
    const voided = await api.post(`/v1/transactions/${txn.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 10_000 });
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    expectError(await api.post(rulesPath(txn), { recipient, ...byPercentage(10) }), 409, 'split_rule_precondition_creation_failure');
    expectError(await api.del(`${rulesPath(txn)}/${rule.id}`), 409, 'split_rule_precondition_removal_failure');
  });
});

describe('list filters', () => {
  it.each([
    ['/v1/transactions?status=weird', 'status'],
    ['/v1/transactions?status=succeeded,weird', 'status'],
    ['/v1/transactions?payment_type=bolepix', 'payment_type'],
    [`/v1/sellers/${SANDBOX_SELLER_ID}/transactions?status=weird`, 'status'],
    ['/v1/invoices?status=weird', 'status'],
    ['/v1/recurrence_subscriptions?status=weird', 'status'],
    ['/v1/recurrence_plans?status=weird', 'status'],
    ['/v1/transfers?status=weird', 'status'],
    [`/v1/sellers/${SANDBOX_SELLER_ID}/receivables?status=weird`, 'status'],
    ['/v1/balances/history?operation=weird', 'operation'],
    ['/v1/sellers?type=weird', 'type'],
  ])('GET %s answers 400 naming %s', async (query, field) => {
    const error = expectError(await api.get(query), 400, 'invalid_parameter');
    expect(error.message).toContain(field);
    expect(error.reasons?.[0]).toMatch(new RegExp(`^${field}: unknown value "(weird|bolepix)"; must be one of `));
  });

  it('a value the provider knows that nothing has answers an empty list', async () => {
    for (const query of ['/v1/transactions?status=charged_back', '/v1/invoices?status=over-due', '/v1/recurrence_subscriptions?status=expired']) {
      const reply = await api.get(query);
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      expect(reply.body).toMatchObject({ items: [], total: 0 });
    }
  });
});
