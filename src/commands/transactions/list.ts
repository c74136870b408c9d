import type { Factory } from '../../factory.js';
import { optionalString } from '../shared/input.js';
import { listSource, sellerFlag } from '../shared/seller.js';
import { buildListRequest, enumValues, type ListRequest } from '../shared/list.js';
import { grossFeesNet } from '../../output/totals.js';
import { groupedRequest } from '../shared/group-by-flag.js';
import { groupingOf, TRANSACTION_SUMMARY } from '../shared/summaries.js';
import { searching } from './find-flags.js';
import { isSingleRequest, mergedPages, SERVICE_PAYMENT_TYPES, type TransactionFilters } from './list-filters.js';
import { payerColumn, PAYMENT_TYPES, TRANSACTION_COLUMNS, TRANSACTION_CSV_COLUMNS, TRANSACTION_STATUSES } from './shared.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { list } from './flags.js';

export interface TransactionListRequest extends ListRequest {
  filters: TransactionFilters;
}

export function buildTransactionListRequest(options: OptionsOf<typeof list>): TransactionListRequest {
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

export async function run(ctx: Factory, _args: ArgsOf<typeof list>, given: OptionsOf<typeof list>): Promise<void> {
  const groupBy = await groupingOf(given, TRANSACTION_SUMMARY, 'transactions');
  // A search by buyer, card or amount (find.ts) reads a bounded window and keeps what matches.
  const find = searching(given) ? await import('./find.js') : undefined;
  const filters = find ? await find.findFilters(ctx, given) : undefined;
  const options = find ? await find.findWindow(ctx, given) : given;
  const request = groupedRequest(buildTransactionListRequest(options), groupBy !== undefined, options);
  const seller = sellerFlag(options);
  await ctx.service.requireApiKey();
  if (filters?.customers?.size === 0) {
    // No such buyer: nothing to read, and an empty list as any list prints one.
    await ctx.out.renderRows([], TRANSACTION_COLUMNS);
    ctx.log.status('no transactions match');
    return;
  }
  const merged = !isSingleRequest(request.filters);
  const local = request.filters.paymentTypes.filter((type) => !SERVICE_PAYMENT_TYPES.includes(type));
  if (local.length > 0) {
    ctx.log.status(`note: the service cannot filter by ${local.join(' or ')}; payctl reads the list unfiltered and keeps those`);
  }
  const count = await ctx.out.list({
    ...listSource('transactions', seller, request.query),
    request,
    noun: 'transactions',
    columns: TRANSACTION_COLUMNS,
    ...payerColumn(ctx),
    csvColumns: TRANSACTION_CSV_COLUMNS,
    totals: grossFeesNet('amount', 'fees'),
    ...(groupBy ? { groupBy } : {}),
    ...(merged && !find ? { pages: (api, onPage) => mergedPages(api, request.query, request.filters, request, onPage, seller) } : {}),
    ...(find && filters
      ? {
          // Every page of the window is read (so a terminal shows its progress); what matches is kept.
          request: { ...request, all: true },
          pages: (api, onPage) => {
            const window = { ...request, all: true };
            const single = listSource('transactions', seller, request.query);
            const source = merged
              ? mergedPages(api, request.query, request.filters, window, onPage, seller)
              : api.pages(single.operation, single.input, { ...window, ...(onPage ? { onPage } : {}) });
            return find.keepMatching(source, filters, request.limit, request.all);
          },
        }
      : {}),
  });
  if (count === 0) ctx.log.status('no transactions match');
  else if (find && !request.all && count >= request.limit) ctx.log.status(`the first ${count} that match (--limit); --all for every one`);
}
