import {
  balanceView,
  buyerAccountId,
  currentBalanceView,
  findAccount,
  findTransfer,
  listBuyerAccounts,
  listFutureEntries,
  listHistory,
  listTransfers,
  listTransferTransactions,
  sellerAccount,
} from './finance.js';
import type { RequestContext, Route } from './route.js';
import { readState } from './store.js';

// Routes of what finance reads: balance accounts and their history, transfers and future
// entries. The provider publishes no paths for these; ours follow its conventions (list
// envelope, date_range filters, amounts as decimal strings) and are listed in the CLI's
// endpoint table. Everything here only reads.

const id = (c: RequestContext): string => c.params.id ?? '';
const read = (c: RequestContext) => readState(c.stateDir, c.now);

export const financeRoutes: Route[] = [
  {
    pattern: ['buyers', ':id', 'balances'],
    handlers: { GET: async (c) => ({ status: 200, body: listBuyerAccounts(await read(c), id(c), c.query, c.path) }) },
  },
  {
    pattern: ['buyers', ':id', 'balances', 'history'],
    handlers: {
      GET: async (c) => {
        const state = await read(c);
        return { status: 200, body: listHistory(state, [buyerAccountId(state, id(c))], c.query, c.path) };
      },
    },
  },
  { pattern: ['balances', 'history'], handlers: { GET: async (c) => ({ status: 200, body: listHistory(await read(c), undefined, c.query, c.path) }) } },
  {
    pattern: ['balances', ':id'],
    handlers: {
      GET: async (c) => {
        const state = await read(c);
        return { status: 200, body: balanceView(state, findAccount(state, id(c))) };
      },
    },
  },
  {
    pattern: ['balances', ':id', 'history'],
    handlers: {
      GET: async (c) => {
        const state = await read(c);
        return { status: 200, body: listHistory(state, [findAccount(state, id(c)).id], c.query, c.path) };
      },
    },
  },
  {
    pattern: ['balances', ':id', 'current'],
    handlers: { GET: async (c) => ({ status: 200, body: currentBalanceView(findAccount(await read(c), id(c)), c.now()) }) },
  },
  {
    pattern: ['sellers', ':id', 'balances'],
    handlers: {
      GET: async (c) => {
        const state = await read(c);
        return { status: 200, body: balanceView(state, sellerAccount(state, id(c))) };
      },
    },
  },
  {
    pattern: ['sellers', ':id', 'balances', 'current'],
    handlers: { GET: async (c) => ({ status: 200, body: currentBalanceView(sellerAccount(await read(c), id(c)), c.now()) }) },
  },
  {
    pattern: ['sellers', ':id', 'future_entries'],
    handlers: { GET: async (c) => ({ status: 200, body: listFutureEntries(await read(c), id(c), c.query, c.path) }) },
  },
  { pattern: ['transfers'], handlers: { GET: async (c) => ({ status: 200, body: listTransfers(await read(c), c.query, c.path) }) } },
  { pattern: ['transfers', ':id'], handlers: { GET: async (c) => ({ status: 200, body: findTransfer(await read(c), id(c)) }) } },
  {
    pattern: ['transfers', ':id', 'transactions'],
    handlers: {
      GET: async (c) => {
        const state = await read(c);
        return { status: 200, body: listTransferTransactions(state, findTransfer(state, id(c)), c.query, c.path) };
      },
    },
  },
];
