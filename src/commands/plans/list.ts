import type { Context } from '../../context.js';
import { buildListRequest } from '../shared/list.js';
import { PLAN_COLUMNS, planRow } from './shared.js';

export async function run(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<void> {
  const request = buildListRequest(options);
  await ctx.requireApiKey();
  const api = await ctx.api();
  const count = await ctx.renderList(api.pages('plans.list', { query: request.query }, request), PLAN_COLUMNS, planRow);
  if (count === 0) ctx.log.status('no plans');
}
