import { UsageError } from '../errors.js';
import { SANDBOX_API_KEY, SANDBOX_MARKETPLACE_ID, SANDBOX_SELLER_ID } from '../provider/sandbox-account.js';
import { parseTimeZone } from '../time/zone.js';
import { KEYRING_REF } from './keyring.js';
import type { ConfigFile, ProfileSettings } from './store.js';

export const SANDBOX_PROFILE = 'sandbox';
export const EMBEDDED_BASE_URL = 'embedded';
export const DEFAULT_TIMEOUT_SECONDS = 30;
/** How long after a send a lost request may still land, whatever --timeout is (src/ledger/settle.ts). */
export const DEFAULT_SETTLE_WINDOW_SECONDS = 120;
export const MAX_SETTLE_WINDOW_SECONDS = 3600;

/** The built-in profile: works right after install, against the embedded emulation. */
export const SANDBOX_DEFAULTS: Readonly<ProfileSettings> = {
  base_url: EMBEDDED_BASE_URL,
  api_key: SANDBOX_API_KEY,
  marketplace_id: SANDBOX_MARKETPLACE_ID,
  seller_id: SANDBOX_SELLER_ID,
  currency: 'BRL',
};

/** Where a profile's API key comes from; whoami says it. */
export type ApiKeySource = 'environment' | 'keyring' | 'file' | 'built-in';

export interface ResolvedProfile {
  name: string;
  baseUrl: string;
  /** Unset while the key is still in the keyring: the factory reads it from there when asked. */
  apiKey?: string;
  apiKeySource?: ApiKeySource;
  marketplaceId?: string;
  sellerId?: string;
  currency: string;
  output?: string;
  timeoutSeconds: number;
  isEmbedded: boolean;
  /**
   * The shared ledger (PostgreSQL), if any; else the SQLite one in the state directory. Masked
   * while the URL is in the keyring (ledgerUrlInKeyring): Configuration.ledgerUrl() reads it.
   */
  ledgerUrl?: string;
  ledgerUrlInKeyring?: boolean;
  settleWindowSeconds: number;
  /** The profile's own time zone, if it sets one (see src/time/zone.ts). */
  timeZone?: string;
  /** How CSV is written when --csv-locale does not say, as stored (checked where CSV is written: output/csv-locale.ts). */
  csvLocale?: string;
  /** The operator's display name (operator_name), checked: recorded beside `user@host` on every move. */
  operatorName?: string;
  /** The money tools `payctl mcp` lists when --allow does not say (mcp_allow), as stored (read strictly by mcp: commands/mcp/allow.ts). */
  mcpAllow?: string;
}

export interface ProfileOverrides {
  profile?: string;
  timeoutSeconds?: number;
}

export function currentProfileName(config: ConfigFile, env: NodeJS.ProcessEnv, flag?: string): string {
  return flag || env.PAYCTL_PROFILE || config.current_profile || SANDBOX_PROFILE;
}

export function profileExists(config: ConfigFile, name: string): boolean {
  return name === SANDBOX_PROFILE || Object.hasOwn(config.profiles, name);
}

/** The settings stored for a profile, with the built-in sandbox defaults under its own. */
export function storedSettings(config: ConfigFile, name: string): ProfileSettings {
  const own = config.profiles[name] ?? {};
  return name === SANDBOX_PROFILE ? { ...SANDBOX_DEFAULTS, ...own } : own;
}

/** Precedence: flag > environment > profile > built-in default. */
export function resolveProfile(
  config: ConfigFile,
  env: NodeJS.ProcessEnv,
  overrides: ProfileOverrides = {},
): ResolvedProfile {
  const name = currentProfileName(config, env, overrides.profile);
  if (!profileExists(config, name)) {
    throw new UsageError(`profile "${name}" does not exist; create it with 'payctl login --profile ${name}' or see 'payctl profiles list'`);
  }
  // The built-in sandbox profile's marketplace and seller ids belong to the embedded sandbox: once
  // the environment points it at another service, they must not follow (ids of one service sent
  // to another). What the user stored for it still applies.
  const retargeted = Boolean(env.PAYCTL_BASE_URL) && name === SANDBOX_PROFILE;
  const stored = retargeted ? { ...storedSettings(config, name), marketplace_id: config.profiles[name]?.marketplace_id, seller_id: config.profiles[name]?.seller_id } : storedSettings(config, name);
  const baseUrl = (env.PAYCTL_BASE_URL || stored.base_url || '').replace(/\/+$/, '');
  if (!baseUrl) {
    throw new UsageError(`profile "${name}" has no base_url; set it with 'payctl config set base_url <url>'`);
  }
  const resolved: ResolvedProfile = {
    name,
    baseUrl,
    currency: stored.currency || 'BRL',
    timeoutSeconds: overrides.timeoutSeconds ?? stored.timeout ?? DEFAULT_TIMEOUT_SECONDS,
    isEmbedded: baseUrl === EMBEDDED_BASE_URL,
    settleWindowSeconds: env.PAYCTL_SETTLE_WINDOW ? parseSettleWindow(env.PAYCTL_SETTLE_WINDOW, 'PAYCTL_SETTLE_WINDOW') : (stored.settle_window ?? DEFAULT_SETTLE_WINDOW_SECONDS),
  };
  // Set but empty turns it off, as for the marketplace id: back to the SQLite ledger.
  const ledgerUrl = env.PAYCTL_LEDGER_URL ?? stored.ledger_url;
  if (ledgerUrl) resolved.ledgerUrl = ledgerUrl;
  if (ledgerUrl && env.PAYCTL_LEDGER_URL === undefined && stored.ledger_url_ref === KEYRING_REF) resolved.ledgerUrlInKeyring = true;
  if (env.PAYCTL_API_KEY) {
    resolved.apiKey = env.PAYCTL_API_KEY;
    resolved.apiKeySource = 'environment';
  } else if (stored.api_key) {
    resolved.apiKey = stored.api_key;
    resolved.apiKeySource = config.profiles[name]?.api_key ? 'file' : 'built-in';
  } else if (stored.api_key_ref === KEYRING_REF) {
    resolved.apiKeySource = 'keyring';
  }
  const marketplaceId = env.PAYCTL_MARKETPLACE_ID ?? stored.marketplace_id;
  if (marketplaceId) resolved.marketplaceId = marketplaceId;
  // Set but empty turns it off, as for the marketplace id.
  const sellerId = env.PAYCTL_SELLER_ID ?? stored.seller_id;
  if (sellerId) resolved.sellerId = sellerId;
  if (stored.output) resolved.output = stored.output;
  if (stored.csv_locale) resolved.csvLocale = stored.csv_locale;
  if (stored.operator_name !== undefined) resolved.operatorName = parseOperatorName(stored.operator_name, `profile "${name}" operator_name`);
  if (stored.mcp_allow !== undefined) resolved.mcpAllow = stored.mcp_allow;
  if (env.PAYCTL_TIMEZONE) resolved.timeZone = parseTimeZone(env.PAYCTL_TIMEZONE, 'PAYCTL_TIMEZONE');
  else if (stored.timezone) resolved.timeZone = parseTimeZone(stored.timezone, `profile "${name}" timezone`);
  return resolved;
}

/** Seconds, as `config set settle_window` and PAYCTL_SETTLE_WINDOW take them: more than 0, at most an hour. */
export function parseSettleWindow(value: string, name: string): number {
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_SETTLE_WINDOW_SECONDS) {
    throw new UsageError(`${name}: give seconds, more than 0 and at most ${MAX_SETTLE_WINDOW_SECONDS} (how long after a send a lost request may still land; default ${DEFAULT_SETTLE_WINDOW_SECONDS})`);
  }
  return seconds;
}

/** The longest operator name, in characters: a name, not a note. */
export const MAX_OPERATOR_NAME = 64;
/**
 * What a name must not hold: control characters (an escape sequence would repaint the terminal of
 * whoever reads the ledger; a line break would split a CSV row), line and paragraph separators, and
 * the marks that reverse the direction of text (a name that shows as another).
 */
const NOT_IN_A_NAME = /[\p{Cc}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/**
 * An operator's display name, as `config set operator_name` and every read of the profile take it:
 * trimmed, not empty, at most MAX_OPERATOR_NAME characters, no control characters. It is shown to
 * other operators and auditors (tables, CSV cells), so a name that cannot be shown as written is
 * refused, never cleaned into another.
 */
export function parseOperatorName(value: string, name: string): string {
  const trimmed = value.trim();
  const fix = "give the name people know you by, such as \"Ana Souza\"";
  if (trimmed === '') throw new UsageError(`${name}: is empty; ${fix}`);
  if (NOT_IN_A_NAME.test(trimmed)) throw new UsageError(`${name}: holds a control character (a tab, a line break, an escape or a direction mark); ${fix}`);
  if ([...trimmed].length > MAX_OPERATOR_NAME) throw new UsageError(`${name}: is longer than ${MAX_OPERATOR_NAME} characters; ${fix}`);
  return trimmed;
}

/** The only way an API key is ever shown: its prefix and last four characters. */
export function maskApiKey(key: string | undefined): string {
  if (!key) return '(none)';
  const prefix = /^[a-z]+_/i.exec(key)?.[0] ?? '';
  return `${prefix}…${key.slice(-4)}`;
}
