import type { Factory } from '../../factory.js';
import { profileExists } from '../../config/profile.js';
import { UsageError } from '../../errors.js';
import type { ArgsOf } from '../verb.js';
import type { profilesUse } from './flags.js';

export async function run(ctx: Factory, args: ArgsOf<typeof profilesUse>): Promise<void> {
  const name = args[0] ?? '';
  const config = await ctx.config.file();
  if (!profileExists(config, name)) throw new UsageError(`profile "${name}" does not exist; see 'payctl profiles list'`);
  if (ctx.globals.dryRun) return ctx.log.status(`dry run: would make profile "${name}" current; nothing was changed`);
  await ctx.config.update((fresh) => {
    if (!profileExists(fresh, name)) throw new UsageError(`profile "${name}" does not exist (removed meanwhile?); see 'payctl profiles list'`);
    fresh.current_profile = name;
  });
  ctx.log.status(`Profile "${name}" is now current`);
}
