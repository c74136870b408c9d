// Money on the command line is typed by people in Brazil and in scripts: "10.50" and "10,50" both
// mean ten reais and fifty centavos. Conversion to integer cents is done on the digits of the string,
// never through a float, so "0.29" is 29 cents and not 28.999999999999996.
import { ValidationError } from '../errors.js';

const MAX_CENTS = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * `--amount` in major units ("10.50", "10,50", "10.5", "10") → integer cents, exactly.
 * Anything that could be read two ways (thousands separators) is refused rather than guessed.
 */
export function parseAmount(value: string, flag = '--amount'): number {
  const shown = JSON.stringify(value);
  if (value === '') throw new ValidationError(flag, 'give an amount in reais, like 10.50 or 10,50');
  if (/\s/.test(value)) throw new ValidationError(flag, `${shown} contains a space; write the amount without spaces, like 1234.56`);
  if (/^[+-]/.test(value)) {
    throw new ValidationError(flag, `${shown} has a sign; give a positive amount without + or -, like 10.50`);
  }
  if (/^\d[\d.,]*[eE][+-]?\d+$/.test(value)) {
    throw new ValidationError(flag, `${shown} uses an exponent; write the amount out in full, like 1000.00`);
  }
  if (/[^\d.,]/.test(value)) {
    throw new ValidationError(flag, `${shown} is not an amount; use digits and one decimal point or comma, like 10.50`);
  }
  const separators = value.match(/[.,]/g) ?? [];
  if (separators.length > 1) {
    throw new ValidationError(
      flag,
      `${shown} looks like it has a thousands separator; write the amount without one, like 1234.56 or 1234,56`,
    );
  }
  const match = /^(\d+)(?:[.,](\d+))?$/.exec(value);
  if (!match) {
    throw new ValidationError(flag, `${shown} is not an amount; put digits on both sides of the decimal point, like 0.50 or 10.00`);
  }
  const whole = match[1] as string;
  const fraction = match[2] ?? '';
  if (fraction.length > 2) {
    const hint =
      fraction.length === 3 ? ` (if the ${value[whole.length]} separates thousands, write ${whole}${fraction} instead)` : '';
    throw new ValidationError(flag, `${shown} has more than 2 decimal places; amounts go down to centavos, like 10.50${hint}`);
  }
  const cents = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  if (cents === 0n) throw new ValidationError(flag, `${shown} is zero; give an amount greater than 0`);
  if (cents > MAX_CENTS) throw new ValidationError(flag, `${shown} is too large`);
  return Number(cents);
}

/** `--amount-cents` in minor units: a positive whole number ("1050" is R$ 10,50). */
export function parseAmountCents(value: string, flag = '--amount-cents'): number {
  const shown = JSON.stringify(value);
  if (!/^\d+$/.test(value)) {
    const hint = /^\d+[.,]\d+$/.test(value) ? '; for reais and centavos use --amount instead' : '';
    throw new ValidationError(flag, `${shown} is not a whole number of centavos, like 1050 for R$ 10,50${hint}`);
  }
  const cents = BigInt(value);
  if (cents === 0n) throw new ValidationError(flag, `${shown} is zero; give an amount greater than 0`);
  if (cents > MAX_CENTS) throw new ValidationError(flag, `${shown} is too large`);
  return Number(cents);
}

/** Integer cents → the API's decimal string: 1050 → "10.50", 5 → "0.05", -250 → "-2.50". */
export function centsToDecimalString(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not a whole number of cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const digits = String(Math.abs(cents)).padStart(3, '0');
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/**
 * An amount as the API returns it ("10.50", "3", "1.1", "-2.00") → integer cents, exactly.
 * Extra decimal places are accepted only when they are zeros ("10.500"); anything else is not money
 * this CLI can reason about, so it throws instead of rounding.
 */
export function decimalStringToCents(s: string): number {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(s.trim());
  if (!match) throw new RangeError(`not a decimal amount: ${JSON.stringify(s)}`);
  const sign = match[1] === '-' ? -1n : 1n;
  const fraction = (match[3] ?? '').replace(/0+$/, '');
  if (fraction.length > 2) throw new RangeError(`amount has fractions of a centavo: ${JSON.stringify(s)}`);
  const cents = sign * (BigInt(match[2] as string) * 100n + BigInt(fraction.padEnd(2, '0')));
  if (cents > MAX_CENTS || cents < -MAX_CENTS) throw new RangeError(`amount too large: ${JSON.stringify(s)}`);
  return cents === 0n ? 0 : Number(cents);
}
