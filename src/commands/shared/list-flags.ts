import type { Command } from 'commander';

/** The flags every list verb shares (see "Lists" in the contract). */
export function addListFlags(command: Command): Command {
  return command
    .option('--limit <n>', 'at most this many items in all (default 20)')
    .option('--all', 'every page, streamed as it arrives')
    .option('--from <YYYY-MM-DD>', 'created on or after this date')
    .option('--to <YYYY-MM-DD>', 'created on or before this date')
    .option('--sort <order>', 'asc or desc by creation time (default desc)');
}
