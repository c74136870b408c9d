import { daysInMonth } from '../validate/date.js';

// All timestamps the sandbox emits are ISO 8601 UTC with milliseconds, and calendar dates are
// YYYY-MM-DD, as in the seed's samples. Everything works in UTC so results never depend on the
// host's time zone.

export const DAY_MS = 86_400_000;

export function isoTimestamp(date: Date): string {
  return isoOfMs(date.getTime());
}

/** The number written by the digits of `text` from `start` to `end`, or -1 if another character is there. */
function digits(text: string, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i += 1) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * The epoch milliseconds of an instant written exactly as isoOfMs (and toISOString) writes it
 * ("2026-11-25T08:51:07.795Z"), else NaN: read digit by digit, every part in its range, so that
 * isoOfMs writes the same text back.
 */
export function msOfIso(text: string): number {
  const shaped =
    text.length === 24 &&
    text[4] === '-' &&
    text[7] === '-' &&
    text[10] === 'T' &&
    text[13] === ':' &&
    text[16] === ':' &&
    text[19] === '.' &&
    text[23] === 'Z';
  if (!shaped) return Number.NaN;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 7);
  const day = digits(text, 8, 10);
  const hours = digits(text, 11, 13);
  const minutes = digits(text, 14, 16);
  const seconds = digits(text, 17, 19);
  const millis = digits(text, 20, 23);
  // Before 1970 isoOfMs leaves the writing to toISOString: so is the reading left to it here.
  if (year < 1970 || month < 1 || month > 12 || day < 1 || hours > 23 || minutes > 59 || seconds > 59 || millis < 0 || hours < 0 || minutes < 0 || seconds < 0) return Number.NaN;
  if (day > daysInMonth(year, month)) return Number.NaN;
  return Date.UTC(year, month - 1, day, hours, minutes, seconds, millis);
}

/**
 * The "YYYY-MM-DDT" of each day an instant was lately written for: a sale writes instants of
 * several days in turn (made today, its instalments expected in the months to come), and a
 * remembered single day was written again with toISOString for most of them.
 */
const dayTexts = new Map<number, string>();
/** Days remembered at most: a few years of them. */
const DAYS_KEPT = 2048;
// The last instant written: a record's times are mostly the same one (made, updated, its history).
let lastMs = NaN;
let lastIso = '';
/** "00" to "59" and "000" to "999", written once. */
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));

/**
 * An instant as toISOString writes it, without making a Date: a sale's records write and read
 * back several each, and toISOString was a tenth of generating one.
 */
export function isoOfMs(ms: number): string {
  if (ms === lastMs) return lastIso;
  // toISOString writes years past 9999 (and before 1970 here, for simplicity) another way: those take it.
  if (!(ms >= 0 && ms < 253_402_300_800_000) || !Number.isInteger(ms)) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  let dayText = dayTexts.get(day);
  if (dayText === undefined) {
    if (dayTexts.size >= DAYS_KEPT) dayTexts.clear();
    dayText = new Date(day * DAY_MS).toISOString().slice(0, 11);
    dayTexts.set(day, dayText);
  }
  const t = ms - day * DAY_MS;
  lastMs = ms;
  return (lastIso = `${dayText}${TWO_DIGITS[Math.floor(t / 3_600_000)]}:${TWO_DIGITS[Math.floor(t / 60_000) % 60]}:${TWO_DIGITS[Math.floor(t / 1000) % 60]}.${THREE_DIGITS[t % 1000]}Z`);
}

export function calendarDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

/**
 * The same day `months` calendar months later, clamped to the end of a shorter month
 * (Jan 31 + 1 month = Feb 28), as banks schedule monthly installments.
 */
export function addMonths(date: Date, months: number): Date {
  const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return new Date(target.getTime() + (date.getTime() - startOfDay(date).getTime()));
}

/** Midnight UTC of the given instant's day. */
export function startOfDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}
