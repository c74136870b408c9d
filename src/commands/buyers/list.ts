import type { Context } from '../../context.js';
import { buildListRequest } from '../shared/list.js';
import { BUYER_COLUMNS, buyerRow } from './shared.js';

export async function run(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<void> {
  const request = buildListRequest(options);
  await ctx.requireApiKey();
  const api = await ctx.api();
  const count = await ctx.renderList(api.pages('buyers.list', { query: request.query }, request), BUYER_COLUMNS, buyerRow);
  if (count === 0) ctx.log.status('no buyers');
}
