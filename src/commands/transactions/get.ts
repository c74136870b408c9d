import type { Context } from '../../context.js';
import { getTransaction, transactionId } from './shared.js';

export async function run(ctx: Context, args: string[]): Promise<void> {
  const id = transactionId(args);
  await ctx.requireApiKey();
  await ctx.render(await getTransaction(ctx, id));
}
