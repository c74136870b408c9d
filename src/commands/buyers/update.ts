import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { buyerBodyFromFlags, buyerId, type Buyer } from './shared.js';
import { BUYER_VIEW } from './view.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { update } from './flags.js';

export async function run(ctx: Factory, args: ArgsOf<typeof update>, options: OptionsOf<typeof update>): Promise<void> {
  const id = buyerId(args);
  const body = buyerBodyFromFlags(options);
  if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give at least one flag, e.g. --email or --phone');
  await ctx.service.requireApiKey();
  if (ctx.globals.dryRun) return ctx.service.printDryRun('buyers.update', { params: { id }, body });
  await ctx.service.noteSandbox();
  const buyer = await (await ctx.api()).call('buyers.update', { params: { id }, body });
  await ctx.out.show(buyer, BUYER_VIEW);
  ctx.log.status(`Updated buyer ${id}`);
}
