import { throwProblems, type Problem } from './errors.js';
import { dayAt, instantAt } from '../validate/date.js';
import { calendarDate, DAY_MS } from './time.js';

// The provider's list conventions, shared by every collection: limit/offset/page paging,
// time sort, date_range on created_at and comma-separated equality filters. A list whose items
// carry a calendar date of their own (a transfer's date, an invoice's due date) also takes
// `<field>[gte|gt|lte|lt]=YYYY-MM-DD` on that date as written: no time zone moves a day.

export type SortOrder = 'time-descending' | 'time-ascending';

export interface ListQuery {
  limit: number;
  offset: number;
  sort: SortOrder;
  createdWithin: (ms: number) => boolean;
  /** The date range's bounds in whole milliseconds, both inclusive (timestamps are whole milliseconds). */
  range: { min: number; max: number };
  /** Field name → accepted values; an item passes when its field equals any of them. */
  filters: Map<string, Set<string>>;
  /** The calendar days the list's own date field must fall in, when it was given bounds. */
  days?: DayRange;
}

/** The first and last calendar days (YYYY-MM-DD, both inclusive) a filter on a date field admits; either may be open. */
export interface DayRange {
  first?: string;
  last?: string;
}

/** Whether a date as written (YYYY-MM-DD, or a date-time whose first ten characters are its day) is in `days`. */
export function withinDays(value: unknown, days: DayRange): boolean {
  if (typeof value !== 'string' || !dayAt(value.slice(0, 10))) return false;
  const day = value.slice(0, 10);
  return (days.first === undefined || day >= days.first) && (days.last === undefined || day <= days.last);
}

/** `<field>[gte|gt|lte|lt]` as the days they admit (the narrowest when several bound one end); undefined when none is given. */
function dayRangeOf(params: URLSearchParams, field: string, problems: Problem[]): DayRange | undefined {
  const days: DayRange = {};
  let given = false;
  for (const bound of ['gte', 'gt', 'lte', 'lt'] as const) {
    const raw = params.get(`${field}[${bound}]`);
    if (raw === null || raw === '') continue;
    const day = dayAt(raw);
    if (!day) {
      problems.push({ field: `${field}[${bound}]`, message: 'must be a calendar date, YYYY-MM-DD' });
      continue;
    }
    given = true;
    const moved = (by: number) => calendarDate(new Date(day.getTime() + by * DAY_MS));
    if (bound === 'gte' || bound === 'gt') {
      const first = bound === 'gt' ? moved(1) : raw;
      if (days.first === undefined || first > days.first) days.first = first;
    } else {
      const last = bound === 'lt' ? moved(-1) : raw;
      if (days.last === undefined || last < days.last) days.last = last;
    }
  }
  return given ? days : undefined;
}

/**
 * The first and last whole milliseconds a bound's value stands for. A bound is Unix epoch seconds,
 * a date-time, or a calendar date. A calendar date means the whole UTC day, so `lte=2026-11-22`
 * still includes that evening and `gt=2026-11-22` starts the next day. Epoch seconds may have a
 * fraction (then first > last): the bounds are rounded to the whole milliseconds they admit.
 */
function boundSpan(raw: string): [first: number, last: number] | undefined {
  if (/^\d+(\.\d+)?$/.test(raw)) {
    const at = Number(raw) * 1000;
    return [Math.ceil(at), Math.floor(at)];
  }
  const day = dayAt(raw);
  if (day) return [day.getTime(), day.getTime() + DAY_MS - 1];
  const instant = instantAt(raw)?.getTime();
  return instant === undefined ? undefined : [instant, instant];
}

function integerParam(raw: string | null, field: string, min: number, max: number, problems: Problem[]): number | undefined {
  if (raw === null || raw === '') return undefined;
  const value = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= min && value <= max)) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
    problems.push({ field, message: `must be an integer ${range}` });
    return undefined;
  }
  return value;
}

/** Filter name → every value the provider knows for it; other filters take any value. */
export type KnownValues = Readonly<Record<string, readonly string[]>>;

/**
 * The provider answers 400 for a filter value it does not know rather than an empty list, so a
 * typo in `status` is not mistaken for "nothing matches": `known` lists those values per filter.
 */
export function parseListQuery(params: URLSearchParams, filterNames: readonly string[], known: KnownValues = {}, dateField?: string): ListQuery {
  const problems: Problem[] = [];
  const limit = integerParam(params.get('limit'), 'limit', 1, 100, problems) ?? 20;
  const offset = integerParam(params.get('offset'), 'offset', 0, Number.MAX_SAFE_INTEGER, problems);
  const page = integerParam(params.get('page'), 'page', 1, Number.MAX_SAFE_INTEGER, problems);

  const sortRaw = params.get('sort') ?? 'time-descending';
  if (sortRaw !== 'time-descending' && sortRaw !== 'time-ascending') {
    problems.push({ field: 'sort', message: 'must be time-descending or time-ascending' });
  }

  // The whole span a Date can hold, when no bound narrows it.
  const range = { min: -8.64e15, max: 8.64e15 };
  for (const bound of ['gte', 'gt', 'lte', 'lt'] as const) {
    const raw = params.get(`date_range[${bound}]`);
    if (raw === null || raw === '') continue;
    const span = boundSpan(raw);
    if (!span) problems.push({ field: `date_range[${bound}]`, message: 'must be epoch seconds, YYYY-MM-DD or an ISO 8601 date-time' });
    else if (bound === 'gte') range.min = Math.max(range.min, span[0]);
    else if (bound === 'gt') range.min = Math.max(range.min, span[1] + 1);
    else if (bound === 'lte') range.max = Math.min(range.max, span[1]);
    else range.max = Math.min(range.max, span[0] - 1);
  }

  const filters = new Map<string, Set<string>>();
  for (const name of filterNames) {
    const values = params.getAll(name).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
    const accepted = known[name];
    const unknown = accepted ? values.filter((v) => !accepted.includes(v)) : [];
    if (unknown.length > 0) {
      problems.push({ field: name, message: `unknown value ${unknown.map((v) => JSON.stringify(v)).join(', ')}; must be one of ${accepted?.join(', ')}` });
    }
    if (values.length > 0) filters.set(name, new Set(values));
  }
  const days = dateField === undefined ? undefined : dayRangeOf(params, dateField, problems);

  throwProblems(problems);
  return {
    limit,
    // offset wins when both are given: it is the more precise of the two.
    offset: offset ?? ((page ?? 1) - 1) * limit,
    sort: sortRaw as SortOrder,
    createdWithin: (ms) => ms >= range.min && ms <= range.max,
    range,
    filters,
    ...(days ? { days } : {}),
  };
}

/** The provider's list envelope: one page of items, and where it stands among them all. */
export type ListEnvelope<T> = ReturnType<typeof pageEnvelope<T>>;

/** `matching` is every item that passed the filters, already in the requested order. */
export function listEnvelope<T>(uri: string, matching: T[], query: ListQuery): ListEnvelope<T> {
  return pageEnvelope(uri, matching.slice(query.offset, query.offset + query.limit), matching.length, query);
}

/** The envelope of one page a query already cut out, of `total` matching items. */
export function pageEnvelope<T>(uri: string, items: T[], total: number, query: ListQuery) {
  return {
    resource: 'list' as const,
    uri,
    items,
    limit: query.limit,
    offset: query.offset,
    has_more: query.offset + items.length < total,
    total,
    query_count: total,
    page: Math.floor(query.offset / query.limit) + 1,
    total_pages: Math.ceil(total / query.limit),
  };
}

/**
 * A collection in the query's time order, for resources that keep no sequence number of their
 * own: ties on created_at keep the order the items were stored in (reversed when descending),
 * so paging stays stable the same way it does for transactions.
 */
export function listByCreation<T extends { created_at: string }>(uri: string, items: T[], query: ListQuery): ListEnvelope<T> {
  const matching = items
    .map((item, index) => ({ item, index, ms: Date.parse(item.created_at) }))
    .filter((entry) => query.createdWithin(entry.ms));
  matching.sort((a, b) => a.ms - b.ms || a.index - b.index);
  if (query.sort === 'time-descending') matching.reverse();
  return listEnvelope(uri, matching.map((entry) => entry.item), query);
}

/**
 * A collection by creation (listByCreation), narrowed by the query's equality filters on `fields`:
 * an item passes when its field is one of the values asked for. `known` is as parseListQuery takes
 * it; `dateField`, the item's calendar date that `<dateField>[gte]`… bound.
 */
export function listFiltered<T extends { created_at: string }>(
  uri: string,
  items: T[],
  params: URLSearchParams,
  fields: readonly (keyof T & string)[] = [],
  known: KnownValues = {},
  dateField?: keyof T & string,
): ListEnvelope<T> {
  const query = parseListQuery(params, fields, known, dateField);
  const { days } = query;
  const matching = items.filter(
    (item) =>
      (!days || withinDays(item[dateField as keyof T], days)) &&
      fields.every((name) => {
        const accepted = query.filters.get(name);
        const value = item[name];
        return !accepted || (typeof value === 'string' && accepted.has(value));
      }),
  );
  return listByCreation(uri, matching, query);
}
