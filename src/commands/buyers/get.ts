import type { Context } from '../../context.js';
import { buyerId, getBuyer } from './shared.js';

export async function run(ctx: Context, args: string[]): Promise<void> {
  const id = buyerId(args);
  await ctx.requireApiKey();
  await ctx.render(await getBuyer(ctx, id));
}
