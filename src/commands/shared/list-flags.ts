import { flag, type FlagValues } from '../verb.js';

/**
 * What a list's --from/--to bound: the field its table shows. An instant (created_at) is bounded
 * by the days of the zone payctl shows times in; a calendar date (a transfer's date, a due date, an
 * expected date) by that date as written, which no time zone moves. `param` names the service's
 * filter on that date (`transfer_date` → `transfer_date[gte]`…); without it the list's own
 * date_range is on that date (a seller's receivables, by expected date).
 */
export interface ListDate {
  field: string;
  /** How help and messages name it: "created", "transfer date". */
  label: string;
  calendar: boolean;
  param?: string;
}

export const BY_CREATION: ListDate = { field: 'created_at', label: 'created', calendar: false };
export const BY_TRANSFER_DATE: ListDate = { field: 'transfer_date', label: 'transfer date', calendar: true, param: 'transfer_date' };
export const BY_DUE_DATE: ListDate = { field: 'due_date', label: 'due date', calendar: true, param: 'due_date' };
export const BY_NEXT_DUE_DATE: ListDate = { ...BY_DUE_DATE, label: 'next due date' };
export const BY_EXPECTED_DATE: ListDate = { field: 'expected_on', label: 'expected date', calendar: true };

/** --from and --to, saying which field they bound and how a day is read for it. */
export function dateFlags(dated: ListDate = BY_CREATION, prefix = '') {
  const what = `${prefix}${dated.label} (${dated.field})`;
  return dated.calendar
    ? {
        from: flag('--from <YYYY-MM-DD>', `${what} on or after this day, the date as written (no time zone moves it)`),
        to: flag('--to <YYYY-MM-DD>', `${what} on or before this day`),
      }
    : {
        from: flag('--from <YYYY-MM-DD>', `${what} on or after this day (from 00:00 in the time zone payctl shows: PAYCTL_TIMEZONE, the profile's timezone, or TZ)`),
        to: flag('--to <YYYY-MM-DD>', `${what} on or before this day (to its end, 24:00 there)`),
      };
}

/**
 * Not for people (hidden): a `payctl mcp` list tool reads one bounded page of a list at a time
 * through it, where its cursor says (src/commands/mcp/paging.ts).
 */
export const WINDOW_FLAG = {
  window: flag('--window <offset:count>', 'the items from this offset in the list, at most count of them', { hidden: true }),
};

/** The flags every list verb shares (see "Lists" in the contract); `dated`, what --from/--to bound. */
export function listFlags(dated: ListDate = BY_CREATION) {
  return {
    limit: flag('--limit <n>', 'at most this many items in all (default 20)'),
    all: flag('--all', 'every page, streamed as it arrives'),
    ...dateFlags(dated),
    sort: flag('--sort <order>', 'asc or desc by creation time (default desc)'),
    ...WINDOW_FLAG,
  };
}

export type ListFlagValues = FlagValues<ReturnType<typeof listFlags>>;
