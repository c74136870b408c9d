import { groupByFlags } from '../shared/group-by-flag.js';
import { BY_EXPECTED_DATE, listFlags } from '../shared/list-flags.js';
import { defineVerb, flag, groupHelp } from '../verb.js';

export const futureEntries = groupHelp('future-entries', 'Money still to come: receivables not yet paid out, by expected date', ['payctl future-entries list --from 2026-12-01 --to 2026-12-31', 'payctl future-entries list --all -o csv > future.csv']);

export const list = defineVerb({
  name: 'list',
  description: "List the seller's future entries, soonest first (a table ends with count, gross, fees and net)",
  flags: {
    seller: flag('--seller <seller-id>', "the seller (default: the profile's seller_id)"),
    // The flag's first name, kept working; --seller is the one every list shares.
    onBehalfOf: flag('--on-behalf-of <seller-id>', undefined, { hidden: true }),
    ...listFlags(BY_EXPECTED_DATE),
    ...groupByFlags([], BY_EXPECTED_DATE),
  },
  examples: [
    'payctl future-entries list --from 2026-12-01 --to 2026-12-31',
    'payctl future-entries list --group-by day     # how much lands on which day',
    'payctl future-entries list --all -o csv > future.csv',
    'payctl future-entries list --seller <seller-id>',
  ],
});
