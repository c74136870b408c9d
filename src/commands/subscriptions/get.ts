import type { Factory } from '../../factory.js';
import { getSubscription, subscriptionId, subscriptionRow } from './shared.js';
import { SUBSCRIPTION_VIEW } from './view.js';
import type { ArgsOf } from '../verb.js';
import type { get } from './flags.js';

export async function run(ctx: Factory, args: ArgsOf<typeof get>): Promise<void> {
  const id = subscriptionId(args);
  await ctx.requireApiKey();
  await ctx.out.show(await getSubscription(ctx, id), SUBSCRIPTION_VIEW, { tableRow: subscriptionRow });
}
