import type { Command } from 'commander';

// The --seller flag as the command tree declares it. Apart from seller.ts, whose checks pull in
// the validators: registering a verb runs at every start-up, reading its flag only when it runs.

/** Adds --seller to a verb; `what` ends the help line ("only this seller's transactions"). */
export function addSellerFlag(command: Command, what: string): Command {
  return command.option('--seller <seller-id>', what);
}
