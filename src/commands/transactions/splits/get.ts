import type { Factory } from '../../../factory.js';
import { transactionId } from '../shared.js';
import { ruleId, SPLIT_RULE_VIEW } from './shared.js';
import type { ArgsOf } from '../../verb.js';
import type { splitsGet } from '../flags.js';

export async function run(ctx: Factory, args: ArgsOf<typeof splitsGet>): Promise<void> {
  const id = transactionId(args);
  const rule = ruleId(args);
  await ctx.service.requireApiKey();
  const api = await ctx.api();
  await ctx.out.show(await api.call('transactions.splits.get', { params: { id, rule } }), SPLIT_RULE_VIEW);
}
