import type { Factory } from '../../factory.js';
import { validateId } from '../../validate/index.js';
import { missingInput, optionalString } from '../shared/input.js';
import { everythingOf } from '../shared/list.js';
import { ACCOUNT_COLUMNS } from './shared.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { accounts } from './flags.js';

export async function run(ctx: Factory, _args: ArgsOf<typeof accounts>, options: OptionsOf<typeof accounts>): Promise<void> {
  const buyer = optionalString(options.buyer);
  if (buyer === undefined) throw missingInput(ctx, ['--buyer <buyer-id>']);
  const id = validateId(buyer, 'buyer id', '--buyer');
  await ctx.service.requireApiKey();
  const count = await ctx.out.list({
    ...everythingOf('balances.accountsByBuyer', id),
    noun: 'accounts',
    columns: ACCOUNT_COLUMNS,
  });
  if (count === 0) ctx.log.status(`${await ctx.out.named('buyer', id)} has no accounts`);
}
