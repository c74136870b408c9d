import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { validateId } from '../../validate/index.js';
import { planBodyFromFlags, planRow } from './shared.js';

export async function run(ctx: Context, args: string[], options: Record<string, unknown>): Promise<void> {
  const id = validateId(args[0] ?? '', 'plan id', '<id>');
  const body = planBodyFromFlags(options);
  if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give at least one flag, e.g. --amount or --description');
  await ctx.requireApiKey();
  if (ctx.globals.dryRun) return ctx.printDryRun('plans.update', { params: { id }, body });
  await ctx.noteSandbox();
  await ctx.render(await (await ctx.api()).call('plans.update', { params: { id }, body }), planRow);
  ctx.log.status(`Updated plan ${id}`);
}
