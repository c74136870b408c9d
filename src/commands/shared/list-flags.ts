import type { Command } from 'commander';

/** The flags every list verb shares (see "Lists" in the contract); `dated` names what --from/--to bound. */
export function addListFlags(command: Command, dated = 'created'): Command {
  return command
    .option('--limit <n>', 'at most this many items in all (default 20)')
    .option('--all', 'every page, streamed as it arrives')
    .option('--from <YYYY-MM-DD>', `${dated} on or after this day (00:00 in the time zone payctl shows: PAYCTL_TIMEZONE, the profile's timezone, or TZ)`)
    .option('--to <YYYY-MM-DD>', `${dated} on or before this day (to its end, 24:00 there)`)
    .option('--sort <order>', 'asc or desc by creation time (default desc)');
}
