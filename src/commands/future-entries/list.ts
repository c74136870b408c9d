import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { GROSS_FEE_NET_COLUMNS } from '../../output/columns.js';
import type { Column } from '../../output/render-options.js';
import { grossFeesNet } from '../../output/totals.js';
import { validateId } from '../../validate/index.js';
import { optionalString } from '../shared/input.js';
import { buildListRequest, heldToDays } from '../shared/list.js';
import { BY_EXPECTED_DATE } from '../shared/list-flags.js';
import { sellerFlag } from '../shared/seller.js';
import { groupedRequest } from '../shared/group-by-flag.js';
import { FUTURE_ENTRY_SUMMARY, groupingOf } from '../shared/summaries.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { list } from './flags.js';

export const FUTURE_ENTRY_COLUMNS: Column[] = [
  { key: 'expected_on', header: 'EXPECTED', kind: 'date' },
  { key: 'installment', header: 'INSTALLMENT' },
  ...GROSS_FEE_NET_COLUMNS,
  { key: 'transaction', header: 'TRANSACTION', kind: 'id', optional: true },
];

export const FUTURE_ENTRY_CSV_COLUMNS = ['id', 'expected_on', 'installment', 'gross_amount', 'fee', 'amount', 'currency', 'transaction', 'receivable', 'on_behalf_of', 'created_at'];

export async function run(ctx: Factory, _args: ArgsOf<typeof list>, options: OptionsOf<typeof list>): Promise<void> {
  const groupBy = await groupingOf(options, FUTURE_ENTRY_SUMMARY, 'future entries');
  const request = groupedRequest(buildListRequest(options, BY_EXPECTED_DATE), groupBy !== undefined, options);
  const old = optionalString(options.onBehalfOf);
  const given = sellerFlag(options) ?? (old === undefined ? undefined : validateId(old, 'seller id', '--on-behalf-of'));
  const seller = given ?? (await ctx.config.profile()).sellerId;
  if (!seller) throw new UsageError("give --seller <seller-id>, or set the profile's seller_id ('payctl config set seller_id <id>') or PAYCTL_SELLER_ID");
  await ctx.service.requireApiKey();
  const count = await ctx.out.list({
    operation: 'futureEntries.list',
    input: { params: { id: seller }, query: request.query },
    request,
    noun: 'future entries',
    columns: FUTURE_ENTRY_COLUMNS,
    csvColumns: FUTURE_ENTRY_CSV_COLUMNS,
    totals: grossFeesNet('gross_amount', 'fee'),
    ...heldToDays(request, 'future entries'),
    ...(groupBy ? { groupBy } : {}),
  });
  if (count === 0) ctx.log.status('no future entries match');
}
