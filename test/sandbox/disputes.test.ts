// A card sale disputed by its cardholder: in dispute its money is still the seller's; charged
// back, all that remained of it is taken back as a full refund would be (receivables not paid out
// canceled, the balance debited, after a payout too); decided for the seller, it stands as it was.
// The provider opens disputes on its own, so the changes are applied to the store directly; what
// follows is read back through the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { balanceEntryStrict, balanceSchema, receivableStrict } from '../../src/provider/schemas/finance.js';
import { transactionStrict } from '../../src/provider/schemas/transaction.js';
import { chargeBack, closeDisputeForSeller, openDispute } from '../../src/sandbox/disputes.js';
import { SandboxError } from '../../src/sandbox/errors.js';
import { mutateState } from '../../src/sandbox/store.js';
import { findTransaction, type TransactionChange } from '../../src/sandbox/transactions.js';
import { directCardBody, expectAnswer, freshSandbox, pageOf, type Fresh } from './helpers.js';

const start = new Date('2026-11-02T10:00:00.000Z');
let clock = start;
const now = () => clock;
let fresh: Fresh;

beforeAll(async () => {
  fresh = await freshSandbox(now);
});
afterAll(() => fresh.close());

const cents = (decimal: string) => Math.round(Number(decimal) * 100);
const apply = (id: string, change: TransactionChange) => mutateState(fresh.dir, now, (state) => change(findTransaction(state, id), state, now()));
const sale = async (amount: number, installments = 1) => {
  const created = await fresh.api.post('/v1/transactions', directCardBody(undefined, amount, installments > 1 ? { installment_plan: { number_installments: installments } } : {}));
  return expectAnswer(created, 201, transactionStrict);
};
const get = async (id: string) => expectAnswer(await fresh.api.get(`/v1/transactions/${id}`), 200, transactionStrict);
const receivables = async (id: string) => expectAnswer(await fresh.api.get(`/v1/transactions/${id}/receivables`), 200, pageOf(receivableStrict)).items;
const balance = async () => cents(expectAnswer(await fresh.api.get(`/v1/sellers/${SANDBOX_SELLER_ID}/balances`), 200, balanceSchema).current_balance);
const entries = async (id: string) => expectAnswer(await fresh.api.get(`/v1/balances/history?transaction=${id}&sort=time-ascending`), 200, pageOf(balanceEntryStrict)).items;

describe('a dispute', () => {
  it('keeps the money with the seller, then a chargeback takes back all that remained', async () => {
    const before = await balance();
    const tx = await sale(10_000, 2);
    const credited = cents(tx.amount) - cents(tx.fees);
    await apply(tx.id, openDispute);
    const disputed = await get(tx.id);
    expect(disputed).toMatchObject({ status: 'dispute', amount: '100.00', fees: tx.fees });
    expect(disputed.history.at(-1)).toMatchObject({ operation_type: 'dispute', status: 'pending', amount: '100.00' });
    expect((await receivables(tx.id)).map((r) => r.status)).toEqual(['pending', 'pending']);
    expect(await balance()).toBe(before + credited);
    expect(expectAnswer(await fresh.api.get('/v1/transactions?status=dispute'), 200, pageOf(transactionStrict)).items.map((t) => t.id)).toEqual([tx.id]);

    await apply(tx.id, chargeBack);
    const charged = await get(tx.id);
    expect(charged).toMatchObject({ status: 'charged_back', amount: '0.00', original_amount: '100.00', fees: '0.00', fee_details: {} });
    expect(charged.history.at(-1)).toMatchObject({ operation_type: 'chargeback', status: 'succeeded', amount: '100.00' });
    expect((await receivables(tx.id)).map((r) => r.status)).toEqual(['canceled', 'canceled']);
    expect((await entries(tx.id)).map((e) => [e.operation, cents(e.amount)])).toEqual([['sale', credited], ['chargeback', -credited]]);
    expect(await balance()).toBe(before);
    // Nothing is left to refund.
    const voided = await fresh.api.post(`/v1/transactions/${tx.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 100 });
    expect(voided.status).toBe(402);
  });

  it('charged back after its payout: the paid receivable stays paid, the balance is debited', async () => {
    const tx = await sale(5_000);
    clock = new Date(start.getTime() + 31 * 86_400_000);
    // Any request catches the payouts up; this one sees the receivable paid.
    expect((await receivables(tx.id)).map((r) => r.status)).toEqual(['paid']);
    const before = await balance();
    await apply(tx.id, openDispute);
    await apply(tx.id, chargeBack);
    expect((await receivables(tx.id)).map((r) => r.status)).toEqual(['paid']);
    expect(await balance()).toBe(before - (cents(tx.amount) - cents(tx.fees)));
    expect((await entries(tx.id)).map((e) => e.operation)).toEqual(['sale', 'transfer', 'chargeback']);
  });

  it('decided for the seller: the sale stands as it was', async () => {
    const tx = await sale(3_000);
    await apply(tx.id, openDispute);
    await apply(tx.id, closeDisputeForSeller);
    const kept = await get(tx.id);
    expect(kept).toMatchObject({ status: 'succeeded', amount: '30.00', fees: tx.fees });
    expect(kept.history.slice(-2).map((h) => `${h.operation_type} ${h.status}`)).toEqual(['dispute pending', 'dispute failed']);
    expect((await receivables(tx.id)).map((r) => r.status)).toEqual(['pending']);
  });

  it('is refused for a sale that is not a card sale holding money, and settled only when open', async () => {
    const pix = expectAnswer(await fresh.api.post('/v1/transactions', { payment_type: 'pix', on_behalf_of: SANDBOX_SELLER_ID, amount: 1_000, currency: 'BRL' }), 201, transactionStrict);
    await expect(apply(pix.id, openDispute)).rejects.toThrow(SandboxError);
    const tx = await sale(2_000);
    await expect(apply(tx.id, chargeBack)).rejects.toThrow('has no open dispute: its status is succeeded');
    expect(await fresh.api.post(`/v1/transactions/${tx.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 2_000 })).toMatchObject({ status: 200 });
    await expect(apply(tx.id, openDispute)).rejects.toThrow('its status is canceled');
    expect((await get(tx.id)).status).toBe('canceled');
  });
});
