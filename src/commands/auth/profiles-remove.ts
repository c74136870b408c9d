import type { Factory } from '../../factory.js';
import { SANDBOX_PROFILE, maskApiKey } from '../../config/profile.js';
import { UsageError } from '../../errors.js';
import { keyInKeyring, LEDGER_URL, ledgerUrlInKeyring, removeKeyFromKeyring } from './key-storage.js';
import { ledgerUrlEntry } from '../../config/keyring.js';
import type { ArgsOf } from '../verb.js';
import type { profilesRemove } from './flags.js';

export async function run(ctx: Factory, args: ArgsOf<typeof profilesRemove>): Promise<void> {
  const name = args[0] ?? '';
  const config = await ctx.config.file();
  if (name === SANDBOX_PROFILE) throw new UsageError('the sandbox profile is built in and cannot be removed');
  const profile = config.profiles[name];
  if (!profile) throw new UsageError(`profile "${name}" does not exist; see 'payctl profiles list'`);
  if (ctx.globals.dryRun) return ctx.log.status(`dry run: would remove profile "${name}"; nothing was changed`);
  await ctx.prompts.confirm(`Remove profile ${name}${profile.api_key ? ` (${maskApiKey(profile.api_key)})` : keyInKeyring(profile) ? ' (and its API key in the OS keyring)' : ''}?`, 'remove a profile');
  // Its key goes with it; if the keyring cannot be reached, the profile stays (with its reference).
  if (keyInKeyring(profile)) await removeKeyFromKeyring(name);
  if (ledgerUrlInKeyring(profile)) await removeKeyFromKeyring(name, ledgerUrlEntry(name), LEDGER_URL);
  const wasCurrent = await ctx.config.update((fresh) => {
    if (!Object.hasOwn(fresh.profiles, name)) throw new UsageError(`profile "${name}" does not exist (removed meanwhile?); see 'payctl profiles list'`);
    delete fresh.profiles[name];
    const current = fresh.current_profile === name;
    if (current) delete fresh.current_profile;
    return current;
  });
  ctx.log.status(`Removed profile "${name}"${wasCurrent ? '; the sandbox profile is current again' : ''}`);
}
