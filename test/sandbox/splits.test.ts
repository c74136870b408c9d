import { describe, expect, it } from 'vitest';
import { newSplitRule } from '../../src/sandbox/splits.js';
import { partsOf, type SplitRuleSpec } from '../../src/sandbox/split-parts.js';
import type { SandboxState, StoredTransaction } from '../../src/sandbox/types.js';

// How a split sale's money is shared (docs/marketplace-and-splits.md, "Split rules"): in integer cents, the parts always
// add up to exactly what remains and the fees to exactly the sale's fees, whatever the rounding.
/** What a split rule's id is asked of: a state whose session counts ids. */
const state = { session: { mint: (() => { let n = 0; return () => `rule-${(n += 1)}`; })() } } as unknown as SandboxState;
const cents = (n: number) => `${Math.floor(n / 100)}.${String(n % 100).padStart(2, '0')}`;

function sale(amount: number, remaining: number, fees: number, rules: SplitRuleSpec[]): StoredTransaction {
  const txn = {
    id: 't1',
    status: 'succeeded',
    original_amount: cents(amount),
    amount: cents(remaining),
    fees: cents(fees),
    on_behalf_of: 'seller',
    split_rules: rules.map((r) => newSplitRule(state, r, 't1', '2026-01-01T00:00:00.000Z')),
  };
  return { seq: 1, created_ms: 0, remaining_cents: remaining, card_id: null, txn } as unknown as StoredTransaction;
}

const percent = (recipient: string, basisPoints: number, chargeProcessingFee = true): SplitRuleSpec => ({ recipient, liable: false, chargeProcessingFee, cents: null, basisPoints });

describe('partsOf', () => {
  it('three thirds of R$ 100,01: the cents rounded away go to the sale’s seller, fees shared the same way', () => {
    const parts = partsOf(sale(10_001, 10_001, 299, [percent('a', 3333), percent('b', 3333), percent('c', 3333)]));
    expect(parts.map((p) => [p.owner, p.gross, p.fee])).toEqual([
      ['a', 3333, 99],
      ['b', 3333, 99],
      ['c', 3333, 99],
      ['seller', 2, 2],
    ]);
  });

  it('for every refund of a split sale, the parts add up to what remains and the fees to the fees', () => {
    const rules = [percent('a', 7000), { recipient: 'b', liable: true, chargeProcessingFee: false, cents: 1234, basisPoints: null }, percent('c', 1, false)];
    for (let remaining = 0; remaining <= 10_000; remaining += 37) {
      const fees = Math.round((remaining * 299) / 10_000);
      const parts = partsOf(sale(10_000, remaining, fees, rules));
      expect(parts.reduce((t, p) => t + p.gross, 0)).toBe(remaining);
      expect(parts.reduce((t, p) => t + p.fee, 0)).toBe(remaining === 0 ? 0 : fees);
      // Each recipient's part is its full part scaled to what remains, rounded down.
      expect(parts[0]!.gross).toBe(Math.floor((7000 * remaining) / 10_000));
      expect(parts[1]!.gross).toBe(Math.floor((1234 * remaining) / 10_000));
      expect(parts[1]!.fee).toBe(0);
      expect(parts.every((p) => p.gross >= 0 && p.fee >= 0)).toBe(true);
    }
  });
});
