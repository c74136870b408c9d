import type { Context } from '../../context.js';
import { cardId, getCard } from './shared.js';

export async function run(ctx: Context, args: string[]): Promise<void> {
  const id = cardId(args);
  await ctx.requireApiKey();
  await ctx.out.render(await getCard(ctx, id));
}
