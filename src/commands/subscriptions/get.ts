import type { Context } from '../../context.js';
import { getSubscription, subscriptionId, subscriptionRow } from './shared.js';

export async function run(ctx: Context, args: string[]): Promise<void> {
  const id = subscriptionId(args);
  await ctx.requireApiKey();
  await ctx.render(await getSubscription(ctx, id), subscriptionRow);
}
