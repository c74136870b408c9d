import { findBuyer } from './buyer-ops.js';
import { notFound } from './errors.js';
import { accountIdFor, accountOf, findAccountById } from './ledger.js';
import { cachedView, listEnvelope, parseListQuery, viewKey, type ListEnvelope, type ListQuery } from './list.js';
import { centsToDecimal, decimalToCents } from './money.js';
import { isoTimestamp } from './time.js';
import type { Account, BalanceEntry, Receivable, SandboxState, Transaction, Transfer } from './types.js';

// What finance reads: accounts and their balances, the history behind them, transfers to the
// seller's bank account and the future entries still to come. All of it is derived from the
// ledger (ledger.ts) and the receivables (payouts.ts); nothing here changes the state.

/** Items in the query's time order, by `at` (ms), ties kept in stored order; cached per query. */
function ordered<T>(state: SandboxState, key: string, items: readonly T[], at: (item: T) => number, keep: (item: T) => boolean, query: ListQuery): T[] {
  return cachedView(state, key, () => {
    const found = items.filter((item) => keep(item) && query.createdWithin(at(item)));
    // Array.prototype.sort is stable, so equal times keep their stored (chronological) order.
    found.sort((a, b) => at(a) - at(b));
    if (query.sort === 'time-descending') found.reverse();
    return found;
  });
}

// --- accounts and balances ----------------------------------------------------------------------

export function findAccount(state: SandboxState, id: string): Account {
  const account = findAccountById(state, id);
  if (!account) throw notFound('account', id);
  return account;
}

export function sellerAccount(state: SandboxState, sellerId: string): Account {
  if (sellerId !== state.seller.id) throw notFound('seller', sellerId);
  return accountOf(state, sellerId) as Account;
}

export function listBuyerAccounts(state: SandboxState, buyerId: string, params: URLSearchParams, uri: string): ListEnvelope<Account> {
  findBuyer(state, buyerId);
  return listEnvelope(uri, [accountOf(state, buyerId) as Account], parseListQuery(params, []));
}

/** Net of the account owner's receivables not yet paid out. */
function futureCents(state: SandboxState, owner: string): number {
  let cents = 0;
  for (const r of state.receivables) if (r.status === 'pending' && r.recipient === owner) cents += decimalToCents(r.amount);
  return cents;
}

export interface BalanceView {
  resource: 'balance';
  account: string;
  owner: string;
  type: Account['type'];
  currency: string;
  /** Money in the account now: the sum of its history. */
  current_balance: string;
  /** Part of it still owed to the owner by receivables not yet paid out (the future entries), net of fees. */
  future_entries: string;
  /** What no future payout is waiting for: current − future entries (negative after a refund of money already paid out). */
  available_balance: string;
  updated_at: string;
}

/**
 * A sale credits the balance when it succeeds and its receivables pay the money out later, so the
 * future entries are part of the current balance, not added to it.
 */
export function balanceView(state: SandboxState, account: Account): BalanceView {
  const current = decimalToCents(account.current_balance);
  const future = futureCents(state, account.owner);
  return {
    resource: 'balance',
    account: account.id,
    owner: account.owner,
    type: account.type,
    currency: account.currency,
    current_balance: account.current_balance,
    future_entries: centsToDecimal(future),
    available_balance: centsToDecimal(current - future),
    updated_at: account.updated_at,
  };
}

export function currentBalanceView(account: Account, now: Date) {
  return {
    resource: 'current_balance' as const,
    account: account.id,
    owner: account.owner,
    currency: account.currency,
    current_balance: account.current_balance,
    as_of: isoTimestamp(now),
  };
}

// --- history ------------------------------------------------------------------------------------

const HISTORY_FILTERS = ['operation', 'type', 'transaction', 'transfer'] as const;

/** Entries of the given accounts (all accounts when `accounts` is undefined), filtered and ordered. */
export function listHistory(state: SandboxState, accounts: string[] | undefined, params: URLSearchParams, uri: string): ListEnvelope<BalanceEntry> {
  const query = parseListQuery(params, HISTORY_FILTERS);
  const wanted = accounts ? new Set(accounts) : undefined;
  const keep = (entry: BalanceEntry) => {
    if (wanted && !wanted.has(entry.account)) return false;
    for (const [name, accepted] of query.filters) {
      const value = entry[name as (typeof HISTORY_FILTERS)[number]];
      if (value === null || !accepted.has(value)) return false;
    }
    return true;
  };
  const key = viewKey(`history:${accounts?.join(',') ?? '*'}`, params);
  return listEnvelope(uri, ordered(state, key, state.balance_entries, (e) => Date.parse(e.created_at), keep, query), query);
}

export function buyerAccountId(state: SandboxState, buyerId: string): string {
  findBuyer(state, buyerId);
  return accountIdFor(buyerId);
}

// --- transfers ----------------------------------------------------------------------------------

export function findTransfer(state: SandboxState, id: string): Transfer {
  const transfer = state.transfers.find((t) => t.id === id);
  if (!transfer) throw notFound('transfer', id);
  return transfer;
}

export function listTransfers(state: SandboxState, params: URLSearchParams, uri: string): ListEnvelope<Transfer> {
  const query = parseListQuery(params, ['status']);
  const statuses = query.filters.get('status');
  const keep = (t: Transfer) => !statuses || statuses.has(t.status);
  return listEnvelope(uri, ordered(state, viewKey('transfers', params), state.transfers, (t) => Date.parse(t.created_at), keep, query), query);
}

/** The transactions a transfer paid out, in the order it lists them. */
export function listTransferTransactions(state: SandboxState, transfer: Transfer, params: URLSearchParams, uri: string): ListEnvelope<Transaction> {
  const query = parseListQuery(params, []);
  const ids = new Set(transfer.transactions);
  const byId = new Map<string, Transaction>();
  for (const stored of state.transactions) if (ids.has(stored.txn.id)) byId.set(stored.txn.id, stored.txn);
  const items = transfer.transactions.map((id) => byId.get(id)).filter((t): t is Transaction => t !== undefined);
  return listEnvelope(uri, items, query);
}

// --- future entries -----------------------------------------------------------------------------

export interface FutureEntry {
  id: string;
  resource: 'future_entry';
  on_behalf_of: string;
  transaction: string;
  receivable: string;
  installment: string;
  gross_amount: string;
  fee: string;
  /** Net: what the seller will be paid. */
  amount: string;
  currency: string;
  expected_on: string;
  created_at: string;
}

function futureEntry(r: Receivable): FutureEntry {
  return {
    id: r.id,
    resource: 'future_entry',
    on_behalf_of: r.recipient,
    transaction: r.transaction,
    receivable: r.id,
    installment: r.installment,
    gross_amount: r.gross_amount,
    fee: centsToDecimal(decimalToCents(r.gross_amount) - decimalToCents(r.amount)),
    amount: r.amount,
    currency: 'BRL',
    expected_on: r.expected_on,
    created_at: r.created_at,
  };
}

/**
 * The seller's receivables not yet paid out, soonest first: `date_range` bounds the expected date
 * here (when the money comes), not the creation date as elsewhere.
 */
export function listFutureEntries(state: SandboxState, sellerId: string, params: URLSearchParams, uri: string): ListEnvelope<FutureEntry> {
  if (sellerId !== state.seller.id) throw notFound('seller', sellerId);
  const query = parseListQuery(params, []);
  // Soonest first unless told otherwise: what comes next is what finance looks for.
  if (!params.has('sort')) query.sort = 'time-ascending';
  const keep = (r: Receivable) => r.status === 'pending' && r.recipient === sellerId;
  const pending = ordered(state, viewKey(`future:${sellerId}`, params), state.receivables, (r) => Date.parse(r.expected_on), keep, query);
  const envelope = listEnvelope(uri, pending, query);
  return { ...envelope, items: envelope.items.map(futureEntry) };
}
