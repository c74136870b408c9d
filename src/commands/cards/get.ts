import type { Factory } from '../../factory.js';
import { cardId, getCard } from './shared.js';
import type { ArgsOf } from '../verb.js';
import type { get } from './flags.js';

export async function run(ctx: Factory, args: ArgsOf<typeof get>): Promise<void> {
  const id = cardId(args);
  await ctx.requireApiKey();
  await ctx.out.render(await getCard(ctx, id));
}
