// CPF (people, 11 digits) and CNPJ (companies, 14 digits) carry two mod-11 check digits each, so a
// mistyped number is caught here instead of coming back as a rejected payment.
import { ValidationError } from '../errors.js';

/** Punctuation people copy along with the number: 123.456.789-09, 12.345.678/0001-95. */
const PUNCTUATION = /[.\-/\s]/g;

function checkDigit(digits: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += (digits.charCodeAt(i) - 48) * (weights[i] as number);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

const CPF_WEIGHTS_1 = [10, 9, 8, 7, 6, 5, 4, 3, 2];
const CPF_WEIGHTS_2 = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/** Sequences like 000.000.000-00 and 111.111.111-11 pass the arithmetic but are never issued. */
function allSame(digits: string): boolean {
  return /^(\d)\1*$/.test(digits);
}

/** True for a CPF with correct check digits; punctuation is ignored. */
export function isValidCpf(value: string): boolean {
  const d = value.replace(PUNCTUATION, '');
  if (!/^\d{11}$/.test(d) || allSame(d)) return false;
  return checkDigit(d, CPF_WEIGHTS_1) === Number(d[9]) && checkDigit(d, CPF_WEIGHTS_2) === Number(d[10]);
}

/** True for a CNPJ with correct check digits; punctuation is ignored. */
export function isValidCnpj(value: string): boolean {
  const d = value.replace(PUNCTUATION, '');
  if (!/^\d{14}$/.test(d) || allSame(d)) return false;
  return checkDigit(d, CNPJ_WEIGHTS_1) === Number(d[12]) && checkDigit(d, CNPJ_WEIGHTS_2) === Number(d[13]);
}

/** A CPF or CNPJ, with or without punctuation → digits only, after the check digits are verified. */
export function validateTaxpayerId(value: string, flag = '--taxpayer-id'): string {
  const shown = JSON.stringify(value);
  if (value.trim() === '') throw new ValidationError(flag, 'give a CPF (11 digits) or CNPJ (14 digits)');
  if (/[^\d.\-/\s]/.test(value)) {
    throw new ValidationError(flag, `${shown} should contain only digits (dots, dashes and a slash are allowed), like 123.456.789-09`);
  }
  const digits = value.replace(PUNCTUATION, '');
  if (digits.length === 11) {
    if (!isValidCpf(digits)) throw new ValidationError(flag, `${shown} is not a valid CPF (the check digits do not match); look for a typo`);
    return digits;
  }
  if (digits.length === 14) {
    if (!isValidCnpj(digits)) throw new ValidationError(flag, `${shown} is not a valid CNPJ (the check digits do not match); look for a typo`);
    return digits;
  }
  throw new ValidationError(flag, `${shown} has ${digits.length} digits; a CPF has 11 and a CNPJ 14`);
}
