import { createHash } from 'node:crypto';
import { newId } from './ids.js';
import { centsToDecimal, decimalToCents } from './money.js';
import { partsOf } from './split-parts.js';
import { isoTimestamp } from './time.js';
import type { Account, BalanceEntry, EntryOperation, SandboxState, StoredTransaction } from './types.js';

// Balance accounts and their history. Every change of an account's balance is an entry that
// carries the operation, the signed amount, the balance after it and the transaction or transfer
// behind it, so an account's current balance is always the sum of its history.
//
// The seller's account is seeded. Each buyer has one too; its id is derived from the buyer's, so a
// buyer's account that has never moved needs no record: it reads as zero until its first entry.

const accountIds = new Map<string, string>();

export function accountIdFor(owner: string): string {
  let id = accountIds.get(owner);
  if (id === undefined) {
    id = createHash('sha256').update(`account:${owner}`).digest('hex').slice(0, 32);
    // Asked for on every sale and every payout; a hash each time was a tenth of a sale's work.
    if (accountIds.size < 10_000) accountIds.set(owner, id);
  }
  return id;
}

export function newAccount(state: Pick<SandboxState, 'marketplace_id'>, owner: string, type: Account['type'], createdAt: string): Account {
  const id = accountIdFor(owner);
  return {
    id,
    resource: 'account',
    type,
    owner,
    currency: 'BRL',
    current_balance: '0.00',
    uri: `/v1/marketplaces/${state.marketplace_id}/balances/${id}`,
    created_at: createdAt,
    updated_at: createdAt,
  };
}

/** The seller's or a buyer's account as it stands: its record, or a zero account when it never moved. */
export function accountOf(state: SandboxState, owner: string): Account | undefined {
  const stored = state.accounts.get(accountIdFor(owner));
  if (stored) return stored;
  const buyer = state.buyers.get(owner);
  if (buyer) return newAccount(state, owner, 'buyer', buyer.created_at);
  const seller = state.sellers.get(owner);
  return seller ? newAccount(state, owner, 'seller', seller.created_at) : undefined;
}

/** Finds an account by its id: a seller's, or any buyer's. */
export function findAccountById(state: SandboxState, id: string): Account | undefined {
  const stored = state.accounts.get(id);
  if (stored) return stored;
  for (const owner of state.buyers.keys()) if (accountIdFor(owner) === id) return accountOf(state, owner);
  return undefined;
}

export interface EntrySpec {
  owner: string;
  operation: EntryOperation;
  /** Signed: what the balance moves by. */
  cents: number;
  description: string;
  transaction?: string | null;
  transfer?: string | null;
}

/** Moves an account's balance by one entry. */
export function postEntry(state: SandboxState, spec: EntrySpec, now: Date): BalanceEntry {
  const at = isoTimestamp(now);
  const type: Account['type'] = spec.owner === state.seller.id || state.sellers.get(spec.owner) ? 'seller' : 'buyer';
  const id = accountIdFor(spec.owner);
  let account = state.accounts.get(id);
  if (!account) state.accounts.put(id, (account = newAccount(state, spec.owner, type, at)));
  const balance = decimalToCents(account.current_balance) + spec.cents;
  account.current_balance = centsToDecimal(balance);
  account.updated_at = at;
  const entry: BalanceEntry = {
    id: newId(state),
    resource: 'balance_history',
    account: account.id,
    operation: spec.operation,
    type: spec.cents >= 0 ? 'credit' : 'debit',
    amount: centsToDecimal(spec.cents),
    balance: account.current_balance,
    currency: account.currency,
    description: spec.description,
    transaction: spec.transaction ?? null,
    transfer: spec.transfer ?? null,
    created_at: at,
  };
  state.balance_entries.append(entry);
  return entry;
}

/**
 * Brings every party's balance in line with the transaction: a sale that succeeds credits each
 * party (its seller, every split recipient) its part net of the fees it pays; a refund or a
 * chargeback debits what it took back of each part (fees returned with it). Call after every
 * change that moves money (through settleTransaction, in settle.ts).
 */
export function syncLedger(state: SandboxState, stored: StoredTransaction, now: Date): void {
  const { txn } = stored;
  const parts = partsOf(stored);
  const credited = stored.credited_by ?? {};
  // A recipient whose rule was removed is owed nothing any more.
  const targets = new Map<string, number>(Object.keys(credited).map((owner) => [owner, 0]));
  for (const part of parts) targets.set(part.owner, part.gross - part.fee);
  for (const [owner, target] of targets) {
    const own = owner === txn.on_behalf_of;
    const before = own ? stored.credited_cents : (credited[owner] ?? 0);
    const delta = target - before;
    if (delta === 0) continue;
    const share = own ? '' : ' (split part)';
    // The first entry of a sale is its sale entry, a debit when the part is smaller than its fees.
    const sale = delta > 0 || before === 0;
    const operation = sale ? 'sale' : txn.status === 'charged_back' ? 'chargeback' : 'refund';
    const description = sale ? `Sale ${txn.id} (${txn.payment_type})${share}, net of fees` : `${operation === 'refund' ? 'Refund' : 'Chargeback'} of ${txn.id}${share}`;
    postEntry(state, { owner, operation, cents: delta, description, transaction: txn.id }, now);
    if (own) stored.credited_cents = target;
    else stored.credited_by = { ...stored.credited_by, [owner]: target };
  }
}
