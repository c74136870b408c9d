import type { Factory } from '../../factory.js';
import { validateId } from '../../validate/index.js';
import { planRow } from './shared.js';
import { PLAN_VIEW } from './view.js';
import type { ArgsOf } from '../verb.js';
import type { get } from './flags.js';

export async function run(ctx: Factory, args: ArgsOf<typeof get>): Promise<void> {
  const id = validateId(args[0] ?? '', 'plan id', '<id>');
  await ctx.requireApiKey();
  await ctx.out.show(await (await ctx.api()).call('plans.get', { params: { id } }), PLAN_VIEW, { tableRow: planRow });
}
