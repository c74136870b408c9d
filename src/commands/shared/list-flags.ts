import { flag, type FlagValues } from '../verb.js';

/** The flags every list verb shares (see "Lists" in the contract); `dated` names what --from/--to bound. */
export function listFlags(dated = 'created') {
  return {
    limit: flag('--limit <n>', 'at most this many items in all (default 20)'),
    all: flag('--all', 'every page, streamed as it arrives'),
    from: flag('--from <YYYY-MM-DD>', `${dated} on or after this day (00:00 in the time zone payctl shows: PAYCTL_TIMEZONE, the profile's timezone, or TZ)`),
    to: flag('--to <YYYY-MM-DD>', `${dated} on or before this day (to its end, 24:00 there)`),
    sort: flag('--sort <order>', 'asc or desc by creation time (default desc)'),
  };
}

export type ListFlagValues = FlagValues<ReturnType<typeof listFlags>>;
