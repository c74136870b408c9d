import type { Context } from '../../context.js';
import { optionalString } from '../shared/input.js';
import { requireChanges, scheduleFromFlags, subscriptionId, subscriptionRow } from './shared.js';
import { SUBSCRIPTION_VIEW } from './view.js';

export async function run(ctx: Context, args: string[], options: Record<string, unknown>): Promise<void> {
  const id = subscriptionId(args);
  const body = scheduleFromFlags(options);
  const description = optionalString(options.description);
  if (description !== undefined) body.description = description;
  requireChanges(body);
  await ctx.requireApiKey();
  if (ctx.globals.dryRun) return ctx.printDryRun('subscriptions.update', { params: { id }, body });
  await ctx.noteSandbox();
  await ctx.show(await (await ctx.api()).call('subscriptions.update', { params: { id }, body }), SUBSCRIPTION_VIEW, { tableRow: subscriptionRow, short: true });
  ctx.log.status(`Updated subscription ${id}`);
}
