import type { Factory } from '../../factory.js';
import { validateId } from '../../validate/index.js';
import { missingInput, optionalString } from '../shared/input.js';
import { describeCard, type Card } from './shared.js';
import { CARD_VIEW } from './view.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { associate } from './flags.js';

export function buildAssociateRequest(options: OptionsOf<typeof associate>): { token: string; customer: string } {
  const token = optionalString(options.token);
  const customer = optionalString(options.customer);
  const missing = [token === undefined && '--token', customer === undefined && '--customer'].filter((f): f is string => Boolean(f));
  if (missing.length > 0) throw missingInput(missing);
  return { token: validateId(token as string, 'token id', '--token'), customer: validateId(customer as string, 'buyer id', '--customer') };
}

export async function run(ctx: Factory, _args: ArgsOf<typeof associate>, options: OptionsOf<typeof associate>): Promise<void> {
  const body = buildAssociateRequest(options);
  await ctx.requireApiKey();
  if (ctx.globals.dryRun) return ctx.printDryRun('cards.associate', { body });
  await ctx.noteSandbox();
  const card = await (await ctx.api()).call<Card>('cards.associate', { body });
  await ctx.out.show(card, CARD_VIEW);
  ctx.log.status(`Card ${card.id} (${describeCard(card)}) now belongs to ${await ctx.out.named('buyer', body.customer)}`);
}
