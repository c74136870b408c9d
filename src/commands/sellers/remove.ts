import type { Factory } from '../../factory.js';
import { maskTaxpayerId } from '../buyers/shared.js';
import { showRemoval } from '../shared/show.js';
import { getSeller, sellerDocument, sellerId, sellerName } from './shared.js';
import type { ArgsOf } from '../verb.js';
import type { remove } from './flags.js';

export async function run(ctx: Factory, args: ArgsOf<typeof remove>): Promise<void> {
  const id = sellerId(args);
  await ctx.service.requireApiKey();
  if (ctx.globals.dryRun) return ctx.service.printDryRun('sellers.remove', { params: { id } });
  const seller = await getSeller(ctx, id);
  const who = [sellerName(seller), maskTaxpayerId(sellerDocument(seller))].filter(Boolean).join(', ');
  await ctx.prompts.confirm(`Remove seller ${id}${who ? ` (${who})` : ''}?`, 'remove a seller');
  await ctx.service.noteSandbox();
  await showRemoval(ctx, await (await ctx.api()).call('sellers.remove', { params: { id } }), 'Seller', id, who ? { label: 'Name', text: who } : undefined);
  ctx.log.status(`Removed seller ${id}`);
}
