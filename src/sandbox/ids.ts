import { randomInt, randomUUID } from 'node:crypto';

/**
 * Resource ids look like the provider's: 32 lowercase hex characters. randomUUID draws from a
 * cached pool of entropy, several times faster than randomBytes when a volume of sales needs
 * hundreds of thousands of ids.
 */
export function newId(): string {
  return randomUUID().replace(/-/g, '');
}

/** A string of `length` random decimal digits (NSUs, authorization codes, document numbers). */
export function randomDigits(length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += String(randomInt(10));
  return out;
}
