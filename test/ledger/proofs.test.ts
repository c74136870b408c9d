import { describe, expect, it } from 'vitest';
import { checkMoveAnswer, describeEarlier, earlierMoves, transactionMoveProof } from '../../src/commands/transactions/applied.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import { when } from '../../src/ledger/time.js';
import type { Intent } from '../../src/ledger/types.js';
import type { Transaction } from '../../src/commands/transactions/shared.js';

// What proves a money move on a transaction applied: only a change that identifies that very
// move. Someone else's refund, a refund another intent already claimed, or one of several that
// cannot be told apart, is not proof.

const ID = 't'.repeat(32);
const auth = { id: 'h1', operation_type: 'authorization', status: 'succeeded', amount: '10.00' };
const before = JSON.stringify({ amount: '10.00', status: 'succeeded', history: [{ id: 'h1', operation_type: 'authorization' }] });

let nextId = 1;
function intent(fields: Partial<Intent> = {}): Intent {
  return {
    id: nextId++,
    key: `transaction:${ID}`,
    operation: 'transactions.void',
    target: ID,
    requested_cents: 400,
    amount_cents: 400,
    before,
    fingerprint: null,
    batch: null,
    batch_name: null,
    row: null,
    state: 'pending',
    detail: null,
    proof: null,
    created_at: Date.parse('2026-11-24T17:57:03Z'),
    settle_until: null,
    updated_at: 0,
    holder: 'ana@caixa-2',
    operator_name: null,
    agent: null,
    session: null,
    pid: 4242,
    ...fields,
  };
}

const tx = (amount: string, history: object[], status = 'succeeded'): Transaction => ({ id: ID, status, amount, history }) as Transaction;
const voidOf = (id: string, amount: string, status = 'succeeded') => ({ id, operation_type: 'void', status, amount, created_at: '2026-11-24T17:58:00.000Z' });
const ledger = { local: (ms: number) => ms } as unknown as Ledger;

describe('a refund is proven by a void of exactly its amount, new since it was sent, that no other intent claimed', () => {
  it('its own void: applied, naming it', () => {
    expect(transactionMoveProof(intent(), tx('6.00', [auth, voidOf('v1', '4.00')]), [])).toEqual({ kind: 'applied', proof: 'v1' });
  });

  it('an old void, a void of another amount, a failed void, another sale: not seen', () => {
    const old = intent({ before: JSON.stringify({ history: [{ id: 'h1' }, { id: 'v0' }] }) });
    expect(transactionMoveProof(old, tx('6.00', [auth, voidOf('v0', '4.00')]), [])).toEqual({ kind: 'not_seen' });
    expect(transactionMoveProof(intent(), tx('5.00', [auth, voidOf('v1', '5.00')]), [])).toEqual({ kind: 'not_seen' });
    expect(transactionMoveProof(intent(), tx('10.00', [auth, voidOf('v1', '4.00', 'failed')]), [])).toEqual({ kind: 'not_seen' });
    expect(transactionMoveProof(intent({ target: 'o'.repeat(32) }), tx('6.00', [auth, voidOf('v1', '4.00')]), [])).toEqual({ kind: 'not_seen' });
    // The amount going down is no proof at all: someone else refunded.
    expect(transactionMoveProof(intent(), tx('6.00', [auth]), [])).toEqual({ kind: 'not_seen' });
  });

  it('a void another intent claimed is that one\'s, not this one\'s', () => {
    const theirs = intent({ state: 'applied', proof: 'v1' });
    expect(transactionMoveProof(intent(), tx('6.00', [auth, voidOf('v1', '4.00')]), [theirs])).toEqual({ kind: 'not_seen' });
  });

  it('two unresolved refunds of one amount and one new void: it cannot be told whose; two voids: both applied', () => {
    const mine = intent();
    const other = intent();
    const one = transactionMoveProof(mine, tx('6.00', [auth, voidOf('v1', '4.00')]), [other]);
    expect(one).toEqual({ kind: 'ambiguous', why: '1 new void entry of R$ 4,00 for 2 unresolved voids of that amount: which is this one\'s cannot be told' });
    expect(transactionMoveProof(mine, tx('2.00', [auth, voidOf('v1', '4.00'), voidOf('v2', '4.00')]), [other])).toEqual({ kind: 'applied', proof: 'v1' });
  });

  it('a capture is proven by a capture of its amount, never by the status moving on (voided elsewhere)', () => {
    const preAuth = JSON.stringify({ amount: '10.00', status: 'pre_authorized', history: [{ id: 'h1' }] });
    const capture = intent({ operation: 'transactions.capture', amount_cents: 1000, before: preAuth });
    expect(transactionMoveProof(capture, tx('10.00', [auth, { id: 'c1', operation_type: 'capture', status: 'succeeded', amount: '10.00' }]), [])).toEqual({ kind: 'applied', proof: 'c1' });
    expect(transactionMoveProof(capture, tx('0.00', [auth, voidOf('v1', '10.00')], 'canceled'), [])).toEqual({ kind: 'not_seen' });
  });
});

describe("the service's answer to a refund must be that refund", () => {
  it('the same sale with its new void: applied; another sale, or no void of its amount: a mismatch, whatever its shape', () => {
    expect(checkMoveAnswer(intent(), tx('6.00', [auth, voidOf('v1', '4.00')]), [])).toEqual({ kind: 'applied', proof: 'v1' });
    expect(checkMoveAnswer(intent(), { ...tx('6.00', [auth, voidOf('v1', '4.00')]), id: 'o'.repeat(32) }, [])).toMatchObject({ kind: 'mismatch', why: `it is transaction ${'o'.repeat(32)}, not ${ID}` });
    expect(checkMoveAnswer(intent(), tx('5.00', [auth, voidOf('v9', '5.00')]), [])).toEqual({ kind: 'mismatch', why: 'it shows no new void of R$ 4,00 (its amount went from R$ 10,00 to R$ 5,00)' });
  });
});

describe('what was already done on a sale', () => {
  it("payctl's applied refunds, then voids in the sale's history that no intent accounts for", () => {
    const mine = intent({ state: 'applied', proof: 'v1', batch_name: 'refunds-nov.csv' });
    const now = { history: [auth, voidOf('v1', '4.00'), voidOf('v2', '5.00')] } as never;
    const moves = earlierMoves([mine], 'transactions.void', now, ledger);
    expect(moves.map((m) => [m.cents, m.intent?.id ?? null])).toEqual([
      [400, mine.id],
      [500, null],
    ]);
    // Always with its date and its offset from UTC: a move named days later, or read in another zone.
    expect(describeEarlier([moves[0]!], 'transactions.void')).toMatch(/^already refunded R\$ 4,00 by payctl on \d{4}-\d\d-\d\d at \d\d:\d\d:\d\d (UTC|[+-]\d\d(:\d\d)?) \(ana@caixa-2, batch refunds-nov\.csv\)$/);
    expect(describeEarlier(moves, 'transactions.void')).toMatch(/^already refunded R\$ 5,00 on .* at .*\(in the sale's history, not in payctl's ledger\), and 1 more time before$/);
  });

  it('who made it and which file, as a shared ledger has them, reach a terminal without control characters', () => {
    const odd = intent({ state: 'applied', proof: 'v1', holder: 'ana@caixa\x1b]0;pwned\x07-2', batch_name: 'nov\x1b[2J.csv' });
    const [move] = earlierMoves([odd], 'transactions.void', { history: [auth, voidOf('v1', '4.00')] } as never, ledger);
    expect(describeEarlier([move!], 'transactions.void')).toMatch(/ \(ana@caixa-2, batch nov\.csv\)$/);
  });

  it('an earlier move is named with its date and its offset from UTC, in the zone payctl shows times in', () => {
    const zone = process.env.TZ;
    try {
      const at = Date.parse('2026-11-28T06:06:21Z');
      process.env.TZ = 'America/Sao_Paulo';
      expect(when(at)).toBe('on 2026-11-28 at 03:06:21 -03');
      process.env.TZ = 'Asia/Kolkata';
      expect(when(at)).toBe('on 2026-11-28 at 11:36:21 +05:30');
      process.env.TZ = 'UTC';
      expect(when(at)).toBe('on 2026-11-28 at 06:06:21 UTC');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it("this run's own refunds are not earlier ones; refused and unresolved intents are not refunds", () => {
    const thisRun = intent({ state: 'applied', proof: 'v1' });
    const refused = intent({ state: 'refused' });
    const open = intent({ state: 'unknown' });
    const now = { history: [auth, voidOf('v1', '4.00')] } as never;
    expect(earlierMoves([thisRun, refused, open], 'transactions.void', now, ledger, new Set([thisRun.id]))).toEqual([]);
  });
});
