import type { Context } from '../../context.js';
import { optionalString } from '../shared/input.js';
import { buildListRequest, enumFilter, type ListRequest } from '../shared/list.js';
import { grossFeesNet } from '../../output/totals.js';
import { PAYMENT_TYPES, TRANSACTION_COLUMNS, TRANSACTION_CSV_COLUMNS, TRANSACTION_STATUSES } from './shared.js';

export function buildTransactionListRequest(options: Record<string, unknown>): ListRequest {
  const request = buildListRequest(options);
  request.query.status = enumFilter(options.status, TRANSACTION_STATUSES, '--status');
  request.query.payment_type = enumFilter(options.paymentType, PAYMENT_TYPES, '--payment-type');
  request.query.reference_id = optionalString(options.referenceId);
  return request;
}

export async function run(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<void> {
  const request = buildTransactionListRequest(options);
  await ctx.requireApiKey();
  const count = await ctx.list({
    operation: 'transactions.list',
    input: { query: request.query },
    request,
    noun: 'transactions',
    columns: TRANSACTION_COLUMNS,
    csvColumns: TRANSACTION_CSV_COLUMNS,
    totals: grossFeesNet('amount', 'fees'),
  });
  if (count === 0) ctx.log.status('no transactions match');
}
