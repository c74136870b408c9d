import type { Factory } from '../../factory.js';
import { listSource, sellerFlag } from '../shared/seller.js';
import { groupedRequest } from '../shared/group-by-flag.js';
import { groupingOf, TRANSFER_SUMMARY } from '../shared/summaries.js';
import { buildListRequest, enumFilter, heldToDays, type ListRequest } from '../shared/list.js';
import { BY_TRANSFER_DATE } from '../shared/list-flags.js';
import { TRANSFER_COLUMNS, TRANSFER_CSV_COLUMNS, TRANSFER_STATUSES, TRANSFER_TOTALS } from './shared.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { list } from './flags.js';

export function buildTransferListRequest(options: OptionsOf<typeof list>): ListRequest {
  const request = buildListRequest(options, BY_TRANSFER_DATE);
  request.query.status = enumFilter(options.status, TRANSFER_STATUSES, '--status');
  return request;
}

export async function run(ctx: Factory, _args: ArgsOf<typeof list>, options: OptionsOf<typeof list>): Promise<void> {
  const groupBy = await groupingOf(options, TRANSFER_SUMMARY, 'transfers');
  const request = groupedRequest(buildTransferListRequest(options), groupBy !== undefined, options);
  await ctx.service.requireApiKey();
  const count = await ctx.out.list({
    ...listSource('transfers', sellerFlag(options), request.query),
    request,
    noun: 'transfers',
    columns: TRANSFER_COLUMNS,
    csvColumns: TRANSFER_CSV_COLUMNS,
    totals: TRANSFER_TOTALS,
    ...heldToDays(request, 'transfers'),
    ...(groupBy ? { groupBy } : {}),
  });
  if (count === 0) ctx.log.status('no transfers match');
}
