import type { Operation } from '../../provider/endpoints.js';
import { UsageError } from '../../errors.js';
import { dayStartSeconds, nextDay, parseDate } from '../../validate/index.js';
import { didYouMean } from '../../validate/closest.js';
import { optionalString } from './input.js';
import type { ListFlagValues } from './list-flags.js';

export interface ListRequest {
  query: Record<string, string | number | undefined>;
  limit: number;
  all: boolean;
}

/**
 * --limit/--all/--from/--to/--sort into the provider's query (date_range, sort). A day is 00:00 to
 * 24:00 in the zone payctl shows times in: [start of --from, start of the day after --to). A list
 * whose date is itself a day (`dated: 'day'`, a receivable's expected date) is bounded by those
 * days as they are.
 */
export function buildListRequest(options: ListFlagValues, dated: 'instant' | 'day' = 'instant'): ListRequest {
  const all = options.all === true;
  let limit = 20;
  const rawLimit = optionalString(options.limit);
  if (rawLimit !== undefined) {
    if (all) throw new UsageError('use either --limit or --all, not both');
    if (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1) throw new UsageError('--limit: give a whole number of 1 or more');
    limit = Number(rawLimit);
  }
  const query: ListRequest['query'] = {};
  const from = optionalString(options.from);
  const to = optionalString(options.to);
  const fromDate = from === undefined ? undefined : parseDate(from, '--from');
  const toDate = to === undefined ? undefined : parseDate(to, '--to');
  if (fromDate && toDate && fromDate > toDate) throw new UsageError(`--from ${fromDate} is after --to ${toDate}`);
  const zone = dated === 'day' ? 'utc' : 'local';
  if (fromDate) query['date_range[gte]'] = dayStartSeconds(fromDate, zone);
  if (toDate) query['date_range[lt]'] = dayStartSeconds(nextDay(toDate), zone);
  const sort = optionalString(options.sort);
  if (sort !== undefined) {
    if (sort !== 'asc' && sort !== 'desc') throw new UsageError(`--sort: "${sort}" is not an order; use asc or desc`);
    query.sort = sort === 'asc' ? 'time-ascending' : 'time-descending';
  }
  return { query, limit, all };
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
