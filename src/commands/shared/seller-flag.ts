import { flag } from '../verb.js';

// The --seller flag as the command tree declares it. Apart from seller.ts, whose checks pull in
// the validators: registering a verb runs at every start-up, reading its flag only when it runs.

/** --seller for a verb; `what` ends the help line ("only this seller's transactions"). */
export function sellerFlags(what: string) {
  return { seller: flag('--seller <seller-id>', what) };
}
