import type { Factory } from '../../factory.js';
import { validateId } from '../../validate/index.js';
import { optionalString } from '../shared/input.js';
import { buildListRequest, heldToDays } from '../shared/list.js';
import { BY_NEXT_DUE_DATE } from '../shared/list-flags.js';
import { listSource, refuseWithSeller, sellerFlag } from '../shared/seller.js';
import { SUBSCRIPTION_COLUMNS, subscriptionRow } from './shared.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { list } from './flags.js';

export async function run(ctx: Factory, _args: ArgsOf<typeof list>, options: OptionsOf<typeof list>): Promise<void> {
  const seller = sellerFlag(options);
  if (seller !== undefined) {
    refuseWithSeller(options, { customer: '--customer', plan: '--plan', status: '--status', from: '--from', to: '--to' }, '…/sellers/{id}/subscriptions');
  }
  const request = buildListRequest(options, BY_NEXT_DUE_DATE);
  const customer = optionalString(options.customer);
  if (customer !== undefined) request.query.customer = validateId(customer, 'buyer id', '--customer');
  const plan = optionalString(options.plan);
  if (plan !== undefined) request.query.plan = validateId(plan, 'plan id', '--plan');
  request.query.status = optionalString(options.status);
  await ctx.service.requireApiKey();
  const count = await ctx.out.list({ ...listSource('subscriptions', seller, request.query), request, noun: 'subscriptions', columns: SUBSCRIPTION_COLUMNS, tableRow: subscriptionRow, ...heldToDays(request, 'subscriptions') });
  if (count === 0) ctx.log.status('no subscriptions match');
}
