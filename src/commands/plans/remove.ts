import type { Factory } from '../../factory.js';
import { validateId } from '../../validate/index.js';
import { planRow } from './shared.js';
import type { ArgsOf } from '../verb.js';
import type { remove } from './flags.js';

export async function run(ctx: Factory, args: ArgsOf<typeof remove>): Promise<void> {
  const id = validateId(args[0] ?? '', 'plan id', '<id>');
  await ctx.requireApiKey();
  if (ctx.globals.dryRun) return ctx.printDryRun('plans.remove', { params: { id } });
  const plan = await (await ctx.api()).call('plans.get', { params: { id } });
  await ctx.confirm(`Cancel plan ${id}${plan.name ? ` (${plan.name})` : ''}? It will take no new subscriptions.`, 'remove a plan');
  await ctx.noteSandbox();
  await ctx.out.render(await (await ctx.api()).call('plans.remove', { params: { id } }), planRow);
  ctx.log.status(`Canceled plan ${id}`);
}
