import type { Factory } from '../../factory.js';
import { accountOrSeller } from './shared.js';
import { balanceView, currentBalanceView } from './view.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { current, get } from './flags.js';

/**
 * The sellers payctl knows an account's owner may be, to name an owner the answer does not say the
 * kind of: the seller whose balance was asked for, and the profile's seller.
 */
async function knownSellers(ctx: Factory, target: { account: string } | { seller: string }): Promise<string[]> {
  const profile = (await ctx.config.profile()).sellerId;
  return [...('seller' in target ? [target.seller] : []), ...(profile ? [profile] : [])];
}

/** `balances get`: current, future and total balance of an account (default: the profile's seller). */
export async function runGet(ctx: Factory, _args: ArgsOf<typeof get>, options: OptionsOf<typeof get>): Promise<void> {
  const target = await accountOrSeller(ctx, options);
  await ctx.service.requireApiKey();
  const api = await ctx.api();
  const balance = 'account' in target ? await api.call('balances.get', { params: { id: target.account } }) : await api.call('balances.getBySeller', { params: { id: target.seller } });
  await ctx.out.show(balance, balanceView(await knownSellers(ctx, target)));
}

/** `balances current`: only what is in the account now. */
export async function runCurrent(ctx: Factory, _args: ArgsOf<typeof current>, options: OptionsOf<typeof current>): Promise<void> {
  const target = await accountOrSeller(ctx, options);
  await ctx.service.requireApiKey();
  const api = await ctx.api();
  const current =
    'account' in target ? await api.call('balances.current', { params: { id: target.account } }) : await api.call('balances.currentBySeller', { params: { id: target.seller } });
  await ctx.out.show(current, currentBalanceView(await knownSellers(ctx, target)));
}
