// --group-by on a list: the flag (loaded to build help, so it names the groupings without loading
// how they are summed: summaries.ts) and what it does to the request.
import { flag } from '../verb.js';
import type { ListRequest } from './list.js';
import type { ListDate } from './list-flags.js';

/** --group-by, naming the groupings this list has besides day, week and month, and (`dated`) a calendar date they are of. */
export function groupByFlags(fields: readonly string[] = [], dated?: ListDate) {
  const dims = ['day', 'week', dated?.calendar ? `month of the ${dated.label} as written` : 'month', ...fields];
  return { groupBy: flag('--group-by <what>', `sum per group instead of listing: ${dims.slice(0, -1).join(', ')} or ${dims.at(-1)} (every item of the period unless --limit)`) };
}

/** A grouped list reads every item of its period unless --limit says otherwise. */
export function groupedRequest<T extends ListRequest>(request: T, grouped: boolean, options: { limit?: string }): T {
  return grouped && options.limit === undefined ? { ...request, all: true } : request;
}
