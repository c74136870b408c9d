// What proves a refund or a capture went through, and what was already done on a sale. A lost
// answer is settled as applied only by a change that identifies this move: a void (or capture)
// of exactly its amount, new since the snapshot taken before it was sent, that no other intent
// of the ledger has claimed; when several moves of that amount are unresolved, only as many new
// entries as there are moves prove them all. Someone else's refund is never proof of ours.
import { appliedEarlier, type AnswerCheck, type MoveProof } from '../../ledger/guard.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { Proof } from '../../ledger/settle.js';
import { when } from '../../ledger/time.js';
import { withoutControls } from '../../platform/control-chars.js';
import { UNRESOLVED, type Intent } from '../../ledger/types.js';
import { formatMoney } from '../../output/format.js';
import { centsToDecimalString, decimalStringToCents } from '../../validate/index.js';
import type { Transaction } from './shared.js';

/** What the ledger keeps of a transaction before moving its money: no card data. */
export interface Snapshot {
  amount?: string | null;
  status?: string | null;
  on_behalf_of?: string | null;
  /** Only what tells a new entry from an old one: a batch of 10,000 rows keeps 10,000 of these. */
  history?: Array<{ id?: string | null; operation_type?: string | null }> | null;
}

type Entry = NonNullable<Transaction['history']>[number];

export function snapshotOf(tx: Snapshot): Snapshot {
  return { amount: tx.amount ?? '0', status: tx.status ?? '', history: (tx.history ?? []).map((h) => ({ id: h.id, operation_type: h.operation_type })) };
}

export function beforeOf(intent: Pick<Intent, 'before'>): Snapshot {
  return JSON.parse(intent.before ?? '{}') as Snapshot;
}

const ENTRY_OF: Record<string, string> = { 'transactions.void': 'void', 'transactions.capture': 'capture' };

const centsOf = (amount: string | null | undefined) => {
  try {
    return decimalStringToCents(amount ?? '');
  } catch {
    return -1;
  }
};

/** Entries of `type` and exactly `cents`, succeeded, that were not in `before`. */
function newEntries(before: Snapshot, now: Transaction, type: string, cents: number | null): Entry[] {
  const seen = new Set((before.history ?? []).map((h) => h.id));
  return (now.history ?? []).filter((h) => h.operation_type === type && h.status === 'succeeded' && h.id !== undefined && !seen.has(h.id) && centsOf(h.amount) === cents);
}

/**
 * Whether `now` proves `intent` (a refund or a capture) applied: one of its new entries that no
 * other intent claimed, with at least as many of them as unresolved moves of the same kind and
 * amount that could claim them too.
 */
function entryProof(intent: Intent, now: Transaction, others: Intent[]): Proof {
  const type = ENTRY_OF[intent.operation] as string;
  const claimed = new Set(others.map((o) => o.proof).filter((p): p is string => p !== null));
  const candidates = newEntries(beforeOf(intent), now, type, intent.amount_cents).filter((h) => !claimed.has(h.id as string));
  if (candidates.length === 0) return { kind: 'not_seen' };
  const rivals = others.filter(
    (o) =>
      UNRESOLVED.includes(o.state) &&
      o.operation === intent.operation &&
      o.amount_cents === intent.amount_cents &&
      candidates.some((c) => !(beforeOf(o).history ?? []).some((h) => h.id === c.id)),
  ).length;
  if (candidates.length > rivals) return { kind: 'applied', proof: candidates[0]?.id ?? null };
  const amount = formatMoney(centsToDecimalString(intent.amount_cents ?? 0));
  return {
    kind: 'ambiguous',
    why: `${candidates.length} new ${type} ${candidates.length === 1 ? 'entry' : 'entries'} of ${amount} for ${rivals + 1} unresolved ${type}s of that amount: which is this one's cannot be told`,
  };
}

/**
 * Whether `now` shows the move `intent` stands for applied, by the intent's own operation: a
 * capture run after a refund whose answer was lost must judge that refund as a refund.
 */
export function transactionMoveProof(intent: Intent, now: Transaction, others: Intent[]): Proof {
  if (now.id !== intent.target) return { kind: 'not_seen' };
  switch (intent.operation) {
    case 'transactions.void':
    case 'transactions.capture':
      return entryProof(intent, now, others);
    case 'boletos.cancel': {
      // A boleto is canceled once: whoever asked, the charge is withdrawn.
      const canceled = now.status === 'canceled' && beforeOf(intent).status !== 'canceled';
      const entry = newEntries(beforeOf(intent), now, 'cancellation', centsOf(now.original_amount ?? now.amount)).at(0);
      return canceled ? { kind: 'applied', proof: entry?.id ?? null } : { kind: 'not_seen' };
    }
    default:
      return { kind: 'not_seen' };
  }
}

/**
 * Whether the service's answer to a refund or a capture is that move: the same sale, with a new
 * entry of exactly the amount (or, where the answer carries no history, the amount changed by
 * exactly that much). Anything else is not proof, however well it is shaped.
 */
export function checkMoveAnswer(intent: Intent, answer: Transaction, others: Intent[]): AnswerCheck {
  if (!answer || answer.id !== intent.target) return { kind: 'mismatch', why: `it is transaction ${answer?.id ?? '(none)'}, not ${intent.target}` };
  const proof = entryProof(intent, answer, others);
  if (proof.kind === 'applied') return proof;
  const before = beforeOf(intent);
  const cents = intent.amount_cents ?? 0;
  const was = centsOf(before.amount);
  const is = centsOf(answer.amount);
  if (intent.operation === 'transactions.void' && answer.history === undefined && was - is === cents) return { kind: 'applied', proof: null };
  if (intent.operation === 'transactions.capture' && answer.history === undefined && answer.status === 'succeeded' && is === cents) return { kind: 'applied', proof: null };
  const money = (c: number) => formatMoney(centsToDecimalString(Math.max(0, c)));
  return intent.operation === 'transactions.void'
    ? { kind: 'mismatch', why: `it shows no new void of ${money(cents)} (its amount went from ${money(was)} to ${money(is)})` }
    : { kind: 'mismatch', why: `it shows no capture of ${money(cents)} (status ${answer.status ?? 'unknown'}, amount ${money(is)})` };
}

/** How a refund or capture of a sale is proven to have landed: by its answer, or by the sale looked up with `look`. */
export function transactionProof(look: () => Promise<Transaction>): MoveProof<Transaction, Transaction> {
  return { look, proves: transactionMoveProof, answered: checkMoveAnswer, seen: (now) => now };
}

/** One earlier move on a sale, as a person is told of it. */
export interface EarlierMove {
  cents: number | null;
  /** This machine's clock. */
  at: number;
  /** Written in payctl's ledger (by any profile, machine or batch sharing it). */
  intent?: Intent;
}

/**
 * What was already done of `operation` on a transaction: the ledger's applied intents (other than
 * `exclude`, this run's own), and, for refunds, the voids in the sale's own history that no
 * intent claimed (made by someone without payctl, or by a payctl keeping another ledger).
 * Oldest first.
 */
export function earlierMoves(memory: Intent[], operation: string, now: Snapshot & { history?: Transaction['history'] } | undefined, ledger: Ledger, exclude: ReadonlySet<number> = new Set()): EarlierMove[] {
  const mine = appliedEarlier(memory, operation, exclude);
  const moves: EarlierMove[] = mine.map((intent) => ({ cents: intent.amount_cents, at: ledger.local(intent.created_at), intent }));
  const type = ENTRY_OF[operation];
  if (type === 'void' && now?.history) {
    // Voids no intent claimed, less those an applied intent with no proof may stand for.
    const claimed = new Set(memory.map((i) => i.proof).filter((p): p is string => p !== null));
    const unclaimed = (now.history as Entry[]).filter((h) => h.operation_type === type && h.status === 'succeeded' && !claimed.has(h.id as string));
    const unproven = memory.filter((i) => i.state === 'applied' && i.operation === operation && i.proof === null).length;
    for (const entry of unclaimed.slice(Math.min(unclaimed.length, unproven))) {
      const at = Date.parse(String((entry as { created_at?: string }).created_at ?? ''));
      moves.push({ cents: centsOf(entry.amount), at: Number.isNaN(at) ? 0 : at });
    }
  }
  return moves.sort((a, b) => a.at - b.at);
}

const PAST: Record<string, string> = { 'transactions.void': 'refunded', 'transactions.capture': 'captured', 'boletos.cancel': 'canceled' };

/**
 * The latest earlier move, and how many more: `R$ 3,00 by payctl on 2026-11-28 at 17:57:03 -03
 * (ana@caixa-2, batch refunds-nov.csv), and 1 more time before`.
 */
export function earlierDetail(moves: EarlierMove[], currency?: string | null): string {
  const last = moves.at(-1) as EarlierMove;
  const amount = last.cents !== null && last.cents >= 0 ? `${formatMoney(centsToDecimalString(last.cents), currency)} ` : '';
  // Who and which file, as the ledger has them: a shared ledger's are another machine's words.
  const where = last.intent
    ? `by payctl ${when(last.at)} (${withoutControls(last.intent.holder)}${last.intent.batch_name ? `, batch ${withoutControls(last.intent.batch_name)}` : ''})`
    : `${last.at > 0 ? `${when(last.at)} ` : ''}(in the sale's history, not in payctl's ledger)`;
  const more = moves.length > 1 ? `, and ${moves.length - 1} more time${moves.length > 2 ? 's' : ''} before` : '';
  return `${amount}${where}${more}`;
}

/** `already refunded R$ 3,00 by payctl on 2026-11-28 at 17:57:03 -03 (ana@caixa-2, batch refunds-nov.csv)`, and how many more. */
export function describeEarlier(moves: EarlierMove[], operation: string, currency?: string | null): string {
  return `already ${PAST[operation] ?? 'done'} ${earlierDetail(moves, currency)}`;
}

/** What the earlier moves came to in all, or undefined when one of them has no amount payctl can read. */
export function earlierTotal(moves: EarlierMove[]): number | undefined {
  let total = 0;
  for (const move of moves) {
    if (move.cents === null || move.cents < 0) return undefined;
    total += move.cents;
  }
  return total;
}
