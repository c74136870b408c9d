import type { Factory } from '../../factory.js';
import { validateId } from '../../validate/index.js';
import { planRow } from './shared.js';
import { PLAN_VIEW } from './view.js';
import type { ArgsOf } from '../verb.js';
import type { remove } from './flags.js';

export async function run(ctx: Factory, args: ArgsOf<typeof remove>): Promise<void> {
  const id = validateId(args[0] ?? '', 'plan id', '<id>');
  await ctx.service.requireApiKey();
  if (ctx.globals.dryRun) return ctx.service.printDryRun('plans.remove', { params: { id } });
  const plan = await (await ctx.api()).call('plans.get', { params: { id } });
  await ctx.prompts.confirm(`Cancel plan ${id}${plan.name ? ` (${plan.name})` : ''}? It will take no new subscriptions.`, 'remove a plan');
  await ctx.service.noteSandbox();
  await ctx.out.show(await (await ctx.api()).call('plans.remove', { params: { id } }), PLAN_VIEW, {
    // An answer of a removal's own ({id, deleted}) is still titled by the plan's id.
    tableRow: (answer) => planRow({ uuid: id, ...answer }),
    short: true,
  });
  ctx.log.status(`Canceled plan ${id}`);
}
