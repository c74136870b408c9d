import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { SANDBOX_BUYER_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { balanceEntryStrict, balanceSchema, futureEntrySchema, receivableStrict, transferStrict } from '../../src/provider/schemas/finance.js';
import { decimalAmount } from '../../src/provider/schemas/shared.js';
import { transactionStrict } from '../../src/provider/schemas/transaction.js';
import { directCardBody, expectAnswer, expectError, expectReasons, HEX32, ISO_MS, MASTERCARD, pageOf, VISA, type Client } from './helpers.js';
import { advance, pinnedSandbox, type Pinned } from './recurrence-helpers.js';

// Balances, their history, transfers and future entries, derived from what happened: sales and
// refunds move the seller's balance by their net amount; receivables wait as future entries until
// their expected date, then leave the balance as a transfer to the seller's bank account.

const opened: Pinned[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function sandboxAt(iso = '2027-03-10T09:00:00.000Z'): Promise<Pinned> {
  const fresh = await pinnedSandbox(iso);
  opened.push(fresh);
  return fresh;
}

const cents = (decimal: string): number => Math.round(Number(decimal) * 100);

/** Every item of a list, page after page, each read with `item`. */
async function all<S extends z.ZodMiniType>(api: Client, path: string, item: S): Promise<Array<z.infer<S>>> {
  const out: Array<z.infer<S>> = [];
  for (let offset = 0; ; offset += 100) {
    const sep = path.includes('?') ? '&' : '?';
    const page = expectAnswer(await api.get(`${path}${sep}limit=100&offset=${offset}`), 200, pageOf(item));
    out.push(...page.items);
    if (!page.has_more) return out;
  }
}

/** A future entry as the sandbox sends it: its gross amount and fee always there. */
const futureEntry = z.extend(futureEntrySchema, { gross_amount: decimalAmount, fee: decimalAmount });

/** The payouts a clock's advance made. */
const transfersMade = async (advanced: Promise<unknown>) => z.parse(z.looseObject({ transfers: z.array(z.unknown()) }), await advanced).transfers;

async function sell(api: Client, body: Record<string, unknown>) {
  return expectAnswer(await api.post('/v1/transactions', body), 201, transactionStrict);
}

async function sellerBalance(api: Client) {
  return expectAnswer(await api.get(`/v1/sellers/${SANDBOX_SELLER_ID}/balances`), 200, balanceSchema);
}

/** A scripted day at the till: card and PIX sales, a boleto paid, a partial and a full refund. */
async function scriptedDay(api: Client) {
  const card = await sell(api, directCardBody(VISA, 10_000));
  const card3x = await sell(api, directCardBody(MASTERCARD, 30_000, { installment_plan: { number_installments: 3 } }));
  const refunded = await sell(api, directCardBody(VISA, 5_000));
  const pix = await sell(api, { payment_type: 'pix', on_behalf_of: SANDBOX_SELLER_ID, amount: 2_500, currency: 'BRL' });
  expect((await api.post(`/v1/transactions/${pix.id}/approve`)).status).toBe(200);
  const boleto = await sell(api, { payment_type: 'boleto', on_behalf_of: SANDBOX_SELLER_ID, customer: SANDBOX_BUYER_ID, amount: 15_000, currency: 'BRL' });
  expect((await api.post(`/v1/transactions/${boleto.id}/approve`)).status).toBe(200);
  expect((await api.post(`/v1/transactions/${card.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 4_000 })).status).toBe(200);
  expect((await api.post(`/v1/transactions/${refunded.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 5_000 })).status).toBe(200);
  // A boleto never paid moves nothing.
  await sell(api, { payment_type: 'boleto', on_behalf_of: SANDBOX_SELLER_ID, customer: SANDBOX_BUYER_ID, amount: 9_900, currency: 'BRL' });
  return { card, card3x, refunded, pix, boleto };
}

describe('the seller balance after a day of sales and refunds', () => {
  it('equals the sum of its history, and each entry carries its operation, amount, balance and transaction', async () => {
    const { api } = await sandboxAt();
    const before = await sellerBalance(api);
    expect(before).toMatchObject({ resource: 'balance', owner: SANDBOX_SELLER_ID, type: 'seller', current_balance: '0.00', future_entries: '0.00', available_balance: '0.00' });
    await scriptedDay(api);

    const balance = await sellerBalance(api);
    const history = await all(api, `/v1/balances/${balance.account}/history?sort=time-ascending`, balanceEntryStrict);
    expect(history.map((e) => e.operation)).toEqual(['sale', 'sale', 'sale', 'sale', 'sale', 'refund', 'refund']);
    const sum = history.reduce((total, e) => total + cents(e.amount), 0);
    expect(cents(balance.current_balance)).toBe(sum);
    // Each entry's balance is the running sum up to it.
    let running = 0;
    for (const entry of history) {
      running += cents(entry.amount);
      expect(cents(entry.balance)).toBe(running);
      expect(entry).toMatchObject({ resource: 'balance_history', account: balance.account, currency: 'BRL', transfer: null });
      expect(entry.transaction).toMatch(HEX32);
      expect(entry.created_at).toMatch(ISO_MS);
      expect(entry.type).toBe(cents(entry.amount) >= 0 ? 'credit' : 'debit');
    }

    // The net of every transaction as it stands now, fees taken, is what the balance holds.
    const transactions = await all(api, '/v1/transactions', transactionStrict);
    const net = transactions.filter((t) => t.status === 'succeeded').reduce((total, t) => total + cents(t.amount) - cents(t.fees), 0);
    expect(sum).toBe(net);

    // Nothing paid out yet: everything collected is still to come as future entries.
    const future = await all(api, `/v1/sellers/${SANDBOX_SELLER_ID}/future_entries`, futureEntry);
    expect(future.reduce((total, f) => total + cents(f.amount), 0)).toBe(cents(String(balance.future_entries)));
    // Sales credit the balance at once, so the money the future entries will pay out is in it already.
    expect(balance.future_entries).toBe(balance.current_balance);
    expect(balance.available_balance).toBe('0.00');
    expect((await api.get(`/v1/balances/${balance.account}/current`)).body).toMatchObject({ resource: 'current_balance', current_balance: balance.current_balance });
  });

  it('pays receivables out as transfers on their expected dates, and still reconciles', async () => {
    const { api, setRealTime } = await sandboxAt('2027-03-10T09:00:00.000Z');
    const { card, card3x } = await scriptedDay(api);

    // PIX and boleto settle the next day, cards after 30 days, later installments a month apart,
    // each at 12:00 UTC of its date (09:00 in Brasília): at 09:00 UTC of the next day, not yet.
    expect(await transfersMade(advance(api, 1))).toEqual([]);
    expect(await all(api, '/v1/transfers', transferStrict)).toEqual([]);
    setRealTime('2027-03-10T12:00:00.000Z');
    expect((await all(api, '/v1/transfers', transferStrict)).map((t) => [t.transfer_date, t.created_at])).toEqual([
      ['2027-03-11', '2027-03-11T12:00:00.000Z'],
      ['2027-03-11', '2027-03-11T12:00:00.000Z'],
    ]);
    const cardsDue = await transfersMade(advance(api, 30));
    expect(cardsDue).toHaveLength(2); // the partially refunded sale and the 3x sale's first installment
    const transfers = await all(api, '/v1/transfers?sort=time-ascending', transferStrict);
    expect(transfers).toHaveLength(4);
    for (const transfer of transfers) {
      expect(transfer).toMatchObject({ resource: 'transfer', status: 'succeeded', type: 'automatic', on_behalf_of: SANDBOX_SELLER_ID, fees: '0.00' });
      expect(transfer.amount).toMatch(/^\d+\.\d{2}$/);
      expect(transfer.created_at).toBe(`${transfer.transfer_date}T12:00:00.000Z`);
    }
    expect(transfers.map((t) => t.transfer_date)).toEqual(['2027-03-11', '2027-03-11', '2027-04-09', '2027-04-09']);
    const cardTransfer = transfers.find((t) => t.transactions[0] === card.id);
    if (cardTransfer === undefined) throw new Error('no transfer paid the card sale');
    expect((await api.get(`/v1/transfers/${cardTransfer.id}`)).body).toEqual(cardTransfer);
    const paid = await api.get(`/v1/transfers/${cardTransfer.id}/transactions`);
    expect(expectAnswer(paid, 200, pageOf(transactionStrict)).items.map((t) => t.id)).toEqual([card.id]);
    // 60.00 left of 100.00, less 2.99% (1.79): the transfer is what the receivable said.
    expect(cardTransfer.amount).toBe('58.21');

    const receivables = expectAnswer(await api.get(`/v1/transactions/${card3x.id}/receivables`), 200, pageOf(receivableStrict)).items;
    expect(receivables.map((r) => r.status)).toEqual(['paid', 'pending', 'pending']);
    expect(receivables[0]?.transfer).toMatch(HEX32);
    expect(receivables[0]?.paid_at).toBe('2027-04-09T12:00:00.000Z');

    const balance = await sellerBalance(api);
    const history = await all(api, `/v1/balances/${balance.account}/history?sort=time-ascending`, balanceEntryStrict);
    expect(cents(balance.current_balance)).toBe(history.reduce((total, e) => total + cents(e.amount), 0));
    const outgoing = history.filter((e) => e.operation === 'transfer');
    expect(outgoing).toHaveLength(4);
    expect(outgoing.every((e) => e.type === 'debit' && e.transfer !== null)).toBe(true);
    // Each booked when its transfer was made.
    expect(outgoing.map((e) => e.created_at)).toEqual(outgoing.map((e) => transfers.find((t) => t.id === e.transfer)?.created_at));
    expect(outgoing.reduce((t, e) => t - cents(e.amount), 0)).toBe(transfers.reduce((t, x) => t + cents(x.amount), 0));

    // Two installments still to come, soonest first; the whole 3x sale is paid out after two more months.
    const future = await all(api, `/v1/sellers/${SANDBOX_SELLER_ID}/future_entries`, futureEntry);
    expect(future.map((f) => f.installment)).toEqual(['2', '3']);
    const [next] = future;
    if (next === undefined) throw new Error('no future entry');
    expect(next).toMatchObject({ resource: 'future_entry', transaction: card3x.id, currency: 'BRL' });
    expect(cents(next.gross_amount) - cents(next.fee)).toBe(cents(next.amount));
    await advance(api, 62);
    expect(await all(api, `/v1/sellers/${SANDBOX_SELLER_ID}/future_entries`, futureEntry)).toEqual([]);
    expect(await all(api, '/v1/transfers', transferStrict)).toHaveLength(6);
    // Every cent collected went out: what is left is nothing.
    expect((await sellerBalance(api)).current_balance).toBe('0.00');
  });

  it('a refund after the payout is taken from the balance, which may go below zero', async () => {
    const { api } = await sandboxAt();
    const sale = await sell(api, directCardBody(VISA, 10_000));
    await advance(api, 31);
    expect((await sellerBalance(api)).current_balance).toBe('0.00');
    expect((await api.post(`/v1/transactions/${sale.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 10_000 })).status).toBe(200);
    const balance = await sellerBalance(api);
    expect(balance).toMatchObject({ current_balance: '-97.01', future_entries: '0.00', available_balance: '-97.01' });
    const receivables = expectAnswer(await api.get(`/v1/transactions/${sale.id}/receivables`), 200, pageOf(receivableStrict)).items;
    expect(receivables.map((r) => r.status)).toEqual(['paid']);
  });
});

describe('filters and lookups', () => {
  it('history by operation and date; transfers by status and date; future entries by expected date', async () => {
    const { api, setRealTime } = await sandboxAt('2027-03-10T09:00:00.000Z');
    await sell(api, directCardBody(VISA, 10_000));
    setRealTime('2027-03-12T09:00:00.000Z');
    const later = await sell(api, directCardBody(VISA, 20_000));
    await sell(api, { payment_type: 'pix', on_behalf_of: SANDBOX_SELLER_ID, amount: 1_000, currency: 'BRL' });
    expect((await api.post(`/v1/transactions/${later.id}/void`, { on_behalf_of: SANDBOX_SELLER_ID, amount: 20_000 })).status).toBe(200);

    expect((await all(api, '/v1/balances/history?operation=refund', balanceEntryStrict)).map((e) => e.transaction)).toEqual([later.id]);
    expect(await all(api, '/v1/balances/history?date_range[lte]=2027-03-10', balanceEntryStrict)).toHaveLength(1);
    expect(await all(api, '/v1/balances/history?date_range[gte]=2027-03-11', balanceEntryStrict)).toHaveLength(2);
    expect(await all(api, '/v1/balances/history?operation=sale,refund&type=debit', balanceEntryStrict)).toHaveLength(1);

    const future = await all(api, `/v1/sellers/${SANDBOX_SELLER_ID}/future_entries`, futureEntry);
    expect(future.map((f) => f.expected_on?.slice(0, 10))).toEqual(['2027-04-09']);
    expect(await all(api, `/v1/sellers/${SANDBOX_SELLER_ID}/future_entries?date_range[gte]=2027-04-10`, futureEntry)).toEqual([]);
    expect(await all(api, `/v1/sellers/${SANDBOX_SELLER_ID}/future_entries?date_range[lte]=2027-04-09`, futureEntry)).toHaveLength(1);

    await advance(api, 40);
    expect(await all(api, '/v1/transfers?status=succeeded', transferStrict)).toHaveLength(1);
    expect(await all(api, '/v1/transfers?status=failed', transferStrict)).toEqual([]);
    expect(await all(api, '/v1/transfers?date_range[lte]=2027-04-08', transferStrict)).toEqual([]);
    expect(await all(api, '/v1/transfers?date_range[gte]=2027-04-09&date_range[lte]=2027-04-09', transferStrict)).toHaveLength(1);
  });

  it('transfers by their transfer_date as written: each bound a calendar date, whatever the hour they were made', async () => {
    const { api, setRealTime } = await sandboxAt('2027-03-10T23:30:00.000Z');
    await sell(api, directCardBody(VISA, 10_000));
    setRealTime('2027-03-11T00:30:00.000Z');
    await sell(api, directCardBody(VISA, 20_000));
    await advance(api, 40);
    const transfers = await all(api, '/v1/transfers?sort=time-ascending', transferStrict);
    expect(transfers.map((t) => t.transfer_date)).toEqual(['2027-04-09', '2027-04-10']);
    const dates = async (query: string) => (await all(api, `/v1/transfers?sort=time-ascending&${query}`, transferStrict)).map((t) => t.transfer_date);
    expect(await dates('transfer_date[gte]=2027-04-10')).toEqual(['2027-04-10']);
    expect(await dates('transfer_date[gt]=2027-04-09')).toEqual(['2027-04-10']);
    expect(await dates('transfer_date[lte]=2027-04-09')).toEqual(['2027-04-09']);
    expect(await dates('transfer_date[lt]=2027-04-10')).toEqual(['2027-04-09']);
    expect(await dates('transfer_date[gte]=2027-04-09&transfer_date[lte]=2027-04-10')).toEqual(['2027-04-09', '2027-04-10']);
    expect(await dates('transfer_date[gte]=2027-04-10&transfer_date[gt]=2027-04-08')).toEqual(['2027-04-10']);
    expect(await dates('transfer_date[gt]=2027-04-10')).toEqual([]);
    expect(await all(api, `/v1/sellers/${SANDBOX_SELLER_ID}/transfers?transfer_date[gte]=2027-04-10&transfer_date[lte]=2027-04-10`, transferStrict)).toHaveLength(1);
    expectReasons(await api.get('/v1/transfers?transfer_date[gte]=2027-02-30&transfer_date[lt]=1744243200'), [
      'transfer_date[gte]: must be a calendar date, YYYY-MM-DD',
      'transfer_date[lt]: must be a calendar date, YYYY-MM-DD',
    ]);
  });

  it('buyer accounts exist at zero; unknown accounts, buyers, sellers and transfers are 404', async () => {
    const { api } = await sandboxAt();
    const accounts = expectAnswer(await api.get(`/v1/buyers/${SANDBOX_BUYER_ID}/balances`), 200, pageOf(balanceSchema)).items;
    expect(accounts).toHaveLength(1);
    const [account] = accounts;
    expect(account).toMatchObject({ resource: 'account', type: 'buyer', owner: SANDBOX_BUYER_ID, current_balance: '0.00', currency: 'BRL' });
    expect(account?.id).toBeDefined();
    expect((await api.get(`/v1/balances/${account?.id}`)).body).toMatchObject({ account: account?.id, current_balance: '0.00', future_entries: '0.00' });
    expect(expectAnswer(await api.get(`/v1/buyers/${SANDBOX_BUYER_ID}/balances/history`), 200, pageOf(balanceEntryStrict)).items).toEqual([]);

    const unknown = 'f'.repeat(32);
    expectError(await api.get(`/v1/balances/${unknown}`), 404, 'resource_not_found');
    expectError(await api.get(`/v1/balances/${unknown}/history`), 404, 'resource_not_found');
    expectError(await api.get(`/v1/buyers/${unknown}/balances`), 404, 'resource_not_found');
    expectError(await api.get(`/v1/sellers/${unknown}/balances/current`), 404, 'resource_not_found');
    expectError(await api.get(`/v1/sellers/${unknown}/future_entries`), 404, 'resource_not_found');
    expectError(await api.get(`/v1/transfers/${unknown}`), 404, 'resource_not_found');
    expectError(await api.get(`/v1/transfers/${unknown}/transactions`), 404, 'resource_not_found');
  });
});
