// Dates are ISO: YYYY-MM-DD, and must exist on the calendar (no 2026-02-30). This is the one reading
// of dates in payctl: the command line's flags (parseDate, parseDateTime: they name the flag and say
// what is wrong) and the fields the embedded sandbox is sent (dayAt, instantAt: undefined when not a
// date, since the service answers with its own errors) go through the same grammar and calendar.
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

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date `YYYY-MM-DD` (zero-padded), returned as given. */
export function parseDate(value: string, flag: string): string {
  const v = value.trim();
  const match = DATE.exec(v);
  if (!match) throw new ValidationError(flag, `${JSON.stringify(value)} is not a date; use YYYY-MM-DD, like 2026-03-31`);
  const problem = calendarProblem(Number(match[1]), Number(match[2]), Number(match[3]));
  if (problem) throw new ValidationError(flag, `${JSON.stringify(value)} is not a real date: ${problem}`);
  return v;
}

/** 00:00 UTC of a `YYYY-MM-DD` day, as written (nothing trimmed); undefined when it is not a real day. */
export function dayAt(text: string): Date | undefined {
  const match = DATE.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (calendarProblem(year, month, day)) return undefined;
  const at = new Date(Date.UTC(2000, month - 1, day));
  at.setUTCFullYear(year); // Date.UTC reads a year under 100 as 19xx
  return at;
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/** A date-time read (DATE_TIME): its instant, or what is wrong with it. */
type DateTimeReading =
  | { instant: number }
  | { wrong: 'shape' }
  | { wrong: 'calendar'; problem: string }
  | { wrong: 'time' }
  | { wrong: 'offset'; offset: string }
  /** No offset, where the time may not be read as this machine's. */
  | { wrong: 'local' };

function readDateTime(text: string, local: 'host' | 'refused'): DateTimeReading {
  const match = DATE_TIME.exec(text);
  if (!match) return { wrong: 'shape' };
  const [, y, mo, d, h, mi, s = '00', frac = '', offset] = match as unknown as string[];
  const problem = calendarProblem(Number(y), Number(mo), Number(d));
  if (problem) return { wrong: 'calendar', problem };
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return { wrong: 'time' };
  let offsetMinutes: number | undefined;
  if (offset !== undefined && offset !== '') {
    if (offset === 'Z' || offset === 'z') {
      offsetMinutes = 0;
    } else {
      const digits = offset.slice(1).replace(':', '');
      const oh = Number(digits.slice(0, 2));
      const om = Number(digits.slice(2) || '0');
      if (oh > 14 || om > 59) return { wrong: 'offset', offset };
      offsetMinutes = (offset.startsWith('-') ? -1 : 1) * (oh * 60 + om);
    }
  }
  const ms = Number(frac.padEnd(3, '0').slice(0, 3));
  if (offsetMinutes === undefined) {
    if (local === 'refused') return { wrong: 'local' };
    const at = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
    at.setFullYear(Number(y)); // the Date constructor maps years 0-99 to 1900-1999
    return { instant: at.getTime() };
  }
  const utc = new Date(Date.UTC(2000, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms));
  utc.setUTCFullYear(Number(y));
  return { instant: utc.getTime() - offsetMinutes * 60_000 };
}

/**
 * An ISO date-time (`2026-03-31T18:00`, `…:00-03:00`, `…Z`; a space may replace the `T`) → the same
 * instant as an ISO string in UTC (`2026-03-31T21:00:00.000Z`). Without an offset the time is read
 * as the local time of this machine, as `date` and most CLIs do.
 */
export function parseDateTime(value: string, flag: string): string {
  const v = value.trim();
  const example = 'like 2026-03-31T18:00:00-03:00';
  const read = readDateTime(v, 'host');
  if ('instant' in read) return new Date(read.instant).toISOString();
  switch (read.wrong) {
    case 'calendar':
      throw new ValidationError(flag, `${JSON.stringify(value)} is not a real date: ${read.problem}`);
    case 'time':
      throw new ValidationError(flag, `${JSON.stringify(value)} is not a real time of day; ${example}`);
    case 'offset':
      throw new ValidationError(flag, `${JSON.stringify(value)} has an impossible UTC offset ${read.offset}`);
    default: {
      const hint = DATE.test(v) ? ' (a time is needed too)' : '';
      throw new ValidationError(flag, `${JSON.stringify(value)} is not a date and time${hint}; use ISO 8601, ${example}`);
    }
  }
}

/**
 * The instant of a date-time that names its offset (`Z` or ±hh:mm), as written (nothing trimmed);
 * undefined otherwise. A time without an offset is refused: which instant it is would depend on
 * the zone of the machine reading it.
 */
export function instantAt(text: string): Date | undefined {
  const read = readDateTime(text, 'refused');
  return 'instant' in read ? new Date(read.instant) : undefined;
}

/** Either form the provider takes for a date field: a calendar date (its UTC midnight) or a date-time with its offset. */
export function dayOrInstantAt(text: string): Date | undefined {
  return dayAt(text) ?? instantAt(text);
}

/**
 * Unix seconds of 00:00 of a `YYYY-MM-DD` day: `local`, in the zone payctl shows times in
 * (src/time/zone.ts), for a bound on an instant (a sale's creation); `utc`, for a bound on a field
 * that is itself a day (a receivable's expected date, sent as that day's UTC midnight).
 */
export function dayStartSeconds(date: string, zone: 'local' | 'utc'): number {
  const match = DATE.exec(date);
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
