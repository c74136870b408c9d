import type { Factory } from '../../factory.js';
import { SaleFinder } from './reference.js';
import { getTransaction } from './shared.js';
import { TRANSACTION_VIEW } from './view.js';
import type { ArgsOf } from '../verb.js';
import type { get } from './flags.js';

export async function run(ctx: Factory, args: ArgsOf<typeof get>): Promise<void> {
  const id = await new SaleFinder(ctx).saleId(args[0]);
  await ctx.service.requireApiKey();
  await ctx.out.show(await getTransaction(ctx, id), TRANSACTION_VIEW);
}
