import { SANDBOX_BUYER_ID } from '../provider/sandbox-account.js';
import { accountIdFor, netCredit, newAccount } from './ledger.js';
import { SELLER_DOCUMENTS } from './seed.js';
import type { Buyer, Replay, SandboxState } from './types.js';

// State files written by earlier payctl versions lack what later ones added. Filling the gaps on
// read keeps a user's sandbox (its transactions, buyers and cards) across an upgrade instead of
// making them reset it.

type OldBuyer = Partial<Buyer> & { default_credit_card?: string | null };

/** Receivables of transactions from before they were indexed, found in one pass. */
function indexReceivables(state: SandboxState): void {
  const unindexed = state.transactions.filter((stored) => stored.receivable_indexes === undefined);
  if (unindexed.length === 0) return;
  const byTransaction = new Map<string, number[]>();
  state.receivables.forEach((r, i) => {
    const list = byTransaction.get(r.transaction);
    if (list) list.push(i);
    else byTransaction.set(r.transaction, [i]);
  });
  for (const stored of unindexed) stored.receivable_indexes = byTransaction.get(stored.txn.id) ?? [];
}

export function upgradeState(state: SandboxState): SandboxState {
  // Sellers before the sellers API: the seeded one is shown from `seller` (sellers.ts).
  state.sellers ??= {};
  state.sources ??= {};
  state.receivables ??= [];
  state.deliveries ??= [];
  state.plans ??= {};
  state.subscriptions ??= {};
  state.invoices ??= {};
  state.accounts ??= {};
  const sellerAccount = accountIdFor(state.seller.id);
  // Sales made before the ledger existed are not in it: the account starts at zero from here.
  state.accounts[sellerAccount] ??= newAccount(state, state.seller.id, 'seller', state.buyers[SANDBOX_BUYER_ID]?.created_at ?? new Date(0).toISOString());
  for (const stored of state.transactions) stored.credited_cents ??= netCredit(stored);
  indexReceivables(state);
  state.balance_entries ??= [];
  state.transfers ??= [];
  // Receivables of an older state are not paid out: it kept no ledger to pay them from.
  state.payouts ??= { next: null };
  state.events ??= [];
  state.webhooks ??= {};
  state.replays ??= {};
  // Replays were a list before they were kept by id.
  if (Array.isArray(state.replays)) state.replays = Object.fromEntries((state.replays as Replay[]).map((r) => [r.id, r]));
  // A state from before the sandbox clock ran on real time: it starts with no offset.
  state.clock ??= { offset_seconds: 0 };
  state.seller.taxpayer_id ??= SELLER_DOCUMENTS.taxpayer_id;
  state.seller.address ??= { ...SELLER_DOCUMENTS.address };
  for (const buyer of Object.values(state.buyers) as OldBuyer[]) {
    if (buyer.default_credit === undefined) {
      buyer.default_credit = buyer.default_credit_card ?? null;
      delete buyer.default_credit_card;
    }
    buyer.description ??= null;
    buyer.metadata ??= {};
  }
  return state;
}
