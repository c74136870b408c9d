import type { Operation } from '../../provider/endpoints.js';
import { UsageError } from '../../errors.js';
import { counted, singular } from '../../platform/plural.js';
import { dayStartSeconds, nextDay, parseDate, writtenDayWithin } from '../../validate/index.js';
import { didYouMean } from '../../validate/closest.js';
import { optionalString } from './input.js';
import { BY_CREATION, type ListDate, type ListFlagValues } from './list-flags.js';

export interface ListRequest {
  query: Record<string, string | number | undefined>;
  /** How far into the list to read: with `offset`, the items before it are skipped, not shown. */
  limit: number;
  all: boolean;
  /**
   * --window's offset: the items of the list before it are not shown (see Printer.list). Not
   * named `offset`: a verb's own stream spreads its request into api.pages, which must read from
   * the start, so that the Printer skips them once.
   */
  skip?: number;
  /** A list dated by a calendar date, given --from or --to: the days every item it shows must be dated in. */
  days?: DayWindow;
}

/** The calendar days asked for of a calendar-date field (`to` inclusive); either end may be open. */
export interface DayWindow {
  dated: ListDate;
  from?: string;
  to?: string;
}

/**
 * --limit/--all/--from/--to/--sort into the provider's query (date_range, sort). For a list dated
 * by creation (`dated`, list-flags.ts), a day is 00:00 to 24:00 in the zone payctl shows times in:
 * [start of --from, start of the day after --to). A list dated by a calendar date is bounded by
 * those days as written (dayQuery), and holds to them (heldToDays).
 */
export function buildListRequest(options: ListFlagValues, dated: ListDate = BY_CREATION): ListRequest {
  const all = options.all === true;
  let limit = 20;
  const rawLimit = optionalString(options.limit);
  if (rawLimit !== undefined) {
    if (all) throw new UsageError('use either --limit or --all, not both');
    if (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1) throw new UsageError('--limit: give a whole number of 1 or more');
    limit = Number(rawLimit);
  }
  const window = windowOf(optionalString(options.window));
  if (window && (rawLimit !== undefined || all)) throw new UsageError('use either --window or --limit/--all, not both');
  if (window) limit = window.offset + window.count;
  const query: ListRequest['query'] = {};
  const from = optionalString(options.from);
  const to = optionalString(options.to);
  const fromDate = from === undefined ? undefined : parseDate(from, '--from');
  const toDate = to === undefined ? undefined : parseDate(to, '--to');
  if (fromDate && toDate && fromDate > toDate) throw new UsageError(`--from ${fromDate} is after --to ${toDate}`);
  const days = dated.calendar && (fromDate || toDate) ? { dated, ...(fromDate ? { from: fromDate } : {}), ...(toDate ? { to: toDate } : {}) } : undefined;
  if (days) Object.assign(query, dayQuery(days));
  else {
    if (fromDate) query['date_range[gte]'] = dayStartSeconds(fromDate, 'local');
    if (toDate) query['date_range[lt]'] = dayStartSeconds(nextDay(toDate), 'local');
  }
  const sort = optionalString(options.sort);
  if (sort !== undefined) {
    if (sort !== 'asc' && sort !== 'desc') throw new UsageError(`--sort: "${sort}" is not an order; use asc or desc`);
    query.sort = sort === 'asc' ? 'time-ascending' : 'time-descending';
  }
  return { query, limit, all, ...(window && window.offset > 0 ? { skip: window.offset } : {}), ...(days ? { days } : {}) };
}

/** The most --window reads in one go: a tool's page, never a whole account. */
const MAX_WINDOW = 100;

/** --window `offset:count`, strictly: two whole numbers, a count from 1 to MAX_WINDOW. */
export function windowOf(raw: string | undefined): { offset: number; count: number } | undefined {
  if (raw === undefined) return undefined;
  const match = /^(\d{1,9}):(\d{1,3})$/.exec(raw);
  const count = Number(match?.[2]);
  if (!match || count < 1 || count > MAX_WINDOW) throw new UsageError(`--window: "${raw}" is not offset:count (a count from 1 to ${MAX_WINDOW})`);
  return { offset: Number(match[1]), count };
}

/**
 * The query that asks for days of a calendar date: the service's filter on it (`transfer_date[gte]`,
 * `[lte]`), or where the list's date_range is on that date, the days' UTC midnights, as the service
 * writes such a day.
 */
export function dayQuery(days: DayWindow): Record<string, string | number> {
  const { param } = days.dated;
  const query: Record<string, string | number> = {};
  if (days.from !== undefined) {
    if (param !== undefined) query[`${param}[gte]`] = days.from;
    else query['date_range[gte]'] = dayStartSeconds(days.from, 'utc');
  }
  if (days.to !== undefined) {
    if (param !== undefined) query[`${param}[lte]`] = days.to;
    else query['date_range[lt]'] = dayStartSeconds(nextDay(days.to), 'utc');
  }
  return query;
}

/** Whether an item's calendar date, as written, is one of the days asked for. */
export function datedWithin(item: unknown, days: DayWindow): boolean {
  return item !== null && typeof item === 'object' && writtenDayWithin((item as Record<string, unknown>)[days.dated.field], days.from, days.to);
}

/** The days, as a message says them: "2026-11-01 to 2026-11-30", "from 2026-11-01", "up to 2026-11-30". */
export function daysText(days: { from?: string; to?: string }): string {
  if (days.from !== undefined && days.to !== undefined) return days.from === days.to ? days.from : `${days.from} to ${days.to}`;
  return days.from !== undefined ? `from ${days.from}` : `up to ${days.to}`;
}

/** What is said of `count` items the service answered dated outside the days asked for, left out. */
export function leftOutLine(days: DayWindow, noun: string, count: number): string {
  return `left out ${counted(count, singular(noun), noun)} the service answered whose ${days.dated.field} is not ${daysText(days)}`;
}

/**
 * What a list dated by a calendar date holds to (Printer.list's `keep`): only the items of the
 * days asked for, whatever the service answers. A service that ignores the filter, or answers an
 * item of another day, must not put it in the period's list, totals or groups.
 */
export function heldToDays(request: ListRequest, noun: string): { keep?: { test: (item: unknown) => boolean; outside: (count: number) => string } } {
  const { days } = request;
  if (!days) return {};
  return {
    keep: {
      test: (item) => datedWithin(item, days),
      outside: (count) => leftOutLine(days, noun, count),
    },
  };
}

/**
 * A list of all that one resource holds (a transaction's split rules, a transfer's transactions):
 * what to fetch, every item in pages of 100, as no list flags bound it.
 */
export function everythingOf(operation: Operation, id: string) {
  return { operation, input: { params: { id } }, request: { limit: 100, all: true } };
}

/** The values of a comma-separated filter, each from a known set (catches typos before sending). */
export function enumValues(value: unknown, allowed: readonly string[], flag: string): string[] {
  const raw = optionalString(value);
  if (raw === undefined) return [];
  const values = raw.split(',').map((v) => v.trim()).filter(Boolean);
  const unknown = values.filter((v) => !allowed.includes(v));
  if (values.length === 0 || unknown.length > 0) {
    const hint = unknown.length === 1 ? didYouMean(unknown[0] as string, allowed) : '';
    throw new UsageError(`${flag}: "${unknown.join(',') || raw}" is not valid${hint}; use one or more of ${allowed.join(', ')}`);
  }
  return values;
}

/** The same filter as the service takes it: the values joined by commas, or undefined when none. */
export function enumFilter(value: unknown, allowed: readonly string[], flag: string): string | undefined {
  const values = enumValues(value, allowed, flag);
  return values.length > 0 ? values.join(',') : undefined;
}
