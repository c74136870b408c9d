import type { Factory } from '../../factory.js';
import { showRemoval } from '../shared/show.js';
import { cardId, describeCard, getCard } from './shared.js';
import type { ArgsOf } from '../verb.js';
import type { remove } from './flags.js';

export async function run(ctx: Factory, args: ArgsOf<typeof remove>): Promise<void> {
  const id = cardId(args);
  await ctx.service.requireApiKey();
  if (ctx.globals.dryRun) return ctx.service.printDryRun('cards.remove', { params: { id } });
  const card = await getCard(ctx, id);
  const named = describeCard(card);
  await ctx.prompts.confirm(`Remove card ${id} (${named})?`, 'remove a card');
  await ctx.service.noteSandbox();
  await showRemoval(ctx, await (await ctx.api()).call('cards.remove', { params: { id } }), 'Card', id, { label: 'Card', text: named });
  ctx.log.status(`Removed card ${id}`);
}
