import { findAllBy } from './db/queries.js';
import { chargeBack, closeDisputeForSeller, openDispute } from './disputes.js';
import { SandboxError } from './errors.js';
import { decimalToCents } from './money.js';
import { approve, planVoid, type TransactionChange } from './transactions.js';
import type { SandboxState, StoredTransaction } from './types.js';
import type { FollowUp } from './volume-sales.js';

// What happens to generated sales after they are made (volume-sales.ts), in the order it happens:
// a boleto paid, a refund, a dispute opened and settled. Each runs through the same change a
// request would make (a refund is a void, with its receivables and balance entries), so the books
// of a generated volume add up as any others do.

/** The reference_id of generated sale number `sale` (from 0): what a later part of its volume finds it by. */
export function referenceOf(sale: number): string {
  return `generated-${sale + 1}`;
}

/** A follow-up of sale number `sale`, due `at` milliseconds into the volume. */
export interface Due {
  at: number;
  sale: number;
  followUp: FollowUp;
  /** Where the sale is stored, when this part of the volume made it. */
  position?: number;
}

/** Earlier first; at the same moment, the earlier sale's first (a sale's own follow-ups never share a moment). */
const before = (a: Due, b: Due) => a.at < b.at || (a.at === b.at && a.sale < b.sale);

/** The follow-ups waiting for their moment, soonest first (a binary heap). */
export class FollowUpQueue {
  private readonly heap: Due[] = [];

  push(due: Due): void {
    const { heap } = this;
    heap.push(due);
    for (let i = heap.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i] as Due, heap[parent] as Due)) break;
      [heap[i], heap[parent]] = [heap[parent] as Due, heap[i] as Due];
      i = parent;
    }
  }

  peek(): Due | undefined {
    return this.heap[0];
  }

  pop(): Due | undefined {
    const { heap } = this;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length === 0 || last === undefined) return top;
    heap[0] = last;
    for (let i = 0; ; ) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < heap.length && before(heap[left] as Due, heap[least] as Due)) least = left;
      if (right < heap.length && before(heap[right] as Due, heap[least] as Due)) least = right;
      if (least === i) break;
      [heap[i], heap[least]] = [heap[least] as Due, heap[i] as Due];
      i = least;
    }
    return top;
  }
}

/** A refund of `share` basis points of what the sale was sold for (all that is left, at 10,000). */
function refund(share: number): TransactionChange {
  return (stored, state, now) => {
    const whole = decimalToCents(stored.txn.original_amount);
    const cents = share >= 10_000 ? stored.remaining_cents : Math.min(stored.remaining_cents, Math.max(1, Math.round((whole * share) / 10_000)));
    planVoid({ on_behalf_of: stored.txn.on_behalf_of, amount: cents })(stored, state, now);
  };
}

const CHANGES: Record<FollowUp['kind'], (followUp: FollowUp) => TransactionChange> = {
  pay: () => approve,
  refund: (followUp) => refund(followUp.share ?? 10_000),
  dispute: () => openDispute,
  chargeback: () => chargeBack,
  dispute_lost: () => closeDisputeForSeller,
};

/** The generated sale a follow-up is of: where this part stored it, else the newest with its reference. */
function saleOf(state: SandboxState, due: Due): StoredTransaction | undefined {
  if (due.position !== undefined) return state.transactions.at(due.position);
  return findAllBy<StoredTransaction>(state, 'transactions', { reference_id: referenceOf(due.sale) }).at(-1);
}

/**
 * Runs a follow-up at `at`. One its sale no longer allows (someone refunded it meanwhile, its card
 * was declined) is left out: each change refuses before it changes anything.
 */
export function runFollowUp(state: SandboxState, due: Due, at: Date): void {
  const stored = saleOf(state, due);
  if (!stored) return;
  try {
    CHANGES[due.followUp.kind](due.followUp)(stored, state, at);
  } catch (err) {
    if (!(err instanceof SandboxError)) throw err;
  }
}
