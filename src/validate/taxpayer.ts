// CPF (people, 11 digits) and CNPJ (companies, 14 characters) carry two check digits each, so a
// mistyped number is caught here instead of coming back as a rejected payment. The check-digit
// rules come from @brazilian-utils/brazilian-utils, including the alphanumeric CNPJ the Receita
// Federal issues from July 2026 (12.ABC.345/01DE-35: letters in the first 12 characters, the two
// check digits always digits); this file only adds the messages that name the flag.
import { isValidCnpj as libIsValidCnpj, isValidCpf as libIsValidCpf } from '@brazilian-utils/brazilian-utils';
import { ValidationError } from '../errors.js';

/** Punctuation people copy along with the number: 123.456.789-09, 12.345.678/0001-95. */
const PUNCTUATION = /[.\-/\s]/g;

/** Everything a CPF or CNPJ may be written with: letters (alphanumeric CNPJ), digits, punctuation. */
const ALLOWED = /^[0-9A-Za-z.\-/\s]*$/;

/**
 * A CPF or CNPJ as written (with or without punctuation, any case) → the characters that identify
 * it: no punctuation, letters upper-cased. Does not check anything.
 */
export function normalizeTaxpayerId(value: string): string {
  return value.replace(PUNCTUATION, '').toUpperCase();
}

/** True for a CPF with correct check digits; punctuation is ignored. */
export function isValidCpf(value: string): boolean {
  const id = normalizeTaxpayerId(value);
  return /^\d{11}$/.test(id) && libIsValidCpf(id);
}

/** True for a CNPJ with correct check digits, numeric or alphanumeric (any case); punctuation is ignored. */
export function isValidCnpj(value: string): boolean {
  const id = normalizeTaxpayerId(value);
  return /^[0-9A-Z]{12}\d{2}$/.test(id) && libIsValidCnpj(id, { version: 2 });
}

const EXAMPLES = 'like 123.456.789-09 (CPF), 12.345.678/0001-95 or 12.ABC.345/01DE-35 (CNPJ)';

/** A number whose digits are all the same passes the arithmetic for some lengths but is never issued. */
const allSame = (id: string): boolean => /^(.)\1*$/.test(id);

/** What `value` would be without its letters, when that is a valid CPF/CNPJ ("CPF 529.982.247-25"). */
function withoutLetters(value: string): string | undefined {
  const digits = value.replace(/\D/g, '');
  if (digits.length === 11 && isValidCpf(digits)) return `the CPF ${digits}`;
  if (digits.length === 14 && isValidCnpj(digits)) return `the CNPJ ${digits}`;
  return undefined;
}

/**
 * A CPF or CNPJ, with or without punctuation → its characters without punctuation (an
 * alphanumeric CNPJ upper-cased), after the check digits are verified.
 */
export function validateTaxpayerId(value: string, flag = '--taxpayer-id'): string {
  const shown = JSON.stringify(value);
  if (value.trim() === '') throw new ValidationError(flag, 'give a CPF (11 digits) or CNPJ (14 characters)');
  if (!ALLOWED.test(value)) {
    throw new ValidationError(flag, `${shown} should contain only digits and letters (dots, dashes, a slash and spaces are allowed), ${EXAMPLES}`);
  }
  const id = normalizeTaxpayerId(value);
  const hasLetters = /[A-Z]/.test(id);
  if (id.length === 11 && !hasLetters) {
    if (allSame(id)) throw new ValidationError(flag, `${shown} is not a valid CPF (a number with every digit the same is never issued)`);
    if (!isValidCpf(id)) throw new ValidationError(flag, `${shown} is not a valid CPF (the check digits do not match); look for a typo`);
    return id;
  }
  if (id.length === 14 && isValidCnpj(id)) return id;

  // Not valid: say why, as precisely as the input allows.
  const meant = hasLetters ? withoutLetters(value) : undefined;
  if (meant) throw new ValidationError(flag, `${shown} has letters in it; did you mean ${meant}? Give the number alone`);
  if (id.length === 11) {
    throw new ValidationError(flag, `${shown} is not a valid CPF: a CPF has digits only (letters appear only in a CNPJ, which has 14 characters)`);
  }
  if (id.length === 14) {
    if (!/^\d{2}$/.test(id.slice(12))) {
      throw new ValidationError(flag, `${shown} is not a valid CNPJ: its last two characters are check digits, always digits (letters may appear only in the first 12)`);
    }
    if (allSame(id)) throw new ValidationError(flag, `${shown} is not a valid CNPJ (a number with every digit the same is never issued)`);
    throw new ValidationError(flag, `${shown} is not a valid CNPJ (the check digits do not match); look for a typo`);
  }
  const what = hasLetters ? 'characters' : 'digits';
  throw new ValidationError(flag, `${shown} has ${id.length} ${what}; a CPF has 11 digits and a CNPJ 14 characters`);
}
