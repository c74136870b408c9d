// Dates on the command line are ISO: YYYY-MM-DD, and must exist on the calendar (no 2026-02-30).
import { ValidationError } from '../errors.js';

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function calendarProblem(year: number, month: number, day: number): string | undefined {
  if (year < 1) return 'the year must be 0001 or later';
  if (month < 1 || month > 12) return `there is no month ${month}`;
  const last = daysInMonth(year, month);
  if (day < 1 || day > last) return `${year}-${String(month).padStart(2, '0')} has days 01 to ${last}`;
  return undefined;
}

/** A calendar date `YYYY-MM-DD` (zero-padded), returned as given. */
export function parseDate(value: string, flag: string): string {
  const v = value.trim();
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!match) throw new ValidationError(flag, `${JSON.stringify(value)} is not a date; use YYYY-MM-DD, like 2026-03-31`);
  const problem = calendarProblem(Number(match[1]), Number(match[2]), Number(match[3]));
  if (problem) throw new ValidationError(flag, `${JSON.stringify(value)} is not a real date: ${problem}`);
  return v;
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * An ISO date-time (`2026-03-31T18:00`, `…:00-03:00`, `…Z`; a space may replace the `T`) → the same
 * instant as an ISO string in UTC (`2026-03-31T21:00:00.000Z`). Without an offset the time is read
 * as the local time of this machine, as `date` and most CLIs do.
 */
export function parseDateTime(value: string, flag: string): string {
  const v = value.trim();
  const example = 'like 2026-03-31T18:00:00-03:00';
  const match = DATE_TIME.exec(v);
  if (!match) {
    const hint = /^\d{4}-\d{2}-\d{2}$/.test(v) ? ' (a time is needed too)' : '';
    throw new ValidationError(flag, `${JSON.stringify(value)} is not a date and time${hint}; use ISO 8601, ${example}`);
  }
  const [, y, mo, d, h, mi, s = '00', frac = '', offset] = match as unknown as string[];
  const problem = calendarProblem(Number(y), Number(mo), Number(d));
  if (problem) throw new ValidationError(flag, `${JSON.stringify(value)} is not a real date: ${problem}`);
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) {
    throw new ValidationError(flag, `${JSON.stringify(value)} is not a real time of day; ${example}`);
  }
  let offsetMinutes: number | undefined;
  if (offset !== undefined && offset !== '') {
    if (offset === 'Z' || offset === 'z') {
      offsetMinutes = 0;
    } else {
      const digits = offset.slice(1).replace(':', '');
      const oh = Number(digits.slice(0, 2));
      const om = Number(digits.slice(2) || '0');
      if (oh > 14 || om > 59) throw new ValidationError(flag, `${JSON.stringify(value)} has an impossible UTC offset ${offset}`);
      offsetMinutes = (offset.startsWith('-') ? -1 : 1) * (oh * 60 + om);
    }
  }
  const ms = Number(frac.padEnd(3, '0').slice(0, 3));
  let instant: number;
  if (offsetMinutes === undefined) {
    const local = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
    local.setFullYear(Number(y)); // the Date constructor maps years 0-99 to 1900-1999
    instant = local.getTime();
  } else {
    const utc = new Date(Date.UTC(2000, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms));
    utc.setUTCFullYear(Number(y));
    instant = utc.getTime() - offsetMinutes * 60_000;
  }
  return new Date(instant).toISOString();
}

/**
 * Unix seconds of 00:00 of a `YYYY-MM-DD` day: `local`, in the zone payctl shows times in
 * (src/time/zone.ts), for a bound on an instant (a sale's creation); `utc`, for a bound on a field
 * that is itself a day (a receivable's expected date, sent as that day's UTC midnight).
 */
export function dayStartSeconds(date: string, zone: 'local' | 'utc'): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match || calendarProblem(Number(match[1]), Number(match[2]), Number(match[3]))) {
    throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(date)}`);
  }
  const [year, month, day] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  // Through year 2000 and back: Date reads a year under 100 as 19xx.
  const at = zone === 'utc' ? new Date(Date.UTC(2000, month, day)) : new Date(2000, month, day);
  if (zone === 'utc') at.setUTCFullYear(year);
  else at.setFullYear(year);
  return Math.floor(at.getTime() / 1000);
}

/**
 * The calendar day a date field says, as written: `2026-12-01` of "2026-12-01" and of
 * "2026-12-01T00:00:00.000Z" alike (a day sent as its UTC midnight). Never moved into a zone: a
 * transfer dated 2026-12-01 is of December wherever payctl runs. Undefined when it says no real day.
 */
export function writtenDay(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/.exec(value.trim());
  if (!match || calendarProblem(Number(match[1]), Number(match[2]), Number(match[3]))) return undefined;
  return value.trim().slice(0, 10);
}

/** Whether a date field, as written (writtenDay), is a day from `from` to `to` (either may be open). */
export function writtenDayWithin(value: unknown, from: string | undefined, to: string | undefined): boolean {
  const day = writtenDay(value);
  return day !== undefined && (from === undefined || day >= from) && (to === undefined || day <= to);
}

/** The day after a `YYYY-MM-DD` day. */
export function nextDay(date: string): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + 1);
  return at.toISOString().slice(0, 10);
}
