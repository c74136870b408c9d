import type { Factory } from '../../factory.js';
import { getInvoice, invoiceId, invoiceRow } from './shared.js';
import { INVOICE_VIEW } from './view.js';
import type { ArgsOf } from '../verb.js';
import type { get } from './flags.js';

export async function run(ctx: Factory, args: ArgsOf<typeof get>): Promise<void> {
  const id = invoiceId(args);
  await ctx.requireApiKey();
  await ctx.out.show(await getInvoice(ctx, id), INVOICE_VIEW, { tableRow: invoiceRow });
}
