import type { Factory } from '../../factory.js';
import { getSeller, sellerId } from './shared.js';
import { SELLER_VIEW } from './view.js';
import type { ArgsOf } from '../verb.js';
import type { get } from './flags.js';

export async function run(ctx: Factory, args: ArgsOf<typeof get>): Promise<void> {
  const id = sellerId(args);
  await ctx.requireApiKey();
  await ctx.out.show(await getSeller(ctx, id), SELLER_VIEW);
}
