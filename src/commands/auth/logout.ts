import type { Factory } from '../../factory.js';
import { SANDBOX_PROFILE, currentProfileName } from '../../config/profile.js';
import { UsageError } from '../../errors.js';
import { keyInKeyring, removeKeyFromKeyring } from './key-storage.js';

export async function run(ctx: Factory): Promise<void> {
  const config = await ctx.config.file();
  const name = currentProfileName(config, ctx.io.env, ctx.globals.profile);
  if (name === SANDBOX_PROFILE) throw new UsageError('the sandbox profile has no saved API key to remove');
  const profile = config.profiles[name];
  if (!profile) throw new UsageError(`profile "${name}" does not exist; see 'payctl profiles list'`);
  const inKeyring = keyInKeyring(profile);
  if (!profile.api_key && !inKeyring) {
    ctx.log.status(`Profile "${name}" has no API key saved; nothing to do`);
    return;
  }
  const where = inKeyring ? 'the OS keyring' : 'the config file';
  if (ctx.globals.dryRun) return ctx.log.status(`dry run: would remove the API key of profile "${name}" from ${where}; nothing was changed`);
  // The keyring first: if it cannot be reached, the reference stays and nothing changes.
  if (inKeyring) await removeKeyFromKeyring(name);
  await ctx.config.update((fresh) => {
    // Whatever else changed meanwhile stays; only the key (or the reference to it) goes.
    delete fresh.profiles[name]?.api_key;
    delete fresh.profiles[name]?.api_key_ref;
  });
  ctx.log.status(`Logged out: the API key of profile "${name}" was removed from ${where}`);
}
