import type { Factory } from '../../factory.js';
import { showRemoval } from '../shared/show.js';
import { buyerId, buyerName, getBuyer, maskTaxpayerId } from './shared.js';
import type { ArgsOf } from '../verb.js';
import type { remove } from './flags.js';

export async function run(ctx: Factory, args: ArgsOf<typeof remove>): Promise<void> {
  const id = buyerId(args);
  await ctx.service.requireApiKey();
  if (ctx.globals.dryRun) return ctx.service.printDryRun('buyers.remove', { params: { id } });
  const buyer = await getBuyer(ctx, id);
  const who = [buyerName(buyer), buyer.taxpayer_id ? maskTaxpayerId(buyer.taxpayer_id) : ''].filter(Boolean).join(', ');
  await ctx.prompts.confirm(`Remove buyer ${id}${who ? ` (${who})` : ''}?`, 'remove a buyer');
  await ctx.service.noteSandbox();
  await showRemoval(ctx, await (await ctx.api()).call('buyers.remove', { params: { id } }), 'Buyer', id, who ? { label: 'Name', text: who } : undefined);
  ctx.log.status(`Removed buyer ${id}`);
}
