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
import type { Route } from './route.js';

// Routes of what finance reads: balance accounts and their history, transfers and future
// entries. The provider publishes no paths for these; ours follow its conventions (list
// envelope, date_range filters, amounts as decimal strings) and are listed in the CLI's
// endpoint table. Everything here only reads.

export const financeRoutes: Route[] = [
  { pattern: ['buyers', ':id', 'balances'], handlers: { GET: reading((state, c) => listBuyerAccounts(state, idOf(c), c.query, c.path)) } },
  { pattern: ['buyers', ':id', 'balances', 'history'], handlers: { GET: reading((state, c) => listHistory(state, [buyerAccountId(state, idOf(c))], c.query, c.path)) } },
  { pattern: ['balances', 'history'], handlers: { GET: reading((state, c) => listHistory(state, undefined, c.query, c.path)) } },
  { pattern: ['balances', ':id'], handlers: { GET: reading((state, c) => balanceView(state, findAccount(state, idOf(c)))) } },
  { pattern: ['balances', ':id', 'history'], handlers: { GET: reading((state, c) => listHistory(state, [findAccount(state, idOf(c)).id], c.query, c.path)) } },
  { pattern: ['balances', ':id', 'current'], handlers: { GET: reading((state, c) => currentBalanceView(findAccount(state, idOf(c)), c.now())) } },
  { pattern: ['sellers', ':id', 'balances'], handlers: { GET: reading((state, c) => balanceView(state, sellerAccount(state, idOf(c)))) } },
  { pattern: ['sellers', ':id', 'balances', 'current'], handlers: { GET: reading((state, c) => currentBalanceView(sellerAccount(state, idOf(c)), c.now())) } },
  { pattern: ['sellers', ':id', 'future_entries'], handlers: { GET: reading((state, c) => listFutureEntries(state, idOf(c), c.query, c.path)) } },
  { pattern: ['transfers'], handlers: { GET: reading((state, c) => listTransfers(state, c.query, c.path)) } },
  { pattern: ['transfers', ':id'], handlers: { GET: reading((state, c) => findTransfer(state, idOf(c))) } },
  { pattern: ['transfers', ':id', 'transactions'], handlers: { GET: reading((state, c) => listTransferTransactions(state, findTransfer(state, idOf(c)), c.query, c.path)) } },
];
