import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CliError, ExitCode } from '../errors.js';
import { dirError } from '../platform/dirs.js';
import type { ConfigSchema } from './schema.js';

/** The settings a profile may hold; every one is optional on disk. */
export interface ProfileSettings {
  base_url?: string;
  api_key?: string;
  /** Where the API key is when it is not in the file: "keyring" (set by login, never by `config set`). */
  api_key_ref?: string;
  marketplace_id?: string;
  seller_id?: string;
  currency?: string;
  output?: string;
  timeout?: number;
  /** A PostgreSQL URL: the ledger every operator of the account shares (its password masked when shown). */
  ledger_url?: string;
  /** "keyring" when the ledger URL itself is there (set by `config set ledger_url`): ledger_url then holds it masked. */
  ledger_url_ref?: string;
  /** Seconds after a send that a lost request may still land (default 120). */
  settle_window?: number;
  /** The time zone days and times are read and shown in (an IANA name); else TZ, else the system's. */
  timezone?: string;
  /** How CSV is written: pt-BR for a Brazilian spreadsheet, none (the default) for the API's values. */
  csv_locale?: string;
  /** The operator's name as people read it ("Ana Souza"), recorded beside `user@host` on every move. */
  operator_name?: string;
  /** The money tools `payctl mcp` lists when --allow does not say: refunds,captures,creates,cancellations or none. */
  mcp_allow?: string;
}

export interface ConfigFile {
  current_profile?: string;
  profiles: Record<string, ProfileSettings>;
}

export const PROFILE_KEYS = [
  'base_url',
  'api_key',
  'marketplace_id',
  'seller_id',
  'currency',
  'output',
  'timeout',
  'ledger_url',
  'settle_window',
  'timezone',
  'csv_locale',
  'operator_name',
  'mcp_allow',
] as const satisfies readonly (keyof ProfileSettings)[];
export type ProfileKey = (typeof PROFILE_KEYS)[number];

/** The config file exists but cannot be used: one line naming it and what is wrong. */
export class ConfigFileError extends CliError {
  constructor(file: string, problem: string) {
    super(`config file ${file} ${problem}; fix it or delete it and run 'payctl login' again`, ExitCode.internal);
  }
}

export async function loadConfig(file: string): Promise<ConfigFile> {
  let text: string;
  try {
    // Read synchronously: every command starts here, and one small read beats the four
    // round trips (open, stat, read, close) of the promise API.
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { profiles: {} };
    if (code === 'ENOTDIR') throw dirError('config directory', dirname(file), err);
    throw new ConfigFileError(file, `cannot be read (${(err as Error).message})`);
  }
  if (text.trim() === '') return { profiles: {} };
  // The schema (and zod with it) is loaded only when there is a file to check: importing zod costs
  // start-up time (~3–4 ms) that a command reading no config file, or none at all, should not pay.
  const { configSchema } = await import('./schema.js');
  return parseConfig(file, text, configSchema);
}

/**
 * The file's text, parsed and checked against the schema (passed in: schema.ts is loaded lazily);
 * an empty file is an empty config.
 */
export function parseConfig(file: string, text: string, schema: ConfigSchema): ConfigFile {
  if (text.trim() === '') return { profiles: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ConfigFileError(file, `is not valid JSON (${(err as Error).message})`);
  }
  const result = schema.safeParse(raw);
  if (!result.success) throw new ConfigFileError(file, describeIssue(result.error.issues[0]));
  // Keys in the order they were written: current_profile, profiles, then any others.
  const config = result.data as ConfigFile;
  config.profiles ??= {};
  return config;
}

interface Issue {
  path: PropertyKey[];
  expected?: string;
}

/** The first schema issue as the rest of a sentence: `has "live.timeout" that is not a number`. */
function describeIssue(issue: Issue | undefined): string {
  const path = (issue?.path ?? []).map(String);
  const [top, name, key] = path;
  if (top === undefined) return 'does not hold a JSON object';
  if (top === 'current_profile') return 'has a "current_profile" that is not a string';
  if (name === undefined) return 'has a "profiles" entry that is not an object';
  if (key === undefined) return `has a profile "${name}" that is not an object`;
  return `has "${name}.${key}" that is not a ${issue?.expected ?? (key === 'timeout' ? 'number' : 'string')}`;
}
