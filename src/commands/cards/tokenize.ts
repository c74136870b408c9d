import type { Factory } from '../../factory.js';
import { readCard, type CardInput } from '../shared/card.js';
import { CARD_TOKEN_VIEW } from './view.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { tokenize } from './flags.js';

/** The seed's token request: the card fields at the top level, all strings. */
export function buildTokenizeRequest(card: CardInput): Record<string, string> {
  return {
    holder_name: card.holder_name,
    expiration_month: card.expiration_month,
    expiration_year: card.expiration_year,
    card_number: card.card_number,
    security_code: card.security_code,
  };
}

export async function run(ctx: Factory, _args: ArgsOf<typeof tokenize>, options: OptionsOf<typeof tokenize>): Promise<void> {
  await ctx.service.requireApiKey();
  const body = buildTokenizeRequest(await readCard(ctx, options));
  if (ctx.globals.dryRun) return ctx.service.printDryRun('cards.tokenize', { body });
  await ctx.service.noteSandbox();
  const api = await ctx.api();
  const token = await api.call('cards.tokenize', { body });
  await ctx.out.show(token, CARD_TOKEN_VIEW);
  ctx.log.status(`Created card token ${token.id ?? ''}`.trim());
}
