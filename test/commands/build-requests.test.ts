import { describe, expect, it } from 'vitest';
import { buildHistoryRequest } from '../../src/commands/balances/history.js';
import { buildAssociateRequest } from '../../src/commands/cards/associate.js';
import { buildTokenizeRequest } from '../../src/commands/cards/tokenize.js';
import { buildListRequest } from '../../src/commands/shared/list.js';
import { BY_TRANSFER_DATE } from '../../src/commands/shared/list-flags.js';
import { buildSourceRequest } from '../../src/commands/sources/create.js';
import { buildCaptureRequest } from '../../src/commands/transactions/capture.js';
import { buildTransactionListRequest } from '../../src/commands/transactions/list.js';
import { buildRefundRequest } from '../../src/commands/transactions/refund.js';
import type { Transaction } from '../../src/commands/transactions/shared.js';
import { buildUpdateRequest } from '../../src/commands/transactions/update.js';
import { buildTransferListRequest } from '../../src/commands/transfers/list.js';
import { buildWebhookRequest } from '../../src/commands/webhooks/create.js';
import { NotAllowedError, UsageError } from '../../src/errors.js';

// Each build*Request on its own: what it makes of its input, and what it refuses (and how: exit 2
// for a mistake on the command line, exit 6 for what the sale does not allow). The request each
// sends is checked against a recording server elsewhere (test/api/requests*.test.ts);
// buildCreateRequest has its own cases there. buildApiRequest reads files and stdin, so it is
// tested through `payctl api` (test/commands/api.test.ts).

/** An id of 32 of one character, as the provider's ids are written. */
const id = (character: string) => character.repeat(32);
const TX = id('e');
const SELLER = id('b');
const BUYER = id('c');
const CARD = id('d');
const TOKEN = id('f');
const PROFILE_SELLER = id('1');
const CARD_DATA = { card_number: '4111111111111111', holder_name: 'Maria Silva', expiration_month: '12', expiration_year: '2030', security_code: '123' };

const sale = (extra: Partial<Transaction> = {}): Transaction => ({ id: TX, status: 'succeeded', amount: '10.50', currency: 'BRL', on_behalf_of: SELLER, ...extra }) as Transaction;
/** Local midnight of a day, in seconds: a creation-dated list's day is the user's day. */
const localMidnight = (y: number, m: number, d: number) => new Date(y, m - 1, d).getTime() / 1000;

describe('buildRefundRequest', () => {
  it("refunds the amount asked, or all that remains, for the sale's seller", () => {
    expect(buildRefundRequest(sale(), 500)).toEqual({ on_behalf_of: SELLER, amount: 500 });
    expect(buildRefundRequest(sale(), undefined)).toEqual({ on_behalf_of: SELLER, amount: 1050 });
    expect(buildRefundRequest(sale(), 1050)).toEqual({ on_behalf_of: SELLER, amount: 1050 });
  });

  it("falls back to the profile's seller only when the sale names none", () => {
    expect(buildRefundRequest(sale(), 100, PROFILE_SELLER).on_behalf_of).toBe(SELLER);
    expect(buildRefundRequest(sale({ on_behalf_of: null }), 100, PROFILE_SELLER).on_behalf_of).toBe(PROFILE_SELLER);
    expect(() => buildRefundRequest(sale({ on_behalf_of: null }), 100)).toThrow(UsageError);
    expect(() => buildRefundRequest(sale({ on_behalf_of: null }), 100)).toThrow(`transaction ${TX} names no seller`);
  });

  it('refuses more than is left, naming what is left, and a sale with nothing left', () => {
    expect(() => buildRefundRequest(sale(), 1051)).toThrow(NotAllowedError);
    expect(() => buildRefundRequest(sale(), 1051)).toThrow(/R\$ ?10[,.]51 is more than the R\$ ?10[,.]50 left to refund on transaction/);
    expect(() => buildRefundRequest(sale({ amount: '0.00', status: 'canceled' }), undefined)).toThrow(`transaction ${TX} has nothing left to refund (status canceled)`);
  });
});

describe('buildCaptureRequest', () => {
  const authorized = (extra: Partial<Transaction> = {}) => sale({ status: 'pre_authorized', ...extra });

  it('captures the amount asked, or all that was authorized', () => {
    expect(buildCaptureRequest(authorized(), 800)).toEqual({ on_behalf_of: SELLER, amount: 800 });
    expect(buildCaptureRequest(authorized(), undefined)).toEqual({ on_behalf_of: SELLER, amount: 1050 });
    expect(buildCaptureRequest(authorized({ on_behalf_of: null }), undefined, PROFILE_SELLER).on_behalf_of).toBe(PROFILE_SELLER);
  });

  it('refuses a sale that is not pre-authorized, more than was authorized, and a sale with no seller', () => {
    expect(() => buildCaptureRequest(sale(), undefined)).toThrow(NotAllowedError);
    expect(() => buildCaptureRequest(sale(), undefined)).toThrow(`transaction ${TX} is succeeded; only a pre_authorized card transaction can be captured`);
    expect(() => buildCaptureRequest(authorized(), 1051)).toThrow(/more than the R\$ ?10[,.]50 authorized on transaction/);
    expect(() => buildCaptureRequest(authorized({ on_behalf_of: null }), undefined)).toThrow(UsageError);
  });
});

describe('buildUpdateRequest', () => {
  it('sends only what is given, metadata read as key=value', () => {
    expect(buildUpdateRequest({ description: 'Pedido 1234' })).toEqual({ description: 'Pedido 1234' });
    expect(buildUpdateRequest({ metadata: ['order=1234', 'note=a=b'] })).toEqual({ metadata: { order: '1234', note: 'a=b' } });
  });

  it('refuses nothing to change, and metadata it cannot read', () => {
    expect(() => buildUpdateRequest({})).toThrow('nothing to change: give --description and/or --metadata key=value');
    expect(() => buildUpdateRequest({ description: '' })).toThrow('nothing to change');
    expect(() => buildUpdateRequest({ metadata: ['order'] })).toThrow('--metadata: "order" should look like key=value');
  });
});

describe('buildTokenizeRequest', () => {
  it("is the card's fields at the top level, as strings", () => {
    expect(buildTokenizeRequest(CARD_DATA)).toEqual(CARD_DATA);
  });
});

describe('buildAssociateRequest', () => {
  it('is the token and the buyer, each a checked id', () => {
    expect(buildAssociateRequest({ token: TOKEN, customer: BUYER })).toEqual({ token: TOKEN, customer: BUYER });
    expect(() => buildAssociateRequest({ token: 'tok 1', customer: BUYER })).toThrow('--token: malformed token id');
    expect(() => buildAssociateRequest({ token: TOKEN })).toThrow('--customer: missing buyer id');
  });
});

describe('buildSourceRequest', () => {
  const base = { usage: 'single_use', currency: 'BRL', capture: true } as const;

  it('carries what is charged under the key that says what it is', () => {
    expect(buildSourceRequest({ ...base, origin: { cardId: CARD } })).toEqual({ usage: 'single_use', type: 'card', currency: 'BRL', capture: true, card: { id: CARD } });
    expect(buildSourceRequest({ ...base, origin: { card: CARD_DATA } }).card).toEqual(CARD_DATA);
    expect(buildSourceRequest({ ...base, origin: { tokenId: TOKEN } }).token).toEqual({ id: TOKEN });
    expect(buildSourceRequest({ ...base, origin: { customerId: BUYER } }).customer).toBe(BUYER);
  });

  it('adds the amount, installment plan and the rest only when given', () => {
    const body = buildSourceRequest({ ...base, usage: 'reusable', capture: false, origin: { cardId: CARD }, amountCents: 1050, description: 'd', referenceId: 'r', onBehalfOf: SELLER, installments: 3, metadata: { a: '1' } });
    expect(body).toEqual({
      usage: 'reusable',
      type: 'card',
      currency: 'BRL',
      capture: false,
      card: { id: CARD },
      amount: 1050,
      description: 'd',
      reference_id: 'r',
      on_behalf_of: SELLER,
      installment_plan: { number_installments: 3 },
      metadata: { a: '1' },
    });
    expect(Object.keys(buildSourceRequest({ ...base, origin: { cardId: CARD } }))).toEqual(['usage', 'type', 'currency', 'capture', 'card']);
  });
});

describe('buildWebhookRequest', () => {
  it('is a POST to a checked URL for checked event types, a description when given', () => {
    expect(buildWebhookRequest({ url: 'https://example.com/hook', event: ['transaction.succeeded,transaction.canceled', 'transaction.succeeded'] })).toEqual({
      method: 'POST',
      url: 'https://example.com/hook',
      event: ['transaction.succeeded', 'transaction.canceled'],
    });
    expect(buildWebhookRequest({ url: 'http://127.0.0.1:8080/hook', event: ['*'], description: 'local' })).toEqual({ method: 'POST', url: 'http://127.0.0.1:8080/hook', event: ['*'], description: 'local' });
  });

  it('refuses plain http to another host, a URL that is not one, and an event type it does not know', () => {
    expect(() => buildWebhookRequest({ url: 'http://example.com/hook', event: ['*'] })).toThrow('--url: http://example.com/hook must use https://');
    expect(() => buildWebhookRequest({ url: 'example.com', event: ['*'] })).toThrow('--url: "example.com" is not an absolute URL');
    expect(() => buildWebhookRequest({ url: 'https://example.com', event: ['transaction.succeded'] })).toThrow('did you mean transaction.succeeded?');
  });
});

describe('buildListRequest', () => {
  it('is 20 items of the newest by default; --limit, --all and --sort as the service takes them', () => {
    expect(buildListRequest({})).toEqual({ query: {}, limit: 20, all: false });
    expect(buildListRequest({ limit: '5', sort: 'asc' })).toEqual({ query: { sort: 'time-ascending' }, limit: 5, all: false });
    expect(buildListRequest({ all: true, sort: 'desc' })).toEqual({ query: { sort: 'time-descending' }, limit: 20, all: true });
  });

  it("bounds a creation-dated list by the user's days, --to included", () => {
    expect(buildListRequest({ from: '2026-11-01', to: '2026-11-30' }).query).toEqual({ 'date_range[gte]': localMidnight(2026, 11, 1), 'date_range[lt]': localMidnight(2026, 12, 1) });
  });

  it('bounds a list dated by a calendar date by the days as written, and holds to them', () => {
    const request = buildListRequest({ from: '2026-11-01', to: '2026-11-30' }, BY_TRANSFER_DATE);
    expect(request.query).toEqual({ 'transfer_date[gte]': '2026-11-01', 'transfer_date[lte]': '2026-11-30' });
    expect(request.days).toEqual({ dated: BY_TRANSFER_DATE, from: '2026-11-01', to: '2026-11-30' });
  });

  it('refuses --limit with --all, a limit that is not a whole number from 1, days the wrong way round, an unknown order', () => {
    expect(() => buildListRequest({ limit: '5', all: true })).toThrow('use either --limit or --all, not both');
    for (const limit of ['0', '2.5', 'ten', '-1']) expect(() => buildListRequest({ limit })).toThrow('--limit: give a whole number of 1 or more');
    expect(() => buildListRequest({ from: '2026-12-01', to: '2026-11-30' })).toThrow('--from 2026-12-01 is after --to 2026-11-30');
    expect(() => buildListRequest({ from: '01/11/2026' })).toThrow('--from:');
    expect(() => buildListRequest({ sort: 'newest' })).toThrow('--sort: "newest" is not an order; use asc or desc');
  });
});

describe('buildTransactionListRequest', () => {
  it('sends one status and one payment type in the query; more are filtered as the pages arrive', () => {
    const one = buildTransactionListRequest({ status: 'succeeded', paymentType: 'pix', referenceId: 'order-1' });
    expect(one.query).toEqual({ reference_id: 'order-1', status: 'succeeded', payment_type: 'pix' });
    const many = buildTransactionListRequest({ status: 'succeeded,pre_authorized', paymentType: 'credit' });
    expect(many.query).toEqual({ reference_id: undefined });
    expect(many.filters).toEqual({ statuses: ['succeeded', 'pre_authorized'], paymentTypes: ['credit'] });
  });

  it('refuses a status or payment type it does not know, naming the one meant', () => {
    expect(() => buildTransactionListRequest({ status: 'succeded' })).toThrow(/--status: "succeded" is not valid \(did you mean succeeded\?\)/);
    expect(() => buildTransactionListRequest({ paymentType: 'card' })).toThrow('--payment-type: "card" is not valid');
    expect(() => buildTransactionListRequest({ limit: '0' })).toThrow('--limit:');
  });
});

describe('buildHistoryRequest', () => {
  it("is every account's history, or one account's, buyer's or seller's", () => {
    expect(buildHistoryRequest({})).toMatchObject({ operation: 'balances.history', query: { operation: undefined } });
    expect(buildHistoryRequest({ account: TX, operation: 'refund,sale' })).toMatchObject({ operation: 'balances.historyByAccount', params: { id: TX }, query: { operation: 'refund,sale' } });
    expect(buildHistoryRequest({ buyer: BUYER })).toMatchObject({ operation: 'balances.historyByBuyer', params: { id: BUYER } });
    expect(buildHistoryRequest({ seller: SELLER })).toMatchObject({ operation: 'balances.historyBySeller', params: { id: SELLER } });
  });

  it('refuses more than one of --account, --buyer and --seller, an id it cannot read, an unknown operation', () => {
    expect(() => buildHistoryRequest({ account: TX, buyer: BUYER })).toThrow('use either --account or --buyer, not both');
    expect(() => buildHistoryRequest({ account: TX, buyer: BUYER, seller: SELLER })).toThrow('use either --account or --buyer or --seller, not all three');
    expect(() => buildHistoryRequest({ buyer: 'maria silva' })).toThrow('--buyer: malformed buyer id');
    expect(() => buildHistoryRequest({ operation: 'payout' })).toThrow('--operation: "payout" is not valid');
  });
});

describe('buildTransferListRequest', () => {
  it('filters by status and by transfer date, the days as written', () => {
    expect(buildTransferListRequest({ status: 'succeeded,failed', from: '2026-11-01' })).toMatchObject({
      query: { status: 'succeeded,failed', 'transfer_date[gte]': '2026-11-01' },
      days: { dated: BY_TRANSFER_DATE, from: '2026-11-01' },
    });
    expect(() => buildTransferListRequest({ status: 'paid' })).toThrow('--status: "paid" is not valid');
  });
});
