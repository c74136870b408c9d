import type { Factory } from '../../factory.js';
import { grossFeesNet } from '../../output/totals.js';
import { validateId } from '../../validate/index.js';
import { everythingOf } from '../shared/list.js';
import { payerColumn, TRANSACTION_COLUMNS, TRANSACTION_CSV_COLUMNS } from '../transactions/shared.js';
import type { ArgsOf } from '../verb.js';
import type { transactions } from './flags.js';

/** The transactions a transfer paid out. */
export async function run(ctx: Factory, args: ArgsOf<typeof transactions>): Promise<void> {
  const id = validateId(args[0] ?? '', 'transfer id', '<id>');
  await ctx.service.requireApiKey();
  const count = await ctx.out.list({
    ...everythingOf('transfers.transactions', id),
    noun: 'transactions',
    columns: TRANSACTION_COLUMNS,
    ...payerColumn(ctx),
    csvColumns: TRANSACTION_CSV_COLUMNS,
    totals: grossFeesNet('amount', 'fees'),
  });
  if (count === 0) ctx.log.status(`transfer ${id} paid out no transactions`);
}
