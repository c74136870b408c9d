import { randomInt, randomUUID } from 'node:crypto';

/**
 * A new id, made by the change under way: the next of its database's numbers (Session.mint), which
 * the database keeps small (db/id-codes.ts). Asked of the state the change was given, never of
 * one set aside: under `sandbox serve` several databases make ids in one process.
 */
export function newId(state: { readonly session: { mint(): string } }): string {
  return state.session.mint();
}

/**
 * An id made outside any change (the seed's): 32 lowercase hex characters, the first 12 the time
 * in milliseconds and the other 20 random (the idea of UUID version 7), so ids made one after
 * another sort near each other. The database keeps it as text. randomUUID draws from a cached
 * pool of entropy, several times faster than randomBytes.
 */
export function randomId(): string {
  return Date.now().toString(16).padStart(12, '0') + randomUUID().replace(/-/g, '').slice(12);
}

/** A string of `length` random decimal digits (NSUs, authorization codes, document numbers). */
export function randomDigits(length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += String(randomInt(10));
  return out;
}
