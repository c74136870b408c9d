import type { Factory } from '../../factory.js';
import { validateId } from '../../validate/index.js';
import type { ArgsOf } from '../verb.js';
import type { replay } from './flags.js';

/** Sends one event again to every webhook that wants it (receivers should expect repeats anyway). */
export async function run(ctx: Factory, args: ArgsOf<typeof replay>): Promise<void> {
  const id = validateId(args[0] ?? '', 'event id', '<id>');
  await ctx.service.requireApiKey();
  if (ctx.globals.dryRun) return ctx.service.printDryRun('events.replay', { params: { id } });
  await ctx.service.noteSandbox();
  const replay = await (await ctx.api()).call('events.replay', { params: { id } });
  await ctx.out.render(replay);
  const count = replay.webhooks?.length ?? 0;
  ctx.log.status(`Event ${id} queued for ${count} webhook${count === 1 ? '' : 's'}`);
}
