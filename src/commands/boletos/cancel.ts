import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { formatMoney } from '../../output/format.js';
import { getTransaction, transactionId } from '../transactions/shared.js';

export async function run(ctx: Context, args: string[]): Promise<void> {
  const id = transactionId(args);
  await ctx.requireApiKey();
  if (ctx.globals.dryRun) return ctx.printDryRun('boletos.cancel', { params: { id } });
  const tx = await getTransaction(ctx, id);
  if (tx.payment_type !== 'boleto' && tx.payment_type !== 'bolepix') {
    throw new UsageError(`transaction ${id} is a ${tx.payment_type ?? 'non-boleto'} payment; only a boleto can be canceled here (refund a card with 'payctl transactions refund')`);
  }
  await ctx.confirm(`Cancel the ${formatMoney(tx.amount ?? '0', tx.currency)} boleto of transaction ${id}?`, 'cancel a boleto');
  await ctx.noteSandbox();
  const result = await (await ctx.api()).call<{ message?: string }>('boletos.cancel', { params: { id } });
  await ctx.render(result);
  ctx.log.status(result.message ?? `Cancellation of the boleto of transaction ${id} requested`);
}
