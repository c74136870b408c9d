import type { Context } from '../../context.js';
import { when, type GuardedMove } from '../../ledger/guard.js';
import { formatMoney } from '../../output/format.js';
import { centsToDecimalString } from '../../validate/index.js';
import { amountFromFlags } from '../shared/amount.js';
import { snapshotOf, transactionMoveApplied } from './applied.js';
import { describePayer, getTransaction, transactionId, type Transaction } from './shared.js';
import { TRANSACTION_VIEW } from './view.js';

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
}

/**
 * Hold the transaction in the ledger, resolve what earlier runs left unresolved on it, look it
 * up (for the question and the default amount), ask, and send under the ledger's protocol
 * (src/ledger/guard.ts): a lost answer is settled by looking again, never by sending again.
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
  const guard = await ctx.moneyGuard();
  const guarded: GuardedMove<Transaction> = {
    key: `transaction:${id}`,
    operation: move.operation,
    target: id,
    requestedCents: requested ?? null,
    what: `the ${move.action} of transaction ${id}`,
    checkCommand: `payctl transactions get ${id} --fields status,amount,history`,
    look: () => getTransaction(ctx, id),
    applied: transactionMoveApplied,
  };
  await guard.guarded(
    guarded,
    async (repeat) => {
      await ctx.show(repeat.now, TRANSACTION_VIEW, { short: true });
      const amount = formatMoney(centsToDecimalString(repeat.intent.amount_cents ?? 0), repeat.now.currency);
      ctx.log.status(`Already done: the ${move.action} of ${amount} of transaction ${id} was applied by an earlier run (${when(repeat.intent.created_at)}) whose answer was lost; nothing was sent.`);
    },
    async () => {
      const before = await getTransaction(ctx, id);
      const body = move.build(before, requested, profile.sellerId);
      const shown = formatMoney(centsToDecimalString(body.amount), before.currency);
      const Action = move.action[0]!.toUpperCase() + move.action.slice(1);
      await ctx.confirm(`${Action} ${shown} of transaction ${id} (${describePayer(before)})?`, move.action);
      await ctx.noteSandbox();
      const api = await ctx.api();
      const after = await guard.send(
        guarded,
        { amount_cents: body.amount, before: JSON.stringify(snapshotOf(before)) },
        () => api.call<Transaction>(move.operation, { params: { id }, body }),
        (now) => now,
      );
      await ctx.show(after, TRANSACTION_VIEW, { short: true });
      ctx.log.status(`${move.done} ${shown} of transaction ${id}; status ${after.status}`);
    },
  );
}
