import type { Context } from '../../context.js';
import { buyerId, getBuyer } from './shared.js';
import { BUYER_VIEW } from './view.js';

export async function run(ctx: Context, args: string[]): Promise<void> {
  const id = buyerId(args);
  await ctx.requireApiKey();
  await ctx.show(await getBuyer(ctx, id), BUYER_VIEW);
}
