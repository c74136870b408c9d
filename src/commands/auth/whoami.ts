import type { Context } from '../../context.js';
import { maskApiKey } from '../../config/profile.js';

export async function run(ctx: Context): Promise<void> {
  const profile = await ctx.profile();
  const env = ctx.io.env;
  const fromEnv = ['PAYCTL_PROFILE', 'PAYCTL_BASE_URL', 'PAYCTL_API_KEY', 'PAYCTL_MARKETPLACE_ID', 'PAYCTL_SELLER_ID'].filter((name) => env[name]);
  await ctx.render({
    profile: profile.name,
    base_url: profile.baseUrl,
    api_key: maskApiKey(profile.apiKey),
    // Where the key lives: keyring, file (the config file), environment (PAYCTL_API_KEY) or built-in (the sandbox's).
    api_key_source: profile.apiKeySource ?? null,
    marketplace_id: profile.marketplaceId ?? null,
    seller_id: profile.sellerId ?? null,
    currency: profile.currency,
    sandbox: profile.isEmbedded || Boolean(profile.apiKey?.startsWith('zpk_test_')),
    overridden_by: fromEnv,
  });
}
