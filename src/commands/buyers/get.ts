import type { Factory } from '../../factory.js';
import { writeOut } from '../../output/write.js';
import { buyerId, getBuyer } from './shared.js';
import { BUYER_VIEW } from './view.js';
import type { ArgsOf } from '../verb.js';
import type { get } from './flags.js';

/** How many of a buyer's recent sales a terminal shows under the buyer. */
const RECENT_SALES = 5;

export async function run(ctx: Factory, args: ArgsOf<typeof get>): Promise<void> {
  const id = buyerId(args);
  await ctx.service.requireApiKey();
  await ctx.out.show(await getBuyer(ctx, id), BUYER_VIEW);
  // On a terminal, what support asks next: the buyer's latest sales (JSON stays the buyer alone).
  if ((await ctx.out.outputFormat()) !== 'table' || !ctx.io.stdoutIsTTY) return;
  const [{ FIND_WINDOW_DAYS, keepMatching, windowStartSeconds }, { TRANSACTION_COLUMNS }] = await Promise.all([import('../transactions/find.js'), import('../transactions/shared.js')]);
  const since = await windowStartSeconds(ctx);
  const api = await ctx.api();
  const sales: unknown[] = [];
  for await (const page of keepMatching(api.pages('transactions.list', { query: { 'date_range[gte]': since } }, { limit: 100, all: true }), { customers: new Set([id]) }, RECENT_SALES, false)) sales.push(...page);
  await writeOut(ctx.io.stdout, `\nRecent sales (the last ${FIND_WINDOW_DAYS} days, newest first):\n`);
  if (sales.length === 0) await writeOut(ctx.io.stdout, 'none\n');
  else await ctx.out.renderRows(sales, TRANSACTION_COLUMNS.filter((c) => c.key !== 'description'));
}
