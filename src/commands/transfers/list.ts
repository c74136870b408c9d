import type { Context } from '../../context.js';
import { buildListRequest, enumFilter, type ListRequest } from '../shared/list.js';
import { TRANSFER_COLUMNS, TRANSFER_CSV_COLUMNS, TRANSFER_STATUSES, TRANSFER_TOTALS } from './shared.js';

export function buildTransferListRequest(options: Record<string, unknown>): ListRequest {
  const request = buildListRequest(options);
  request.query.status = enumFilter(options.status, TRANSFER_STATUSES, '--status');
  return request;
}

export async function run(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<void> {
  const request = buildTransferListRequest(options);
  await ctx.requireApiKey();
  const count = await ctx.list({
    operation: 'transfers.list',
    input: { query: request.query },
    request,
    noun: 'transfers',
    columns: TRANSFER_COLUMNS,
    csvColumns: TRANSFER_CSV_COLUMNS,
    totals: TRANSFER_TOTALS,
  });
  if (count === 0) ctx.log.status('no transfers match');
}
