import type { Context } from '../../context.js';
import { SANDBOX_PROFILE, maskApiKey } from '../../config/profile.js';
import { UsageError } from '../../errors.js';

export async function run(ctx: Context, args: string[]): Promise<void> {
  const name = args[0] ?? '';
  const config = await ctx.config();
  if (name === SANDBOX_PROFILE) throw new UsageError('the sandbox profile is built in and cannot be removed');
  const profile = config.profiles[name];
  if (!profile) throw new UsageError(`profile "${name}" does not exist; see 'payctl profiles list'`);
  if (ctx.globals.dryRun) return ctx.log.status(`dry run: would remove profile "${name}"; nothing was changed`);
  await ctx.confirm(`Remove profile ${name}${profile.api_key ? ` (${maskApiKey(profile.api_key)})` : ''}?`, 'remove a profile');
  const { [name]: _removed, ...profiles } = config.profiles;
  const next = { ...config, profiles };
  if (config.current_profile === name) delete next.current_profile;
  await ctx.saveConfig(next);
  ctx.log.status(`Removed profile "${name}"${config.current_profile === name ? '; the sandbox profile is current again' : ''}`);
}
