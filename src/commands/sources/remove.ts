import type { Factory } from '../../factory.js';
import { validateId } from '../../validate/index.js';
import type { ArgsOf } from '../verb.js';
import type { remove } from './flags.js';

export async function run(ctx: Factory, args: ArgsOf<typeof remove>): Promise<void> {
  const id = validateId(args[0] ?? '', 'source id', '<id>');
  await ctx.requireApiKey();
  if (ctx.globals.dryRun) return ctx.printDryRun('sources.remove', { params: { id } });
  await ctx.confirm(`Remove source ${id}?`, 'remove a source');
  await ctx.noteSandbox();
  await ctx.out.render(await (await ctx.api()).call('sources.remove', { params: { id } }));
  ctx.log.status(`Removed source ${id}`);
}
