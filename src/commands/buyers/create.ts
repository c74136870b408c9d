import type { Factory } from '../../factory.js';
import { buyerBodyFromFlags, buyerName, type Buyer } from './shared.js';
import { BUYER_VIEW } from './view.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { create } from './flags.js';

export async function run(ctx: Factory, _args: ArgsOf<typeof create>, options: OptionsOf<typeof create>): Promise<void> {
  await ctx.service.requireApiKey();
  // --first-name and --taxpayer-id are required: given, or asked for on a terminal, before this runs.
  const body = buyerBodyFromFlags(options);
  if (ctx.globals.dryRun) return ctx.service.printDryRun('buyers.create', { body });
  await ctx.service.noteSandbox();
  const buyer = await (await ctx.api()).call('buyers.create', { body });
  await ctx.out.show(buyer, BUYER_VIEW);
  ctx.log.status(`Created buyer ${buyer.id} (${buyerName(buyer)})`);
}
