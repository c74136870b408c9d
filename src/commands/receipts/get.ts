import type { Context } from '../../context.js';
import { validateId } from '../../validate/index.js';

export async function run(ctx: Context, args: string[]): Promise<void> {
  const id = validateId(args[0] ?? '', 'receipt id', '<id>');
  await ctx.requireApiKey();
  await ctx.render(await (await ctx.api()).call('receipts.get', { params: { id } }));
}
