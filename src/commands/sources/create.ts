import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { parseMetadata, validateCurrency, validateId, validateInstallments } from '../../validate/index.js';
import { amountFromFlags } from '../shared/amount.js';
import { hasCardFlags, readCard, type CardInput } from '../shared/card.js';
import { missingInput, optionalString, stringList } from '../shared/input.js';
import { SOURCE_VIEW, sourceRow } from './view.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { create } from './flags.js';

export type SourceOrigin = { cardId: string } | { card: CardInput } | { tokenId: string } | { customerId: string };

export interface SourceInput {
  usage: 'single_use' | 'reusable';
  currency: string;
  origin: SourceOrigin;
  amountCents?: number;
  description?: string;
  referenceId?: string;
  onBehalfOf?: string;
  installments?: number;
  capture: boolean;
  metadata?: Record<string, string>;
}

/**
 * The provider's source body. Its `type` takes the one value `card`; what is charged is told by
 * which key the body carries: `card` (`{id}` or card data), `token` (`{id}`) or `customer`, a
 * buyer id as a plain string.
 */
export function buildSourceRequest(input: SourceInput): Record<string, unknown> {
  const body: Record<string, unknown> = { usage: input.usage, type: 'card', currency: input.currency, capture: input.capture };
  if (input.amountCents !== undefined) body.amount = input.amountCents;
  const origin = input.origin;
  if ('cardId' in origin) body.card = { id: origin.cardId };
  else if ('card' in origin) body.card = { ...origin.card };
  else if ('tokenId' in origin) body.token = { id: origin.tokenId };
  else body.customer = origin.customerId;
  if (input.description !== undefined) body.description = input.description;
  if (input.referenceId !== undefined) body.reference_id = input.referenceId;
  if (input.onBehalfOf !== undefined) body.on_behalf_of = input.onBehalfOf;
  if (input.installments !== undefined) body.installment_plan = { number_installments: input.installments };
  if (input.metadata) body.metadata = input.metadata;
  return body;
}

async function readOrigin(ctx: Factory, options: OptionsOf<typeof create>): Promise<SourceOrigin> {
  const card = optionalString(options.card);
  const token = optionalString(options.token);
  const customer = optionalString(options.customer);
  const given = [card !== undefined && '--card', token !== undefined && '--token', customer !== undefined && '--customer', hasCardFlags(options) && 'card details'].filter(Boolean);
  if (given.length > 1) throw new UsageError(`a source has one origin: ${given.join(', ')} were all given`);
  if (card !== undefined) return { cardId: validateId(card, 'card id', '--card') };
  if (token !== undefined) return { tokenId: validateId(token, 'token id', '--token') };
  if (customer !== undefined) return { customerId: validateId(customer, 'buyer id', '--customer') };
  if (hasCardFlags(options) || ctx.prompts.interactive) return { card: await readCard(ctx, options) };
  throw missingInput(ctx, ['--card <card-id>, --token <token-id>, --customer <buyer-id> or the card details']);
}

export async function run(ctx: Factory, _args: ArgsOf<typeof create>, options: OptionsOf<typeof create>): Promise<void> {
  await ctx.service.requireApiKey();
  const profile = await ctx.config.profile();
  const input: SourceInput = {
    usage: options.usage === 'reusable' ? 'reusable' : 'single_use',
    currency: validateCurrency(optionalString(options.currency) ?? profile.currency, '--currency'),
    origin: await readOrigin(ctx, options),
    capture: options.capture !== false,
  };
  const amount = amountFromFlags(options);
  if (amount !== undefined) input.amountCents = amount;
  const description = optionalString(options.description);
  if (description !== undefined) input.description = description;
  const referenceId = optionalString(options.referenceId);
  if (referenceId !== undefined) input.referenceId = referenceId;
  const seller = optionalString(options.onBehalfOf) ?? profile.sellerId;
  if (seller !== undefined) input.onBehalfOf = validateId(seller, 'seller id', '--on-behalf-of');
  if (options.installments !== undefined) input.installments = validateInstallments(options.installments, '--installments');
  const metadata = stringList(options.metadata);
  if (metadata.length > 0) input.metadata = parseMetadata(metadata, '--metadata');
  const body = buildSourceRequest(input);
  if (ctx.globals.dryRun) return ctx.service.printDryRun('sources.create', { body });
  await ctx.service.noteSandbox();
  const source = await (await ctx.api()).call('sources.create', { body });
  await ctx.out.show(source, SOURCE_VIEW, { tableRow: sourceRow });
  ctx.log.status(`Created ${input.usage} source ${source.id}`);
}
