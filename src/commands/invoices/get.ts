import type { Context } from '../../context.js';
import { getInvoice, invoiceId, invoiceRow } from './shared.js';
import { INVOICE_VIEW } from './view.js';

export async function run(ctx: Context, args: string[]): Promise<void> {
  const id = invoiceId(args);
  await ctx.requireApiKey();
  await ctx.out.show(await getInvoice(ctx, id), INVOICE_VIEW, { tableRow: invoiceRow });
}
