import { syncLedger } from './ledger.js';
import { syncReceivables } from './receivables.js';
import type { SandboxState, StoredTransaction } from './types.js';

/**
 * Everything that follows from a change that moved a transaction's money: its receivables (what
 * the seller will be paid, and when) and the seller's balance. Call after every such change.
 */
export function settleTransaction(state: SandboxState, stored: StoredTransaction, now: Date): void {
  syncReceivables(state, stored, now);
  syncLedger(state, stored, now);
}
