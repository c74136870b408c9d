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

export const financeRoutes = {
  'balances.accountsByBuyer': reading((state, c) => listBuyerAccounts(state, idOf(c), c.query, c.path)),
  'balances.historyByBuyer': reading((state, c) => listHistory(state, [buyerAccountId(state, idOf(c))], c.query, c.path)),
  'balances.history': reading((state, c) => listHistory(state, undefined, c.query, c.path)),
  'balances.get': reading((state, c) => balanceView(state, findAccount(state, idOf(c)))),
  'balances.historyByAccount': reading((state, c) => listHistory(state, [findAccount(state, idOf(c)).id], c.query, c.path)),
  'balances.current': reading((state, c) => currentBalanceView(findAccount(state, idOf(c)), c.now())),
  'balances.getBySeller': reading((state, c) => balanceView(state, sellerAccount(state, idOf(c)))),
  'balances.currentBySeller': reading((state, c) => currentBalanceView(sellerAccount(state, idOf(c)), c.now())),
  'futureEntries.list': reading((state, c) => listFutureEntries(state, idOf(c), c.query, c.path)),
  'transfers.list': reading((state, c) => listTransfers(state, c.query, c.path)),
  'transfers.get': reading((state, c) => findTransfer(state, idOf(c))),
  'transfers.transactions': reading((state, c) => listTransferTransactions(state, findTransfer(state, idOf(c)), c.query, c.path)),
} satisfies RouteTable;
