import type { Factory } from '../../factory.js';
import { optionalString } from '../shared/input.js';
import {
  buyersDefaultCard,
  checkPlanAccepts,
  getSubscription,
  requireChanges,
  scheduleFromFlags,
  subscriptionId,
  subscriptionRow,
  type PaymentMethod,
} from './shared.js';
import { SUBSCRIPTION_VIEW } from './view.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { update } from './flags.js';

/**
 * A new payment method is checked against the plan the subscription will have (the new --plan's,
 * or its own). Moving to credit without --card takes the buyer's default card, as create does,
 * unless the subscription already has a card.
 */
async function preparePaymentMethod(ctx: Factory, id: string, body: Record<string, unknown>, method: PaymentMethod): Promise<void> {
  const current = await getSubscription(ctx, id);
  const planId = (body.plan as string | undefined) ?? current.plan;
  if (planId) checkPlanAccepts(await (await ctx.api()).call('plans.get', { params: { id: planId } }), planId, method);
  if (method === 'credit' && body.card === undefined && !current.card && current.customer) body.card = await buyersDefaultCard(ctx, current.customer);
}

export async function run(ctx: Factory, args: ArgsOf<typeof update>, options: OptionsOf<typeof update>): Promise<void> {
  const id = subscriptionId(args);
  const body = scheduleFromFlags(options);
  const description = optionalString(options.description);
  if (description !== undefined) body.description = description;
  requireChanges(body);
  await ctx.service.requireApiKey();
  const method = body.payment_method as PaymentMethod | undefined;
  if (ctx.globals.dryRun) {
    // A dry run reads nothing: the card a move to credit would take is shown as what it would be.
    if (method === 'credit' && body.card === undefined) body.card = "(the buyer's default card, if the subscription has none)";
    return ctx.service.printDryRun('subscriptions.update', { params: { id }, body });
  }
  if (method !== undefined) await preparePaymentMethod(ctx, id, body, method);
  await ctx.service.noteSandbox();
  await ctx.out.show(await (await ctx.api()).call('subscriptions.update', { params: { id }, body }), SUBSCRIPTION_VIEW, { tableRow: subscriptionRow });
  ctx.log.status(`Updated subscription ${id}`);
}
