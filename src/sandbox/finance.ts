import { findBuyer } from './buyer-ops.js';
import { requireSeller } from './sellers.js';
import { found } from './errors.js';
import { accountIdFor, accountOf, findAccountById } from './ledger.js';
import { findBy, page, sumBy } from './db/queries.js';
import { listEnvelope, pageEnvelope, parseListQuery, type ListEnvelope } from './list.js';
import { centsToDecimal, decimalToCents } from './money.js';
import { RECEIVABLE_FILTER_VALUES } from './receivables.js';
import { dayAt } from '../validate/date.js';
import { DAY_MS, isoTimestamp } from './time.js';
import type { Account, BalanceEntry, Receivable, SandboxState, StoredTransaction, Transaction, Transfer } from './types.js';

// What finance reads: accounts and their balances, the history behind them, transfers to the
// seller's bank account and the future entries still to come. All of it is derived from the
// ledger (ledger.ts) and the receivables (payouts.ts); nothing here changes the state.

// --- accounts and balances ----------------------------------------------------------------------

export function findAccount(state: SandboxState, id: string): Account {
  return found(findAccountById(state, id), 'account', id);
}

export function sellerAccount(state: SandboxState, sellerId: string): Account {
  requireSeller(state, sellerId);
  return accountOf(state, sellerId) as Account;
}

export function listBuyerAccounts(state: SandboxState, buyerId: string, params: URLSearchParams, uri: string): ListEnvelope<Account> {
  findBuyer(state, buyerId);
  return listEnvelope(uri, [accountOf(state, buyerId) as Account], parseListQuery(params, []));
}

/**
 * A sale credits the balance when it succeeds and its receivables pay the money out later, so the
 * future entries are part of the current balance, not added to it.
 */
export function balanceView(state: SandboxState, account: Account) {
  const current = decimalToCents(account.current_balance);
  // Net of the owner's receivables not yet paid out.
  const future = sumBy(state, 'receivables', 'cents', { status: 'pending', recipient: account.owner });
  return {
    resource: 'balance' as const,
    account: account.id,
    owner: account.owner,
    type: account.type,
    currency: account.currency,
    // Money in the account now: the sum of its history.
    current_balance: account.current_balance,
    // Part of it still owed to the owner by receivables not yet paid out, net of fees.
    future_entries: centsToDecimal(future),
    // What no future payout is waiting for (negative after a refund of money already paid out).
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
const HISTORY_VALUES = { operation: ['sale', 'refund', 'chargeback', 'transfer'], type: ['credit', 'debit'] };

/** Entries of the given accounts (all accounts when `accounts` is undefined), filtered and ordered. */
export function listHistory(state: SandboxState, accounts: string[] | undefined, params: URLSearchParams, uri: string): ListEnvelope<BalanceEntry> {
  const query = parseListQuery(params, HISTORY_FILTERS, HISTORY_VALUES);
  const filters: Record<string, string[] | undefined> = { account: accounts };
  for (const [name, accepted] of query.filters) filters[name === 'transaction' ? 'txn' : name] = [...accepted];
  const found = page<BalanceEntry>(state, 'balance_entries', { time: 'created_ms', filters }, query);
  return pageEnvelope(uri, found.items, found.total, query);
}

export function buyerAccountId(state: SandboxState, buyerId: string): string {
  findBuyer(state, buyerId);
  return accountIdFor(buyerId);
}

// --- transfers ----------------------------------------------------------------------------------

export function findTransfer(state: SandboxState, id: string): Transfer {
  return found(findBy<Transfer>(state, 'transfers', 'id', id), 'transfer', id);
}

/**
 * Every transfer, or (`seller`) only the payouts to that seller: sellers/{id}/transfers.
 * `transfer_date[gte]`… bound the transfer's date as written. A transfer is made at 12:00 UTC of
 * its date (payouts.ts), so its transfer_date is the UTC day of its created_at: those days' span
 * of created_ms holds exactly the transfers dated in them, and the creation index finds them.
 */
export function listTransfers(state: SandboxState, params: URLSearchParams, uri: string, seller?: string): ListEnvelope<Transfer> {
  const query = parseListQuery(params, ['status'], { status: ['pending', 'succeeded', 'failed', 'canceled'] }, 'transfer_date');
  const { first, last } = query.days ?? {};
  if (first !== undefined) query.range.min = Math.max(query.range.min, (dayAt(first) as Date).getTime());
  if (last !== undefined) query.range.max = Math.min(query.range.max, (dayAt(last) as Date).getTime() + DAY_MS - 1);
  const statuses = query.filters.get('status');
  const filters = { status: statuses && [...statuses], on_behalf_of: seller === undefined ? undefined : [seller] };
  const found = page<Transfer>(state, 'transfers', { time: 'created_ms', filters }, query);
  return pageEnvelope(uri, found.items, found.total, query);
}

/** The transactions a transfer paid out, in the order it lists them. */
export function listTransferTransactions(state: SandboxState, transfer: Transfer, params: URLSearchParams, uri: string): ListEnvelope<Transaction> {
  const query = parseListQuery(params, []);
  const items = transfer.transactions
    .map((id) => findBy<StoredTransaction>(state, 'transactions', 'id', id)?.txn)
    .filter((t): t is Transaction => t !== undefined);
  return listEnvelope(uri, items, query);
}

// --- future entries -----------------------------------------------------------------------------

function futureEntry(r: Receivable) {
  return {
    id: r.id,
    resource: 'future_entry' as const,
    on_behalf_of: r.recipient,
    transaction: r.transaction,
    receivable: r.id,
    installment: r.installment,
    gross_amount: r.gross_amount,
    fee: centsToDecimal(decimalToCents(r.gross_amount) - decimalToCents(r.amount)),
    // Net: what the seller will be paid.
    amount: r.amount,
    currency: 'BRL',
    expected_on: r.expected_on,
    created_at: r.created_at,
  };
}

/** A seller's receivables, paid or not, by expected date (sellers/{id}/receivables); `status` filters. */
export function listSellerReceivables(state: SandboxState, sellerId: string, params: URLSearchParams, uri: string): ListEnvelope<Receivable> {
  requireSeller(state, sellerId);
  const query = parseListQuery(params, ['status'], RECEIVABLE_FILTER_VALUES);
  const statuses = query.filters.get('status');
  const found = page<Receivable>(state, 'receivables', { time: 'expected_ms', filters: { status: statuses && [...statuses], recipient: [sellerId] } }, query);
  return pageEnvelope(uri, found.items, found.total, query);
}

/**
 * The seller's receivables not yet paid out, soonest first: `date_range` bounds the expected date
 * here (when the money comes), not the creation date as elsewhere.
 */
export function listFutureEntries(state: SandboxState, sellerId: string, params: URLSearchParams, uri: string) {
  requireSeller(state, sellerId);
  const query = parseListQuery(params, []);
  // Soonest first unless told otherwise: what comes next is what finance looks for.
  if (!params.has('sort')) query.sort = 'time-ascending';
  const found = page<Receivable>(state, 'receivables', { time: 'expected_ms', filters: { status: ['pending'], recipient: [sellerId] } }, query);
  return pageEnvelope(uri, found.items.map(futureEntry), found.total, query);
}
