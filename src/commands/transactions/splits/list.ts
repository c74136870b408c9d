import type { Factory } from '../../../factory.js';
import { everythingOf } from '../../shared/list.js';
import { transactionId } from '../shared.js';
import { SPLIT_COLUMNS, splitRow } from './shared.js';
import type { ArgsOf } from '../../verb.js';
import type { splitsList } from '../flags.js';

export async function run(ctx: Factory, args: ArgsOf<typeof splitsList>): Promise<void> {
  const id = transactionId(args);
  await ctx.service.requireApiKey();
  const count = await ctx.out.list({
    ...everythingOf('transactions.splits.list', id),
    noun: 'split rules',
    columns: SPLIT_COLUMNS,
    tableRow: splitRow,
  });
  if (count === 0) ctx.log.status(`transaction ${id} is not split: its seller gets all of it`);
}
