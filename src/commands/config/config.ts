import type { Factory } from '../../factory.js';
import { checkTransportSecurity } from '../../api/client.js';
import { EMBEDDED_BASE_URL, currentProfileName, maskApiKey, parseOperatorName, parseSettleWindow, profileExists, storedSettings } from '../../config/profile.js';
import { maskLedgerUrl } from '../../ledger/errors.js';
import { checkLedgerUrl } from '../../ledger/open.js';
import { PROFILE_KEYS, type ProfileKey, type ProfileSettings } from '../../config/store.js';
import { UsageError } from '../../errors.js';
import { parseFormat } from '../../output/render-options.js';
import { validateCurrency, validateId } from '../../validate/index.js';
import { parseTimeZone } from '../../time/zone.js';
import { parseCsvLocale } from '../../output/csv-locale.js';
import { parseAllow } from '../mcp/allow.js';
import { keyInKeyring, ledgerUrlInKeyring } from '../auth/key-storage.js';
import { checkBaseUrl } from '../auth/login.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { get, set, unset } from './flags.js';

function checkKey(key: string): ProfileKey {
  if ((PROFILE_KEYS as readonly string[]).includes(key)) return key as ProfileKey;
  throw new UsageError(`unknown setting "${key}"; the settings are ${PROFILE_KEYS.join(', ')}`);
}

/** Checks and normalises a value for `config set`, so a bad value never reaches the file. */
export function parseSetting(key: ProfileKey, value: string, insecureHttp: boolean): string | number {
  switch (key) {
    case 'api_key':
      throw new UsageError("an API key on the command line lands in shell history; use 'payctl login --api-key-stdin'");
    case 'base_url': {
      const url = checkBaseUrl(value);
      if (url !== EMBEDDED_BASE_URL) checkTransportSecurity(url, insecureHttp);
      return url;
    }
    case 'marketplace_id':
      return validateId(value, 'marketplace id', 'marketplace_id');
    case 'seller_id':
      return validateId(value, 'seller id', 'seller_id');
    case 'currency':
      return validateCurrency(value, 'currency');
    case 'output':
      return parseFormat(value, 'output');
    case 'timeout': {
      const seconds = Number(value);
      if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 600) throw new UsageError('timeout: give seconds, more than 0 and at most 600');
      return seconds;
    }
    case 'ledger_url':
      return checkLedgerUrl(value);
    case 'settle_window':
      return parseSettleWindow(value, 'settle_window');
    case 'timezone':
      return parseTimeZone(value, 'timezone');
    case 'csv_locale':
      return parseCsvLocale(value, 'csv_locale');
    case 'operator_name':
      return parseOperatorName(value, 'operator_name');
    case 'mcp_allow':
      return parseAllow(value, 'mcp_allow').join(',') || 'none';
  }
}

/** A setting as it may be printed: the API key and the ledger's password masked. */
function shown(key: ProfileKey, value: unknown): string {
  if (key === 'api_key') return maskApiKey(String(value));
  if (key === 'ledger_url') return maskLedgerUrl(String(value));
  return String(value);
}

export async function runGet(ctx: Factory, args: ArgsOf<typeof get>): Promise<void> {
  const key = checkKey(args[0] ?? '');
  const config = await ctx.config.file();
  const name = currentProfileName(config, ctx.io.env, ctx.globals.profile);
  if (!profileExists(config, name)) throw new UsageError(`profile "${name}" does not exist; see 'payctl profiles list'`);
  const settings = storedSettings(config, name);
  const value = settings[key];
  if (value === undefined) {
    // Not read from the keyring here: whoami shows the key there, masked.
    ctx.log.status(key === 'api_key' && keyInKeyring(settings) ? `the API key of profile "${name}" is in the OS keyring; 'payctl whoami' shows it masked` : `${key} is not set in profile "${name}"`);
    return;
  }
  ctx.io.stdout.write(`${shown(key, value)}\n`);
}

export async function runSet(ctx: Factory, args: ArgsOf<typeof set>, options: OptionsOf<typeof set>): Promise<void> {
  const key = checkKey(args[0] ?? '');
  const value = parseSetting(key, args[1] ?? '', ctx.globals.insecureHttp);
  if (key === 'ledger_url') {
    const { setLedgerUrl } = await import('./ledger-url.js');
    return setLedgerUrl(ctx, String(value), options.insecureStorage === true);
  }
  if (ctx.globals.dryRun) {
    const name = currentProfileName(await ctx.config.file(), ctx.io.env, ctx.globals.profile);
    return ctx.log.status(`dry run: would set ${key} = ${shown(key, value)} in profile "${name}"; nothing was changed`);
  }
  // The profile is found in the config as read under the lock, and only its one setting changes:
  // whatever another process changed meanwhile stays.
  const name = await ctx.config.update((config) => {
    const profile = currentProfileName(config, ctx.io.env, ctx.globals.profile);
    const settings: ProfileSettings = { ...(config.profiles[profile] ?? {}), [key]: value };
    config.profiles[profile] = settings;
    return profile;
  });
  ctx.log.status(`Set ${key} = ${shown(key, value)} in profile "${name}"`);
}

export async function runUnset(ctx: Factory, args: ArgsOf<typeof unset>): Promise<void> {
  const key = checkKey(args[0] ?? '');
  const config = await ctx.config.file();
  const name = currentProfileName(config, ctx.io.env, ctx.globals.profile);
  const own = config.profiles[name];
  if (key === 'api_key' && keyInKeyring(own)) throw new UsageError(`the API key of profile "${name}" is in the OS keyring; 'payctl logout' removes it`);
  if (!own || own[key] === undefined) {
    ctx.log.status(`${key} was not set in profile "${name}"`);
    return;
  }
  if (ctx.globals.dryRun) return ctx.log.status(`dry run: would unset ${key} in profile "${name}"; nothing was changed`);
  if (key === 'ledger_url') {
    const { forgetLedgerUrl } = await import('./ledger-url.js');
    await forgetLedgerUrl(ctx, name, ledgerUrlInKeyring(own));
    return ctx.log.status(`Unset ledger_url in profile "${name}"${ledgerUrlInKeyring(own) ? ' (and removed it from the OS keyring)' : ''}`);
  }
  const unset = await ctx.config.update((fresh) => {
    // Read again under the lock: another process may have unset it (or changed the current profile) meanwhile.
    const name = currentProfileName(fresh, ctx.io.env, ctx.globals.profile);
    const own = fresh.profiles[name];
    if (!own || own[key] === undefined) return { name, changed: false };
    delete own[key];
    return { name, changed: true };
  });
  ctx.log.status(unset.changed ? `Unset ${key} in profile "${unset.name}"` : `${key} was not set in profile "${unset.name}"`);
}

export async function runList(ctx: Factory): Promise<void> {
  const config = await ctx.config.file();
  const name = currentProfileName(config, ctx.io.env, ctx.globals.profile);
  if (!profileExists(config, name)) throw new UsageError(`profile "${name}" does not exist; see 'payctl profiles list'`);
  const settings = storedSettings(config, name);
  const out: Record<string, unknown> = { profile: name };
  for (const key of PROFILE_KEYS) {
    const value = settings[key];
    out[key] = value === undefined ? (key === 'api_key' && keyInKeyring(settings) ? '(in keyring)' : null) : key === 'api_key' || key === 'ledger_url' ? shown(key, value) : value;
  }
  await ctx.out.render(out);
}
