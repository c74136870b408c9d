import type { Operation } from '../../provider/endpoints.js';
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { validateId } from '../../validate/index.js';
import { optionalString } from '../shared/input.js';
import { sellerFlag } from '../shared/seller.js';
import { groupedRequest } from '../shared/group-by-flag.js';
import { groupingOf, historySummary } from '../shared/summaries.js';
import { buildListRequest, enumFilter, type ListRequest } from '../shared/list.js';
import { HISTORY_COLUMNS, HISTORY_CSV_COLUMNS, HISTORY_TOTALS, OPERATIONS } from './shared.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { history } from './flags.js';

export interface HistoryRequest extends ListRequest {
  operation: Operation;
  params?: Record<string, string>;
}

/** One account's history, a buyer's, a seller's, or every account's. */
export function buildHistoryRequest(options: OptionsOf<typeof history>): HistoryRequest {
  const request = buildListRequest(options);
  request.query.operation = enumFilter(options.operation, OPERATIONS, '--operation');
  const account = optionalString(options.account);
  const buyer = optionalString(options.buyer);
  const seller = sellerFlag(options);
  const chosen = [account !== undefined && '--account', buyer !== undefined && '--buyer', seller !== undefined && '--seller'].filter(Boolean);
  if (chosen.length > 1) throw new UsageError(`use either ${chosen.join(' or ')}, not ${chosen.length === 2 ? 'both' : 'all three'}`);
  if (seller !== undefined) return { ...request, operation: 'balances.historyBySeller', params: { id: seller } };
  if (account !== undefined) return { ...request, operation: 'balances.historyByAccount', params: { id: validateId(account, 'account id', '--account') } };
  if (buyer !== undefined) return { ...request, operation: 'balances.historyByBuyer', params: { id: validateId(buyer, 'buyer id', '--buyer') } };
  return { ...request, operation: 'balances.history' };
}

export async function run(ctx: Factory, _args: ArgsOf<typeof history>, options: OptionsOf<typeof history>): Promise<void> {
  const groupBy = await groupingOf(options, historySummary(options.operation !== undefined), 'balance entries');
  const request = groupedRequest(buildHistoryRequest(options), groupBy !== undefined, options);
  await ctx.service.requireApiKey();
  const count = await ctx.out.list({
    operation: request.operation,
    input: { query: request.query, ...(request.params ? { params: request.params } : {}) },
    request,
    noun: 'entries',
    columns: HISTORY_COLUMNS,
    csvColumns: HISTORY_CSV_COLUMNS,
    totals: HISTORY_TOTALS,
    ...(groupBy ? { groupBy } : {}),
  });
  if (count === 0) ctx.log.status('no entries match');
}
