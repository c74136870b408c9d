import type { Factory } from '../../factory.js';
import { validateTaxpayerId } from '../../validate/taxpayer.js';
import type { Buyer } from './shared.js';
import { BUYER_VIEW } from './view.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { search } from './flags.js';

export async function run(ctx: Factory, _args: ArgsOf<typeof search>, options: OptionsOf<typeof search>): Promise<void> {
  // Required: given, or asked for on a terminal, before this runs.
  const taxpayerId = validateTaxpayerId(options.taxpayerId ?? '', '--taxpayer-id');
  await ctx.service.requireApiKey();
  const buyer = await (await ctx.api()).call('buyers.search', { query: { taxpayer_id: taxpayerId } });
  await ctx.out.show(buyer, BUYER_VIEW);
}
