import { bind, defineGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const futureEntries = defineGroup({
  name: 'future-entries',
  description: 'Money still to come: receivables not yet paid out, by expected date',
  examples: ['payctl future-entries list --from 2026-12-01 --to 2026-12-31', 'payctl future-entries list --all -o csv > future.csv'],
  verbs: bind(verb, { list: () => import('./list.js') }),
});
