import { readFileSync } from 'node:fs';
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CliError, ExitCode } from '../errors.js';

/** The settings a profile may hold; every one is optional on disk. */
export interface ProfileSettings {
  base_url?: string;
  api_key?: string;
  marketplace_id?: string;
  seller_id?: string;
  currency?: string;
  output?: string;
  timeout?: number;
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
] as const satisfies readonly (keyof ProfileSettings)[];
export type ProfileKey = (typeof PROFILE_KEYS)[number];

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
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw new ConfigFileError(file, `cannot be read (${(err as Error).message})`);
  }
  if (text.trim() === '') return { profiles: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ConfigFileError(file, `is not valid JSON (${(err as Error).message})`);
  }
  return checkShape(file, raw);
}

// Checked by hand rather than with zod: this runs on every command, and loading a schema
// library for seven keys would cost more start-up time than the check itself.
function checkShape(file: string, raw: unknown): ConfigFile {
  if (!isObject(raw)) throw new ConfigFileError(file, 'does not hold a JSON object');
  const { current_profile, profiles = {} } = raw;
  if (current_profile !== undefined && typeof current_profile !== 'string') {
    throw new ConfigFileError(file, 'has a "current_profile" that is not a string');
  }
  if (!isObject(profiles)) throw new ConfigFileError(file, 'has a "profiles" entry that is not an object');
  const checked: Record<string, ProfileSettings> = {};
  for (const [name, settings] of Object.entries(profiles)) {
    if (!isObject(settings)) throw new ConfigFileError(file, `has a profile "${name}" that is not an object`);
    for (const [key, value] of Object.entries(settings)) {
      const expected = key === 'timeout' ? 'number' : 'string';
      if (typeof value !== expected) {
        throw new ConfigFileError(file, `has "${name}.${key}" that is not a ${expected}`);
      }
    }
    checked[name] = settings as ProfileSettings;
  }
  return current_profile === undefined ? { profiles: checked } : { current_profile, profiles: checked };
}

/** Writes atomically (temp file + rename) so a crash never leaves half a config; 0600 in a 0700 dir. */
export async function saveConfig(file: string, config: ConfigFile): Promise<void> {
  const dir = dirname(file);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(temp, 0o600);
  await rename(temp, file);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
