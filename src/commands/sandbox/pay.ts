import type { Context } from '../../context.js';
import { validateId } from '../../validate/index.js';

export async function run(ctx: Context, args: string[]): Promise<void> {
  const id = validateId(args[0] ?? '', 'transaction id', '<transaction-id>');
  await ctx.requireApiKey();
  if (ctx.globals.dryRun) return ctx.printDryRun('transactions.approve', { params: { id } });
  await ctx.noteSandbox();
  const api = await ctx.api();
  const tx = await api.call<{ status?: string }>('transactions.approve', { params: { id } });
  await ctx.render(tx);
  ctx.log.status(`Transaction ${id} paid; status ${tx.status}`);
}
