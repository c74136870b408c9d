import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { when, type GuardedMove } from '../../ledger/guard.js';
import { formatMoney } from '../../output/format.js';
import { transactionMoveApplied } from '../transactions/applied.js';
import { getTransaction, transactionId, type Transaction } from '../transactions/shared.js';

interface CancellationAnswer {
  status?: string;
  message?: string;
  [key: string]: unknown;
}

/** Canceling a boleto withdraws a charge: it goes through the ledger (src/ledger/guard.ts). */
export async function run(ctx: Context, args: string[]): Promise<void> {
  const id = transactionId(args);
  await ctx.requireApiKey();
  if (ctx.globals.dryRun) return ctx.printDryRun('boletos.cancel', { params: { id } });
  const guard = await ctx.moneyGuard();
  const guarded: GuardedMove<Transaction> = {
    key: `transaction:${id}`,
    operation: 'boletos.cancel',
    target: id,
    requestedCents: null,
    what: `the cancellation of the boleto of transaction ${id}`,
    checkCommand: `payctl transactions get ${id} --fields status,history`,
    look: () => getTransaction(ctx, id),
    applied: transactionMoveApplied,
  };
  await guard.guarded(
    guarded,
    async (repeat) => {
      await ctx.render(repeat.now);
      ctx.log.status(`Already done: the boleto of transaction ${id} was canceled by an earlier run (${when(repeat.intent.created_at)}) whose answer was lost; nothing was sent.`);
    },
    async () => {
      const tx = await getTransaction(ctx, id);
      if (tx.payment_type !== 'boleto' && tx.payment_type !== 'bolepix') {
        throw new UsageError(`transaction ${id} is a ${tx.payment_type ?? 'non-boleto'} payment; only a boleto can be canceled here (refund a card with 'payctl transactions refund')`);
      }
      await ctx.confirm(`Cancel the ${formatMoney(tx.amount ?? '0', tx.currency)} boleto of transaction ${id}?`, 'cancel a boleto');
      await ctx.noteSandbox();
      const api = await ctx.api();
      const result = await guard.send<CancellationAnswer, Transaction>(
        guarded,
        { before: JSON.stringify({ status: tx.status }) },
        () => api.call<CancellationAnswer>('boletos.cancel', { params: { id } }),
        (now) => ({ status: 'canceled', message: `The boleto of transaction ${id} is canceled (now ${now.status}).` }),
      );
      await ctx.render(result);
      ctx.log.status(result.message ?? `Cancellation of the boleto of transaction ${id} requested`);
    },
  );
}
