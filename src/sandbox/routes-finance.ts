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
import { idOf, reading } from './handlers.js';
import type { RouteTable } from './route.js';

// Routes of what finance reads: balance accounts and their history, transfers and future
// entries. The provider publishes no paths for these; ours follow its conventions (list
// envelope, date_range filters, amounts as decimal strings) and are listed in the CLI's
// endpoint table. Everything here only reads.

export const financeRoutes: RouteTable = {
  'GET buyers/:id/balances': reading((state, c) => listBuyerAccounts(state, idOf(c), c.query, c.path)),
  'GET buyers/:id/balances/history': reading((state, c) => listHistory(state, [buyerAccountId(state, idOf(c))], c.query, c.path)),
  'GET balances/history': reading((state, c) => listHistory(state, undefined, c.query, c.path)),
  'GET balances/:id': reading((state, c) => balanceView(state, findAccount(state, idOf(c)))),
  'GET balances/:id/history': reading((state, c) => listHistory(state, [findAccount(state, idOf(c)).id], c.query, c.path)),
  'GET balances/:id/current': reading((state, c) => currentBalanceView(findAccount(state, idOf(c)), c.now())),
  'GET sellers/:id/balances': reading((state, c) => balanceView(state, sellerAccount(state, idOf(c)))),
  'GET sellers/:id/balances/current': reading((state, c) => currentBalanceView(sellerAccount(state, idOf(c)), c.now())),
  'GET sellers/:id/future_entries': reading((state, c) => listFutureEntries(state, idOf(c), c.query, c.path)),
  'GET transfers': reading((state, c) => listTransfers(state, c.query, c.path)),
  'GET transfers/:id': reading((state, c) => findTransfer(state, idOf(c))),
  'GET transfers/:id/transactions': reading((state, c) => listTransferTransactions(state, findTransfer(state, idOf(c)), c.query, c.path)),
};
