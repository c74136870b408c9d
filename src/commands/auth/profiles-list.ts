import type { Factory } from '../../factory.js';
import { SANDBOX_PROFILE, currentProfileName, maskApiKey, storedSettings } from '../../config/profile.js';
import { keyInKeyring } from './key-storage.js';

export async function run(ctx: Factory): Promise<void> {
  const config = await ctx.config.file();
  const current = currentProfileName(config, ctx.io.env, ctx.globals.profile);
  const names = [SANDBOX_PROFILE, ...Object.keys(config.profiles).filter((n) => n !== SANDBOX_PROFILE).sort()];
  const rows = names.map((name) => {
    const settings = storedSettings(config, name);
    return {
      name,
      current: name === current,
      base_url: settings.base_url ?? null,
      marketplace_id: settings.marketplace_id ?? null,
      seller_id: settings.seller_id ?? null,
      // A key in the keyring is not read just to list profiles: where it is is enough.
      api_key: settings.api_key ? maskApiKey(settings.api_key) : keyInKeyring(settings) ? '(in keyring)' : null,
    };
  });
  await ctx.out.renderRows(rows, [
    { key: 'name', header: 'NAME' },
    { key: 'current', header: 'CURRENT' },
    { key: 'base_url', header: 'BASE URL' },
    { key: 'marketplace_id', header: 'MARKETPLACE' },
    { key: 'seller_id', header: 'SELLER' },
    { key: 'api_key', header: 'API KEY' },
  ]);
}
