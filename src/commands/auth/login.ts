import type { Factory } from '../../factory.js';
import { DirError } from '../../platform/dirs.js';
import { DEFAULT_SETTLE_WINDOW_SECONDS, EMBEDDED_BASE_URL, SANDBOX_PROFILE, maskApiKey, type ResolvedProfile } from '../../config/profile.js';
import { ApiError, CliError, ExitCode, UsageError } from '../../errors.js';
import { asValidator } from '../../prompts/prompter.js';
import { validateId } from '../../validate/index.js';
import { USER_AGENT } from '../../version.js';
import { missingInput, optionalString, readStream } from '../shared/input.js';
import { chooseKeyStorage, keyInKeyring, removeKeyFromKeyring, saveKeyToKeyring, withKey } from './key-storage.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { loginVerb } from './flags.js';

export function checkBaseUrl(value: string): string {
  const trimmed = value.trim().replace(/\/+$/, '');
  if (trimmed === EMBEDDED_BASE_URL) return trimmed;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new UsageError(`--base-url: "${value}" is not a URL (e.g. https://api.example.com)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`--base-url: "${value}" must start with https://`);
  return trimmed;
}

export async function run(ctx: Factory, _args: ArgsOf<typeof loginVerb>, options: OptionsOf<typeof loginVerb>): Promise<void> {
  const config = await ctx.config.file();
  const name = ctx.globals.profile ?? 'default';
  if (name === SANDBOX_PROFILE) throw new UsageError('the sandbox profile is built in and needs no login; choose another name with --profile');
  if (!/^[A-Za-z0-9_.-]{1,40}$/.test(name)) throw new UsageError(`--profile: "${name}" is not a usable profile name (letters, digits, . _ -)`);
  const existing = config.profiles[name] ?? {};

  let baseUrl = optionalString(options.baseUrl) ?? existing.base_url;
  let marketplaceId = optionalString(options.marketplaceId) ?? existing.marketplace_id;
  let sellerId = optionalString(options.sellerId) ?? existing.seller_id;
  let apiKey: string | undefined;
  if (options.apiKeyStdin === true) {
    apiKey = (await readStream(ctx.io.stdin)).split(/\r?\n/)[0]?.trim();
    if (!apiKey) throw new UsageError('--api-key-stdin: standard input was empty');
  }

  const missing = [baseUrl === undefined && '--base-url', apiKey === undefined && '--api-key-stdin'].filter((f): f is string => Boolean(f));
  if (missing.length > 0 && !ctx.prompts.interactive) throw missingInput(ctx, missing);
  if (ctx.prompts.interactive) {
    const prompter = await ctx.prompts.prompter();
    baseUrl ??= await prompter.text('API base URL', { validate: asValidator(checkBaseUrl) });
    if (options.marketplaceId === undefined && marketplaceId === undefined) {
      marketplaceId = (await prompter.text('Marketplace id (empty if none)', { default: '' })) || undefined;
    }
    if (options.sellerId === undefined && sellerId === undefined) {
      sellerId = (await prompter.text('Default seller id for on_behalf_of (empty if none)', { default: '' })) || undefined;
    }
    apiKey ??= await prompter.secret('API key', { validate: (v) => (v.trim() ? true : 'paste the API key') });
  }
  baseUrl = checkBaseUrl(baseUrl as string);
  if (marketplaceId) marketplaceId = validateId(marketplaceId, 'marketplace id', '--marketplace-id');
  if (sellerId) sellerId = validateId(sellerId, 'seller id', '--seller-id');
  const key = (apiKey as string).trim();

  const candidate: ResolvedProfile = {
    name,
    baseUrl,
    apiKey: key,
    currency: existing.currency ?? 'BRL',
    timeoutSeconds: ctx.globals.timeoutSeconds ?? existing.timeout ?? 30,
    isEmbedded: baseUrl === EMBEDDED_BASE_URL,
    settleWindowSeconds: existing.settle_window ?? DEFAULT_SETTLE_WINDOW_SECONDS,
    ...(marketplaceId ? { marketplaceId } : {}),
  };
  if (ctx.globals.dryRun) {
    // Shows the one read-only request that checks the key; neither sends it nor saves anything.
    const { ApiClient } = await import('../../api/client.js');
    const client = new ApiClient({ baseUrl: candidate.isEmbedded ? 'sandbox://embedded' : baseUrl, apiKey: key, marketplaceId, timeoutMs: 1000, userAgent: USER_AGENT });
    const shown = client.describe('transactions.list', { query: { limit: 1 } });
    await client.close();
    const where = options.insecureStorage === true ? 'the API key in the config file' : 'the API key in the OS keyring';
    ctx.log.status(`dry run: would check the key with GET ${shown.url} and save profile "${name}" (${maskApiKey(key)}; ${where}); nothing was sent or saved`);
    return;
  }
  // Where the key will be saved is checked first: a config that cannot be written is the error to
  // report, not whatever checking the key over the network would have run into.
  // So is where the key will go: a keyring that cannot be reached is said before anything is sent.
  await ctx.config.checkWritable();
  const storage = await chooseKeyStorage(ctx, name, options.insecureStorage === true);
  await verifyKey(ctx, candidate);

  await saveKeyToKeyring(name, key, storage);
  if (storage === 'file' && keyInKeyring(existing)) {
    // The key an earlier login put in the keyring is replaced by this one: it must not stay behind.
    await removeKeyFromKeyring(name).catch((err: Error) => ctx.log.warn(`the API key saved earlier in the OS keyring stays there: ${err.message}`));
  }
  await ctx.config.update((fresh) => {
    // On top of the profile as it is now: a setting changed by another process meanwhile stays.
    const settings = withKey({ ...(fresh.profiles[name] ?? {}), base_url: baseUrl }, key, storage);
    if (marketplaceId) settings.marketplace_id = marketplaceId;
    if (sellerId) settings.seller_id = sellerId;
    fresh.profiles[name] = settings;
    fresh.current_profile = name;
  });
  const saved = storage === 'keyring' ? `saved: the API key in the OS keyring, the rest in ${ctx.config.paths.configFile}` : `saved to ${ctx.config.paths.configFile}`;
  ctx.log.status(`Logged in: profile "${name}" (${maskApiKey(key)}) ${saved}; made current`);
}

/** One read-only request with the new key: nothing is saved unless the service accepts it. */
async function verifyKey(ctx: Factory, candidate: ResolvedProfile): Promise<void> {
  const client = await ctx.service.clientFor(candidate);
  try {
    await client.call('transactions.list', { query: { limit: 1 } });
  } catch (err) {
    if (err instanceof ApiError && (err.details.httpStatus === 401 || err.details.httpStatus === 403)) {
      throw new CliError(`the API key was rejected (HTTP ${err.details.httpStatus}): ${err.message}; nothing was saved`, ExitCode.auth);
    }
    // The embedded sandbox's state directory cannot be used: that is the whole story.
    if (err instanceof DirError) throw err;
    if (err instanceof CliError) {
      throw new CliError(`could not check the API key: ${err.message}; nothing was saved`, err.exitCode);
    }
    throw err;
  }
}
