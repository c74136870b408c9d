import type { Context } from '../../context.js';
import { SANDBOX_PROFILE, currentProfileName } from '../../config/profile.js';
import { UsageError } from '../../errors.js';

export async function run(ctx: Context): Promise<void> {
  const config = await ctx.config();
  const name = currentProfileName(config, ctx.io.env, ctx.globals.profile);
  if (name === SANDBOX_PROFILE) throw new UsageError('the sandbox profile has no saved API key to remove');
  const profile = config.profiles[name];
  if (!profile) throw new UsageError(`profile "${name}" does not exist; see 'payctl profiles list'`);
  if (!profile.api_key) {
    ctx.log.status(`Profile "${name}" has no API key saved; nothing to do`);
    return;
  }
  if (ctx.globals.dryRun) return ctx.log.status(`dry run: would remove the API key of profile "${name}"; nothing was changed`);
  await ctx.updateConfig((fresh) => {
    // Whatever else changed meanwhile stays; only the key goes.
    delete fresh.profiles[name]?.api_key;
  });
  ctx.log.status(`Logged out: the API key of profile "${name}" was removed`);
}
