import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { getSeller, kindFromFlags, requireKindFlags, sellerBodyFromFlags, sellerId, type Seller, type SellerKind } from './shared.js';
import { SELLER_VIEW } from './view.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { update } from './flags.js';

/**
 * People and companies are updated at paths of their own, so the seller is read first to know
 * which it is (and to refuse the other kind's flags by name). A dry run reads nothing: the flags
 * must tell the kind, or it shows the read it would start with.
 */
export async function run(ctx: Factory, args: ArgsOf<typeof update>, options: OptionsOf<typeof update>): Promise<void> {
  const id = sellerId(args);
  const flagged = kindFromFlags(options);
  // Checked before anything is sent, for whichever kind the seller turns out to be.
  const bodyFor = (kind: SellerKind) => {
    const body = sellerBodyFromFlags(kind, options);
    if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give at least one flag, e.g. --email or --phone');
    return body;
  };
  bodyFor(flagged ?? 'individual');
  await ctx.service.requireApiKey();
  if (ctx.globals.dryRun) {
    if (flagged === undefined) return ctx.service.printDryRun('sellers.get', { params: { id } });
    return ctx.service.printDryRun(flagged === 'individual' ? 'sellers.updateIndividual' : 'sellers.updateBusiness', { params: { id }, body: bodyFor(flagged) });
  }
  const current = await getSeller(ctx, id);
  const kind: SellerKind = current.type === 'business' ? 'business' : 'individual';
  requireKindFlags(kind, options, id);
  const body = bodyFor(kind);
  await ctx.service.noteSandbox();
  const operation = kind === 'individual' ? 'sellers.updateIndividual' : 'sellers.updateBusiness';
  const seller = await (await ctx.api()).call<Seller>(operation, { params: { id }, body });
  await ctx.out.show(seller, SELLER_VIEW);
  ctx.log.status(`Updated seller ${id}`);
}
