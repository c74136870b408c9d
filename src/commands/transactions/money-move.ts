import { UncertainOutcomeError } from '../../api/client.js';
import type { Context } from '../../context.js';
import { NetworkError, OutcomeUnknownError } from '../../errors.js';
import { formatMoney } from '../../output/format.js';
import { centsToDecimalString } from '../../validate/index.js';
import { amountFromFlags } from '../shared/amount.js';
import { describePayer, getTransaction, transactionId, type Transaction } from './shared.js';

export interface MoneyBody {
  on_behalf_of: string;
  amount: number;
}

/** What differs between a refund and a capture; the flow around them is the same. */
export interface MoneyMove {
  operation: 'transactions.void' | 'transactions.capture';
  /** "refund", "capture": used in the question, the messages and `--yes required to …`. */
  action: string;
  done: string;
  /** What the amount defaults to, for a dry run (which reads nothing to work it out). */
  defaultAmount: string;
  build(tx: Transaction, requestedCents: number | undefined, fallbackSeller?: string): MoneyBody;
  /** After a lost answer: does the transaction as it is now show the operation applied? */
  applied(before: Transaction, now: Transaction, cents: number): boolean;
}

/**
 * Look the transaction up (for the question and the default amount), ask, send, and when the
 * answer is lost, look again to tell whether the money moved.
 */
export async function runMoneyMove(ctx: Context, args: string[], options: Record<string, unknown>, move: MoneyMove): Promise<void> {
  const id = transactionId(args);
  const requested = amountFromFlags(options);
  await ctx.requireApiKey();
  const profile = await ctx.profile();
  if (ctx.globals.dryRun) {
    // A dry run sends nothing at all, not even the read that finds the seller and the amount.
    const body = { on_behalf_of: "(the transaction's seller)", amount: requested ?? move.defaultAmount };
    return ctx.printDryRun(move.operation, { params: { id }, body });
  }
  const before = await getTransaction(ctx, id);
  const body = move.build(before, requested, profile.sellerId);
  const shown = formatMoney(centsToDecimalString(body.amount), before.currency);
  const Action = move.action[0]!.toUpperCase() + move.action.slice(1);
  await ctx.confirm(`${Action} ${shown} of transaction ${id} (${describePayer(before)})?`, move.action);
  await ctx.noteSandbox();
  const api = await ctx.api();
  let after: Transaction;
  try {
    after = await api.call<Transaction>(move.operation, { params: { id }, body });
  } catch (err) {
    if (!(err instanceof UncertainOutcomeError)) throw err;
    after = await reconcile(ctx, before, body.amount, move, err);
  }
  await ctx.render(after);
  ctx.log.status(`${move.done} ${shown} of transaction ${id}; status ${after.status}`);
}

async function reconcile(ctx: Context, before: Transaction, cents: number, move: MoneyMove, cause: Error): Promise<Transaction> {
  ctx.log.warn(`${cause.message}; checking whether the ${move.action} was applied`);
  let now: Transaction;
  try {
    now = await getTransaction(ctx, before.id);
  } catch {
    throw new OutcomeUnknownError(
      `could not tell whether the ${move.action} of transaction ${before.id} was applied; check with: payctl transactions get ${before.id} --fields status,amount,captured,history`,
      { cause },
    );
  }
  if (move.applied(before, now, cents)) {
    ctx.log.status(`The ${move.action} was applied (confirmed from the transaction, now ${now.status}).`);
    return now;
  }
  throw new NetworkError(
    `the ${move.action} was not applied: transaction ${before.id} is unchanged (${cause.message}); it is safe to run the ${move.action} again`,
    { cause },
  );
}
