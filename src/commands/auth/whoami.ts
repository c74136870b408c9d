import type { Factory } from '../../factory.js';
import { sqliteLedgerPath } from '../../config/paths.js';
import { maskApiKey } from '../../config/profile.js';
import { accountOf } from '../../ledger/account.js';
import { maskLedgerUrl } from '../../ledger/errors.js';
import { isTestKey } from '../../provider/test-keys.js';

export async function run(ctx: Factory): Promise<void> {
  const profile = await ctx.config.profile();
  const actor = await ctx.actor();
  const env = ctx.io.env;
  const fromEnv = ['PAYCTL_PROFILE', 'PAYCTL_BASE_URL', 'PAYCTL_API_KEY', 'PAYCTL_MARKETPLACE_ID', 'PAYCTL_SELLER_ID', 'PAYCTL_LEDGER_URL', 'PAYCTL_SETTLE_WINDOW'].filter((name) => env[name]);
  await ctx.out.render({
    profile: profile.name,
    base_url: profile.baseUrl,
    api_key: maskApiKey(profile.apiKey),
    // Where the key lives: keyring, file (the config file), environment (PAYCTL_API_KEY) or built-in (the sandbox's).
    api_key_source: profile.apiKeySource ?? null,
    marketplace_id: profile.marketplaceId ?? null,
    seller_id: profile.sellerId ?? null,
    currency: profile.currency,
    // A test account (the embedded sandbox, or a test key on any service): no real money moves.
    sandbox: profile.isEmbedded || isTestKey(profile.apiKey),
    // What money moves are kept against: the account (the ledger's scope), and where.
    account: accountOf(profile, ctx.config.paths.stateDir).id,
    ledger: profile.ledgerUrl ? maskLedgerUrl(profile.ledgerUrl) : sqliteLedgerPath(ctx.config.paths.stateDir),
    settle_window: profile.settleWindowSeconds,
    // Who the ledger records as moving money from here, and as what: a person, a script (prompts off) or an agent.
    operator: actor.holder,
    operator_name: actor.name ?? null,
    actor: actor.kind,
    overridden_by: fromEnv,
  });
}
