import type { Factory } from '../../factory.js';
import { accountOrSeller } from './shared.js';
import { BALANCE_VIEW, CURRENT_BALANCE_VIEW } from './view.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { current, get } from './flags.js';

/** `balances get`: current, future and total balance of an account (default: the profile's seller). */
export async function runGet(ctx: Factory, _args: ArgsOf<typeof get>, options: OptionsOf<typeof get>): Promise<void> {
  const target = await accountOrSeller(ctx, options);
  await ctx.requireApiKey();
  const api = await ctx.api();
  const balance = 'account' in target ? await api.call('balances.get', { params: { id: target.account } }) : await api.call('balances.getBySeller', { params: { id: target.seller } });
  await ctx.out.show(balance, BALANCE_VIEW);
}

/** `balances current`: only what is in the account now. */
export async function runCurrent(ctx: Factory, _args: ArgsOf<typeof current>, options: OptionsOf<typeof current>): Promise<void> {
  const target = await accountOrSeller(ctx, options);
  await ctx.requireApiKey();
  const api = await ctx.api();
  const current =
    'account' in target ? await api.call('balances.current', { params: { id: target.account } }) : await api.call('balances.currentBySeller', { params: { id: target.seller } });
  await ctx.out.show(current, CURRENT_BALANCE_VIEW);
}
