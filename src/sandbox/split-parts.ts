import { decimalToCents } from './money.js';
import type { SplitRule, StoredTransaction, TransactionStatus } from './types.js';

// How a sale's money is shared among its split rules' recipients and its seller: arithmetic only,
// apart from the rules' requests and routes (splits.ts), so that the ledger that pays the parts out
// and the rules that make them do not import each other.

/** A rule as a request gives it, checked. */
export interface SplitRuleSpec {
  recipient: string;
  liable: boolean;
  chargeProcessingFee: boolean;
  cents: number | null;
  /** Hundredths of a percent: 70% → 7000. */
  basisPoints: number | null;
}

/** What one party gets of a sale as it stands, in cents. */
export interface Part {
  owner: string;
  rule: SplitRule | null;
  gross: number;
  fee: number;
}

/** A rule's full part of a sale of `amount` cents. */
export function fullPart(rule: { cents: number | null; basisPoints: number | null }, amount: number): number {
  return rule.cents ?? Math.floor(((rule.basisPoints ?? 0) * amount) / 10_000);
}

export function specOf(rule: SplitRule): SplitRuleSpec {
  return {
    recipient: rule.recipient,
    liable: rule.liable,
    chargeProcessingFee: rule.charge_processing_fee,
    cents: rule.amount === null ? null : decimalToCents(rule.amount),
    basisPoints: rule.percentage === null ? null : Math.round(Number(rule.percentage) * 100),
  };
}

/**
 * Whether a sale in `status` holds the buyer's money: once it succeeded, and while a dispute of it
 * is open (the money stays with the seller until it is charged back).
 */
export function holdsMoney(status: TransactionStatus): boolean {
  return status === 'succeeded' || status === 'dispute';
}

/** What the sale holds of the buyer's money now: what remains of it, while it holds money. */
export function collectedCents(stored: StoredTransaction): number {
  return holdsMoney(stored.txn.status) ? stored.remaining_cents : 0;
}

/**
 * Every party's part of the sale as it stands: the recipients first, in rule order, then the
 * sale's seller with the rest. Nothing is collected unless the sale holds money.
 */
export function partsOf(stored: StoredTransaction): Part[] {
  const { txn } = stored;
  const collected = collectedCents(stored);
  const fees = collected > 0 ? decimalToCents(txn.fees) : 0;
  const amount = decimalToCents(txn.original_amount);
  const parts: Part[] = txn.split_rules.map((rule) => {
    const gross = amount > 0 ? Math.floor((fullPart(specOf(rule), amount) * collected) / amount) : 0;
    const fee = rule.charge_processing_fee && collected > 0 ? Math.floor((fees * gross) / collected) : 0;
    return { owner: rule.recipient, rule, gross, fee };
  });
  const given = parts.reduce((sum, p) => sum + p.gross, 0);
  const feesGiven = parts.reduce((sum, p) => sum + p.fee, 0);
  parts.push({ owner: txn.on_behalf_of, rule: null, gross: collected - given, fee: fees - feesGiven });
  return parts;
}
