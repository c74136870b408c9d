import { ValidationError } from '../errors.js';

/** Long values are cut in messages so one bad paste does not flood the terminal. */
function quote(value: string, max = 70): string {
  return JSON.stringify(value.length > max ? `${value.slice(0, max)}…` : value);
}

/** An ISO 4217 currency code: three letters, returned in upper case (`brl` → `BRL`). */
export function validateCurrency(value: string, flag = '--currency'): string {
  const v = value.trim();
  if (!/^[A-Za-z]{3}$/.test(v)) throw new ValidationError(flag, `${quote(value)} is not a currency code; give three letters, like BRL`);
  return v.toUpperCase();
}

/**
 * The shape of an e-mail address (something@domain.tld, no spaces, at most 254 characters). Whether
 * the mailbox exists is for the provider to find out.
 */
export function validateEmail(value: string, flag = '--email'): string {
  const v = value.trim();
  const ok =
    v.length <= 254 &&
    /^[^\s@]+@[^\s@]+$/.test(v) &&
    /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}$/.test(v.slice(v.indexOf('@') + 1)) &&
    !/^\.|\.\.|\.@/.test(v);
  if (!ok) throw new ValidationError(flag, `${quote(value)} is not an e-mail address like maria@example.com`);
  return v;
}

/** Number of installments: a whole number from 1 to 12. */
export function validateInstallments(value: string, flag = '--installments'): number {
  const v = value.trim();
  if (!/^\d{1,2}$/.test(v) || Number(v) < 1 || Number(v) > 12) {
    throw new ValidationError(flag, `${quote(value)} is not a number of installments; give a whole number from 1 to 12`);
  }
  return Number(v);
}

/**
 * A resource id that goes into a URL path. Only 1–64 of [A-Za-z0-9_-] are allowed, so nothing with
 * `/`, `..`, `?`, `#`, `%` or spaces can ever change which URL is requested.
 * `what` names the id in the message: `malformed transaction id "abc/def"`.
 */
export function validateId(value: string, what: string, flag: string): string {
  if (value === '') throw new ValidationError(flag, `missing ${what}`);
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(value)) {
    const why = value.length > 64 ? 'at most 64 characters' : 'only letters, digits, "_" and "-"';
    throw new ValidationError(flag, `malformed ${what} ${quote(value)} (ids have ${why})`);
  }
  return value;
}

/** Repeatable `--metadata key=value` → `{ key: value }`; the value may itself contain `=`. */
export function parseMetadata(pairs: string[], flag = '--metadata'): Record<string, string> {
  const entries = new Map<string, string>();
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at < 0) throw new ValidationError(flag, `${quote(pair)} should look like key=value`);
    const key = pair.slice(0, at).trim();
    if (key === '') throw new ValidationError(flag, `${quote(pair)} has no key before the "="; use key=value`);
    if (entries.has(key)) throw new ValidationError(flag, `key ${quote(key)} is given more than once`);
    entries.set(key, pair.slice(at + 1));
  }
  // fromEntries defines own properties, so a key such as "__proto__" stays plain data.
  return Object.fromEntries(entries);
}

/** A phone number → its digits: 10 to 13 after removing spaces, dots, dashes, brackets and a leading +. */
export function validatePhone(value: string, flag = '--phone'): string {
  const v = value.trim();
  if (!/^\+?[\d\s().-]+$/.test(v)) {
    throw new ValidationError(flag, `${quote(value)} is not a phone number; use digits, like +55 11 98765-4321`);
  }
  const digits = v.replace(/\D/g, '');
  if (digits.length < 10 || digits.length > 13) {
    throw new ValidationError(flag, `${quote(value)} has ${digits.length} digits; a phone number with area code has 10 to 13`);
  }
  return digits;
}

/**
 * A Brazilian phone for SMS, as the provider takes it: `+55 DDNNNNNNNNN` (country code, two-digit
 * area code, 8 or 9 digits). Accepts `(21) 99909-9999`, `21999099999` or `+55 21 99909-9999`.
 */
export function validateBrazilianPhone(value: string, flag = '--to'): string {
  const v = value.trim();
  if (!/^\+?[\d\s().-]+$/.test(v)) {
    throw new ValidationError(flag, `${quote(value)} is not a phone number; use +55 with the area code, like +55 21 99909-9999`);
  }
  let digits = v.replace(/\D/g, '');
  if (v.startsWith('+')) {
    if (!digits.startsWith('55')) throw new ValidationError(flag, `${quote(value)} is not a Brazilian number (+55)`);
    digits = digits.slice(2);
  } else if (digits.length > 11 && digits.startsWith('55')) {
    digits = digits.slice(2);
  }
  if (digits.length !== 10 && digits.length !== 11) {
    throw new ValidationError(flag, `${quote(value)} needs the area code and the number: +55 21 99909-9999`);
  }
  if (!/^[1-9][1-9]/.test(digits)) throw new ValidationError(flag, `${quote(value)} has no valid area code (11 to 99)`);
  if (digits.length === 11 && digits[2] !== '9') throw new ValidationError(flag, `${quote(value)}: a 9-digit mobile number starts with 9`);
  return `+55 ${digits}`;
}
