import type { Context } from '../../context.js';
import { getInvoice, invoiceId, invoiceRow } from './shared.js';

export async function run(ctx: Context, args: string[]): Promise<void> {
  const id = invoiceId(args);
  await ctx.requireApiKey();
  await ctx.render(await getInvoice(ctx, id), invoiceRow);
}
