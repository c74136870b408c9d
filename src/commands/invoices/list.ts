import type { Factory } from '../../factory.js';
import { validateId } from '../../validate/index.js';
import { optionalString } from '../shared/input.js';
import { buildListRequest, enumFilter, heldToDays } from '../shared/list.js';
import { BY_DUE_DATE } from '../shared/list-flags.js';
import { listSource, refuseWithSeller, sellerFlag } from '../shared/seller.js';
import { INVOICE_COLUMNS, INVOICE_STATUSES, invoiceRow } from './shared.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { list } from './flags.js';

export async function run(ctx: Factory, _args: ArgsOf<typeof list>, options: OptionsOf<typeof list>): Promise<void> {
  const seller = sellerFlag(options);
  if (seller !== undefined) refuseWithSeller(options, { subscription: '--subscription', customer: '--customer', status: '--status' }, '…/sellers/{id}/invoices');
  const request = buildListRequest(options, BY_DUE_DATE);
  const subscription = optionalString(options.subscription);
  if (subscription !== undefined) request.query.subscription = validateId(subscription, 'subscription id', '--subscription');
  const customer = optionalString(options.customer);
  if (customer !== undefined) request.query.customer = validateId(customer, 'buyer id', '--customer');
  request.query.status = enumFilter(options.status, INVOICE_STATUSES, '--status');
  await ctx.service.requireApiKey();
  const count = await ctx.out.list({ ...listSource('invoices', seller, request.query), request, noun: 'invoices', columns: INVOICE_COLUMNS, tableRow: invoiceRow, ...heldToDays(request, 'invoices') });
  if (count === 0) ctx.log.status('no invoices match');
}
