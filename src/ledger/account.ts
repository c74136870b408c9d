// The ledger's scope is the account that money moves in, never how it was reached: two profiles,
// two spellings of one base URL (localhost, 127.0.0.1, a proxy) or two keys of one marketplace
// must see the same intents, or a rerun through the other one would not find an unresolved move
// and would send it again.
//
//   - a profile that names its marketplace: the marketplace id (as the provider lays out its API,
//     every key of a marketplace reaches the same one);
//   - one that does not (a service whose key alone picks the account): the key, by a hash of it;
//   - the embedded sandbox: this state directory's own, a service no other machine can reach;
//
// each with whether the key is a test or a live one: a marketplace's sandbox and production are
// different accounts.
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { isTestKey } from '../provider/test-keys.js';

export interface AccountSource {
  isEmbedded: boolean;
  apiKey?: string | undefined;
  marketplaceId?: string | undefined;
}

export interface Account {
  /** What the ledger keys everything by: `test:marketplace:<id>`, `live:key:<hash>`, `test:embedded:<hash>`. */
  id: string;
  /** For messages: `marketplace 3f0c…d1f2 (test)`. */
  label: string;
  /** The embedded sandbox's: its sales live in the state directory, and go with it (marker.ts). */
  embedded: boolean;
}

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

export function accountOf(profile: AccountSource, stateDir: string): Account {
  if (profile.isEmbedded) return { id: `test:embedded:${hash(resolve(stateDir))}`, label: 'the embedded sandbox', embedded: true };
  const mode = isTestKey(profile.apiKey) ? 'test' : 'live';
  if (profile.marketplaceId) return { id: `${mode}:marketplace:${profile.marketplaceId}`, label: `marketplace ${profile.marketplaceId} (${mode})`, embedded: false };
  const key = hash(profile.apiKey ?? '');
  return { id: `${mode}:key:${key}`, label: `the account of API key …${(profile.apiKey ?? '').slice(-4)} (${mode})`, embedded: false };
}
