import type { Factory } from '../../factory.js';
import { cardId, getCard } from './shared.js';
import { CARD_VIEW } from './view.js';
import type { ArgsOf } from '../verb.js';
import type { get } from './flags.js';

export async function run(ctx: Factory, args: ArgsOf<typeof get>): Promise<void> {
  const id = cardId(args);
  await ctx.service.requireApiKey();
  await ctx.out.show(await getCard(ctx, id), CARD_VIEW);
}
