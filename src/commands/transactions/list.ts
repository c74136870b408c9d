import type { Context } from '../../context.js';
import { optionalString } from '../shared/input.js';
import { sellerFlag } from '../shared/seller.js';
import { buildListRequest, enumValues, type ListRequest } from '../shared/list.js';
import { grossFeesNet } from '../../output/totals.js';
import { groupedRequest } from '../shared/group-by-flag.js';
import { groupingOf, TRANSACTION_SUMMARY } from '../shared/summaries.js';
import { isSingleRequest, mergedPages, SERVICE_PAYMENT_TYPES, type TransactionFilters } from './list-filters.js';
import { PAYMENT_TYPES, TRANSACTION_COLUMNS, TRANSACTION_CSV_COLUMNS, TRANSACTION_STATUSES } from './shared.js';

export interface TransactionListRequest extends ListRequest {
  filters: TransactionFilters;
}

export function buildTransactionListRequest(options: Record<string, unknown>): TransactionListRequest {
  const request = buildListRequest(options);
  const filters = {
    statuses: enumValues(options.status, TRANSACTION_STATUSES, '--status'),
    paymentTypes: enumValues(options.paymentType, PAYMENT_TYPES, '--payment-type'),
  };
  request.query.reference_id = optionalString(options.referenceId);
  // One value each, of the kinds the service filters by, go in the query as they are.
  if (isSingleRequest(filters)) {
    request.query.status = filters.statuses[0];
    request.query.payment_type = filters.paymentTypes[0];
  }
  return { ...request, filters };
}

export async function run(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<void> {
  const groupBy = await groupingOf(options, TRANSACTION_SUMMARY, 'transactions');
  const request = groupedRequest(buildTransactionListRequest(options), groupBy !== undefined, options);
  const seller = sellerFlag(options);
  await ctx.requireApiKey();
  const merged = !isSingleRequest(request.filters);
  const local = request.filters.paymentTypes.filter((type) => !SERVICE_PAYMENT_TYPES.includes(type));
  if (local.length > 0) {
    ctx.log.status(`note: the service cannot filter by ${local.join(' or ')}; payctl reads the list unfiltered and keeps those`);
  }
  const count = await ctx.list({
    ...(seller === undefined
      ? { operation: 'transactions.list' as const, input: { query: request.query } }
      : { operation: 'transactions.listBySeller' as const, input: { params: { id: seller }, query: request.query } }),
    request,
    noun: 'transactions',
    columns: TRANSACTION_COLUMNS,
    csvColumns: TRANSACTION_CSV_COLUMNS,
    totals: grossFeesNet('amount', 'fees'),
    ...(groupBy ? { groupBy } : {}),
    ...(merged ? { pages: (api, onPage) => mergedPages(api, request.query, request.filters, request, onPage, seller) } : {}),
  });
  if (count === 0) ctx.log.status('no transactions match');
}
