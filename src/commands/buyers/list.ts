import type { Factory } from '../../factory.js';
import { buildListRequest } from '../shared/list.js';
import { BUYER_COLUMNS, buyerRow } from './shared.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { list } from './flags.js';

export async function run(ctx: Factory, _args: ArgsOf<typeof list>, options: OptionsOf<typeof list>): Promise<void> {
  const request = buildListRequest(options);
  await ctx.requireApiKey();
  const count = await ctx.out.list({ operation: 'buyers.list', input: { query: request.query }, request, noun: 'buyers', columns: BUYER_COLUMNS, tableRow: buyerRow });
  if (count === 0) ctx.log.status('no buyers');
}
