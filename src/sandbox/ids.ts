import { randomBytes, randomInt } from 'node:crypto';

/** Resource ids look like the provider's: 32 lowercase hex characters. */
export function newId(): string {
  return randomBytes(16).toString('hex');
}

/** A string of `length` random decimal digits (NSUs, authorization codes, document numbers). */
export function randomDigits(length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += String(randomInt(10));
  return out;
}
