import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { missingInput } from '../shared/input.js';
import { kindFromFlags, REQUIRED_FLAGS, sellerBodyFromFlags, sellerName, type Seller } from './shared.js';
import { SELLER_VIEW } from './view.js';

export async function run(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<void> {
  const kind = kindFromFlags(options);
  if (kind === undefined) {
    throw new UsageError(
      'say who the seller is: a person with --first-name, --last-name, --taxpayer-id <CPF> and --email, or a company with --business-name, --ein <CNPJ> and --email',
    );
  }
  const body = sellerBodyFromFlags(kind, options);
  const missing = REQUIRED_FLAGS[kind].filter(([field]) => body[field] === undefined).map(([, flag]) => flag);
  if (missing.length > 0) throw missingInput(missing);
  await ctx.requireApiKey();
  const operation = kind === 'individual' ? 'sellers.createIndividual' : 'sellers.createBusiness';
  if (ctx.globals.dryRun) return ctx.printDryRun(operation, { body });
  await ctx.noteSandbox();
  const seller = await (await ctx.api()).call<Seller>(operation, { body });
  await ctx.show(seller, SELLER_VIEW, { short: true });
  ctx.log.status(`Created seller ${seller.id} (${sellerName(seller)})`);
}
