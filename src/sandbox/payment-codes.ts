import { formatBoleto, generatePixPayload, isValidBoleto } from '@brazilian-utils/brazilian-utils';
import { SandboxError } from './errors.js';
import { randomDigits } from './ids.js';

// Boleto barcodes and PIX codes built to the real formats (FEBRABAN barcode and linha digitável,
// EMV BR Code with its CRC16), so clients that parse or validate them can be tested against the
// sandbox. The PIX BR Code and the linha digitável's punctuation come from
// @brazilian-utils/brazilian-utils, and every boleto is checked with its isValidBoleto.

const FACTOR_BASE = Date.UTC(1997, 9, 7);

/** FEBRABAN due-date factor: days since 1997-10-07, restarting at 1000 after 9999 (2025-02-22). */
function dueDateFactor(due: Date): string {
  const days = Math.floor((due.getTime() - FACTOR_BASE) / 86_400_000);
  const factor = days < 1000 ? days : ((days - 1000) % 9000) + 1000;
  return String(Math.max(factor, 0)).padStart(4, '0');
}

// The check digits below stay hand-written: the library validates and reads boletos
// (isValidBoleto, getBoletoInfo) but its only builder, generateBoleto, makes random ones; it
// cannot take an amount and a due date, and it exports no check-digit helper.

/** The sum of each digit times its weight, from the rightmost digit on, the weights taken in turn; `fold` applies to each product. */
function weightedSum(digits: string, weights: readonly number[], fold = (product: number) => product): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    sum += fold((digits.charCodeAt(digits.length - 1 - i) - 48) * (weights[i % weights.length] as number));
  }
  return sum;
}

/** Módulo 11 general check digit of the barcode (weights 2..9; 0, 10 and 11 become 1). */
function mod11(digits: string): string {
  const dv = 11 - (weightedSum(digits, [2, 3, 4, 5, 6, 7, 8, 9]) % 11);
  return dv === 0 || dv >= 10 ? '1' : String(dv);
}

/** Módulo 10 check digit of each of the first three fields of the linha digitável. */
function mod10(digits: string): string {
  return String((10 - (weightedSum(digits, [2, 1], (product) => (product > 9 ? product - 9 : product)) % 10)) % 10);
}

/** The 47 digits of the linha digitável, in its field order, with the field check digits. */
function digitableDigits(barcode: string): string {
  const free = barcode.slice(19);
  const f1 = `${barcode.slice(0, 4)}${free.slice(0, 5)}`;
  const f2 = free.slice(5, 15);
  const f3 = free.slice(15, 25);
  return `${f1}${mod10(f1)}${f2}${mod10(f2)}${f3}${mod10(f3)}${barcode[4]}${barcode.slice(5, 19)}`;
}

/** 44-digit barcode: bank, currency 9, check digit, due factor, amount, 25-digit free field. */
export function boletoBarcode(bankCode: string, amountCents: number, due: Date): string {
  const amount = String(Math.min(amountCents, 9_999_999_999)).padStart(10, '0');
  const withoutDv = `${bankCode}9${dueDateFactor(due)}${amount}${randomDigits(25)}`;
  const barcode = `${withoutDv.slice(0, 4)}${mod11(withoutDv)}${withoutDv.slice(4)}`;
  // The library validates the linha digitável (which carries every digit of the barcode), not
  // a bank barcode: a code that fails here is a bug in the layout above, never the client's.
  if (!isValidBoleto(digitableDigits(barcode))) {
    throw new SandboxError(500, 'server_api_error', `Sandbox internal error: built an invalid boleto barcode (${barcode}).`);
  }
  return barcode;
}

/** The 47-digit "linha digitável" printed on the boleto, derived from its barcode: 00000.00000 00000.000000 00000.000000 0 00000000000000. */
export function digitableLine(barcode: string): string {
  return formatBoleto(digitableDigits(barcode));
}

/**
 * Dynamic PIX "copia e cola" (EMV BR Code) pointing at a payload location (no URL scheme, at
 * most 77 characters). The amount is not written into the code: in a dynamic BR Code the amount is
 * served from the location, and the library refuses a transaction amount (field 54) next to a
 * URL; the transaction carries the amount.
 */
export function pixEmv(location: string, merchantName: string, merchantCity: string): string {
  const payload = generatePixPayload({ url: location, merchantName: merchantName.toUpperCase(), merchantCity: merchantCity.toUpperCase() });
  if (payload === null) {
    // generatePixPayload answers null for a location it does not accept (scheme, length, host) or
    // a merchant name/city with nothing left once folded to ASCII.
    throw new SandboxError(
      500,
      'server_api_error',
      `Sandbox internal error: could not build the PIX BR Code (location ${JSON.stringify(location)}, merchant ${JSON.stringify(merchantName)}, city ${JSON.stringify(merchantCity)}).`,
    );
  }
  return payload;
}
