// Card checks run before anything is sent. Messages never repeat the card number or CVV: they end
// up on screens, in terminal scrollback and in support tickets.
import { isValidCreditCard } from '@brazilian-utils/brazilian-utils';
import { ValidationError } from '../errors.js';

export type CardBrand = 'Visa' | 'MasterCard' | 'American Express' | 'Elo' | 'Hipercard' | 'Diners' | 'Unknown';

/**
 * Luhn (mod 10) check over a string of digits, by @brazilian-utils/brazilian-utils'
 * isValidCreditCard; false for anything that is not all digits (the library would read "4111 1111
 * …" as a card, but callers here strip separators themselves), for fewer than 12 or more than 19
 * digits (no card number has them) and for a number whose digits are all the same (a placeholder).
 */
export function luhnValid(digits: string): boolean {
  return /^\d+$/.test(digits) && isValidCreditCard(digits);
}

type Range = readonly [number, number];

// Elo and Hipercard are Brazilian brands whose BINs sit inside ranges the international brands
// also use (Elo has 4xxxxx and 5xxxxx BINs), so they are matched first, on six-digit BINs.
const ELO_BINS: readonly Range[] = [
  [401178, 401179], [431274, 431274], [438935, 438935], [451416, 451416], [457393, 457393],
  [457631, 457632], [504175, 504175], [506699, 506778], [509000, 509999], [627780, 627780],
  [636297, 636297], [636368, 636368], [650031, 650033], [650035, 650051], [650405, 650439],
  [650485, 650538], [650541, 650598], [650700, 650718], [650720, 650727], [650901, 650978],
  [651652, 651679], [655000, 655019], [655021, 655058],
];
const HIPERCARD_BINS: readonly Range[] = [
  [606282, 606282], [384100, 384100], [384140, 384140], [384160, 384160], [637095, 637095],
  [637568, 637568], [637599, 637599], [637609, 637609], [637612, 637612],
];

function inRanges(bin: number, ranges: readonly Range[]): boolean {
  return ranges.some(([low, high]) => bin >= low && bin <= high);
}

/** The card brand from the number's prefix (IIN); 'Unknown' when no known prefix matches. */
export function cardBrand(digits: string): CardBrand {
  const d = digits.replace(/[\s-]/g, '');
  if (!/^\d+$/.test(d)) return 'Unknown';
  if (d.length >= 6) {
    const bin = Number(d.slice(0, 6));
    if (inRanges(bin, ELO_BINS)) return 'Elo';
    if (inRanges(bin, HIPERCARD_BINS)) return 'Hipercard';
  }
  if (/^3[47]/.test(d)) return 'American Express';
  if (/^(30[0-5]|309|36|38|39)/.test(d)) return 'Diners';
  const four = Number(d.slice(0, 4));
  if (/^5[1-5]/.test(d) || (d.length >= 4 && four >= 2221 && four <= 2720)) return 'MasterCard';
  if (d.startsWith('4')) return 'Visa';
  return 'Unknown';
}

/** A card number typed with or without spaces/dashes → its digits, after length and Luhn checks. */
export function validateCardNumber(value: string, flag = '--card-number'): string {
  const trimmed = value.trim();
  if (trimmed === '') throw new ValidationError(flag, 'the card number is empty');
  if (/[^\d\s-]/.test(trimmed)) {
    throw new ValidationError(flag, 'the card number may contain only digits (spaces and dashes are allowed between them)');
  }
  const digits = trimmed.replace(/[\s-]/g, '');
  if (digits.length < 12 || digits.length > 19) {
    throw new ValidationError(flag, `the card number has ${digits.length} digits; card numbers have 12 to 19`);
  }
  if (/^(\d)\1+$/.test(digits)) {
    throw new ValidationError(flag, `the card number ${maskPan(digits)} has every digit the same; that is a placeholder, not a card number`);
  }
  if (!luhnValid(digits)) {
    throw new ValidationError(flag, `the card number ${maskPan(digits)} is not valid (its check digit does not match); look for a typo`);
  }
  return digits;
}

export interface Expiry {
  /** Two digits, '01'..'12'. */
  month: string;
  /** Four digits. */
  year: string;
}

/** Cards further ahead than this are almost certainly typos (2062 for 2026). */
const MAX_YEARS_AHEAD = 20;

/**
 * Expiry month (`1`, `01`) and year (`27`, `2027`). A card is valid through the last day of its
 * expiry month. That day is taken in UTC-12, the last time zone to leave it, so a card is never
 * refused here while it is still valid somewhere; the issuer has the final word anyway.
 */
export function validateExpiry(
  month: string,
  year: string,
  now: Date = new Date(),
  flags: { month: string; year: string } = { month: '--exp-month', year: '--exp-year' },
): Expiry {
  const m = month.trim();
  const y = year.trim();
  if (!/^\d{1,2}$/.test(m) || Number(m) < 1 || Number(m) > 12) {
    throw new ValidationError(flags.month, `${JSON.stringify(month)} is not a month; give 1 to 12 (or 01 to 12)`);
  }
  if (!/^(\d{2}|\d{4})$/.test(y)) {
    throw new ValidationError(flags.year, `${JSON.stringify(year)} is not a year; give 2 or 4 digits, like 28 or 2028`);
  }
  const monthNumber = Number(m);
  const yearNumber = y.length === 2 ? 2000 + Number(y) : Number(y);
  const label = `${String(monthNumber).padStart(2, '0')}/${yearNumber}`;
  // The first instant after the expiry month, in UTC-12 (12:00 UTC on the 1st of the next month).
  const expiresAt = Date.UTC(yearNumber, monthNumber, 1, 12);
  if (now.getTime() >= expiresAt) {
    const nowYear = new Date(now.getTime() - 12 * 3600_000).getUTCFullYear();
    const flag = yearNumber < nowYear ? flags.year : flags.month;
    throw new ValidationError(flag, `the card expired at the end of ${label}`);
  }
  if (yearNumber > now.getUTCFullYear() + MAX_YEARS_AHEAD) {
    throw new ValidationError(flags.year, `${label} is more than ${MAX_YEARS_AHEAD} years ahead; check the year printed on the card`);
  }
  return { month: String(monthNumber).padStart(2, '0'), year: String(yearNumber) };
}

/** The security code: 3 digits (4 on American Express). Never echoed back. */
export function validateCvv(value: string, flag = '--cvv'): string {
  const v = value.trim();
  if (!/^\d{3,4}$/.test(v)) throw new ValidationError(flag, 'the security code must be 3 or 4 digits');
  return v;
}

/**
 * The only way a card number is ever shown: first 4 and last 4 digits, the middle starred
 * (16 digits → the first 4, eight stars, the last 4). Too short to keep 8 digits and still hide some → only the
 * last 4 show.
 */
export function maskPan(pan: string): string {
  const digits = pan.replace(/\D/g, '');
  if (digits.length >= 12) return `${digits.slice(0, 4)}${'*'.repeat(digits.length - 8)}${digits.slice(-4)}`;
  if (digits.length > 4) return `${'*'.repeat(digits.length - 4)}${digits.slice(-4)}`;
  return '*'.repeat(digits.length);
}
