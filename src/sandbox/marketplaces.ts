import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { SANDBOX_API_KEY } from '../provider/sandbox-account.js';
import { TEST_KEY_PREFIX } from '../provider/test-keys.js';

// Under `sandbox serve`, every API key is a marketplace of its own: its own database (and so its
// own data, webhooks, events and clock), in a directory named by a hash of the key, so the key
// itself is never written to disk. The built-in sandbox profile's key is the one exception: its
// marketplace is the embedded sandbox's state, so a served sandbox still shares it with payctl's
// default profile, as before.

export { TEST_KEY_PREFIX };
/** A key shorter than this after its prefix is guessable, so anyone could enter its marketplace. */
export const MIN_TEST_KEY_TAIL = 16;

/** Whether `key` is a test key `sandbox serve` accepts: the prefix, then at least 16 more characters. */
export function isServedTestKey(key: string): boolean {
  return key.startsWith(TEST_KEY_PREFIX) && key.length - TEST_KEY_PREFIX.length >= MIN_TEST_KEY_TAIL;
}

/** The name of a key's marketplace: 32 hex digits of its SHA-256. */
export function marketplaceName(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 32);
}

const NAME = /^[0-9a-f]{32}$/;

/**
 * Where the marketplace named `name` keeps its state, under the served sandbox's state directory;
 * undefined for a name that is not one (a letter's URL is read before any key is).
 */
export function marketplaceStateDir(stateDir: string, name: string): string | undefined {
  if (name === marketplaceName(SANDBOX_API_KEY)) return stateDir;
  return NAME.test(name) ? path.join(stateDir, 'marketplaces', name) : undefined;
}

/** Whether a marketplace has ever been used (its directory exists): a letter of one that has not is not looked for. */
export function marketplaceExists(stateDir: string, name: string): boolean {
  const dir = marketplaceStateDir(stateDir, name);
  return dir !== undefined && existsSync(dir);
}
