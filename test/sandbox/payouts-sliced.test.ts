// Payouts in slices: `sandbox generate` pays out a day's receivables a slice at a time, each
// slice a change of its own, so that a day of a million-sale volume is not held in memory whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catchUp } from '../../src/sandbox/catch-up.js';
import { runPayouts } from '../../src/sandbox/payouts.js';
import { mutateState, readState, readStateFiles } from '../../src/sandbox/store.js';
import type { StoredState } from '../../src/sandbox/types.js';
import { directCardBody, freshSandbox, type Fresh } from './helpers.js';

const start = new Date('2026-11-22T10:00:00.000Z');
let clock = start;
const now = () => clock;
let fresh: Fresh;

beforeAll(async () => {
  fresh = await freshSandbox(now);
  for (let i = 0; i < 5; i += 1) expect((await fresh.api.post('/v1/transactions', directCardBody(undefined, 1000 + i))).status).toBe(201);
});
afterAll(async () => {
  await fresh.close();
});

describe('runPayouts with a limit', () => {
  it('pays out at most the limit per call, keeps the payout due until the last slice, then moves it on', async () => {
    // Single-installment card sales are paid out 30 days on.
    const later = new Date(start.getTime() + 31 * 86_400_000);
    const due = (await readState(fresh.dir, now)).payouts.next;
    expect(due).not.toBeNull();
    const slices: Array<{ made: number; more: boolean; next: string | null }> = [];
    for (let i = 0; i < 5; i += 1) {
      const slice = await mutateState(fresh.dir, now, (state) => {
        const { made, more } = runPayouts(state, later, 2);
        return { made: made.length, more, next: state.payouts.next };
      });
      slices.push(slice);
      if (!slice.more) break;
    }
    expect(slices).toEqual([
      { made: 2, more: true, next: due },
      { made: 2, more: true, next: due },
      { made: 1, more: false, next: null },
    ]);
    // Every sale paid out once: five transfers, no receivable left pending.
    const state = (await readStateFiles(fresh.dir)) as StoredState;
    expect(Object.values(state.transfers).filter((t) => t.type === 'automatic')).toHaveLength(5);
    expect(Object.values(state.receivables).filter((r) => r.status === 'pending')).toHaveLength(0);
  });

  it('catchUp stops at the limit and says more is due; called again, it finishes', async () => {
    for (let i = 0; i < 3; i += 1) expect((await fresh.api.post('/v1/transactions', directCardBody(undefined, 2000 + i))).status).toBe(201);
    const later = new Date(start.getTime() + 62 * 86_400_000);
    const first = await mutateState(fresh.dir, now, (state) => catchUp(state, later, { payoutLimit: 2 }));
    expect(first.transfers).toHaveLength(2);
    expect(first.more).toBe(true);
    const second = await mutateState(fresh.dir, now, (state) => catchUp(state, later, { payoutLimit: 2 }));
    expect(second.transfers).toHaveLength(1);
    expect(second.more).toBeUndefined();
    clock = later;
  });
});
