import type { Context } from '../../context.js';
import { getSubscription, subscriptionId, subscriptionRow } from './shared.js';
import { SUBSCRIPTION_VIEW } from './view.js';

export async function run(ctx: Context, args: string[]): Promise<void> {
  const id = subscriptionId(args);
  await ctx.requireApiKey();
  await ctx.out.show(await getSubscription(ctx, id), SUBSCRIPTION_VIEW, { tableRow: subscriptionRow });
}
