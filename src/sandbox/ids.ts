import { randomInt, randomUUID } from 'node:crypto';

/**
 * Resource ids look like the provider's: 32 lowercase hex characters. Inside a change they are
 * made by the database (mintingWith); otherwise the first 12 are the time
 * in milliseconds and the other 20 random (the idea of UUID version 7): ids made one after another
 * sort near each other, so each lands next to the last in the database's id indexes instead of on
 * a random page of them, which at a million sales was a large part of what a new sale cost.
 * randomUUID draws from a cached pool of entropy, several times faster than randomBytes.
 */
export function newId(): string {
  return minter?.mint() ?? Date.now().toString(16).padStart(12, '0') + randomUUID().replace(/-/g, '').slice(12);
}

/** What makes the ids of the change under way: its database's session (db/id-codes.ts). */
let minter: { mint(): string } | undefined;

/**
 * Runs `change` with its new ids made by `session`: numbered ids its database keeps small. An id
 * made outside a change (a request's body read before the change begins) is a random one, which
 * the database keeps as text.
 */
export function mintingWith<T>(session: { mint(): string }, change: () => T): T {
  const outer = minter;
  minter = session;
  try {
    return change();
  } finally {
    minter = outer;
  }
}

/** A string of `length` random decimal digits (NSUs, authorization codes, document numbers). */
export function randomDigits(length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += String(randomInt(10));
  return out;
}
