import type { Factory } from '../../factory.js';
import { validateId } from '../../validate/index.js';
import { describeCard, type Card } from './shared.js';
import { CARD_VIEW } from './view.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { associate } from './flags.js';

/** Both flags are required: the command line has them, or they were asked for, before this runs. */
export function buildAssociateRequest(options: OptionsOf<typeof associate>): { token: string; customer: string } {
  return { token: validateId(options.token ?? '', 'token id', '--token'), customer: validateId(options.customer ?? '', 'buyer id', '--customer') };
}

export async function run(ctx: Factory, _args: ArgsOf<typeof associate>, options: OptionsOf<typeof associate>): Promise<void> {
  const body = buildAssociateRequest(options);
  await ctx.service.requireApiKey();
  if (ctx.globals.dryRun) return ctx.service.printDryRun('cards.associate', { body });
  await ctx.service.noteSandbox();
  const card = await (await ctx.api()).call<Card>('cards.associate', { body });
  await ctx.out.show(card, CARD_VIEW);
  ctx.log.status(`Card ${card.id} (${describeCard(card)}) now belongs to ${await ctx.out.named('buyer', body.customer)}`);
}
