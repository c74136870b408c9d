import type { Factory } from '../../factory.js';
import { buildListRequest } from '../shared/list.js';
import { WEBHOOK_COLUMNS, webhookRow } from './shared.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { list } from './flags.js';

export async function run(ctx: Factory, _args: ArgsOf<typeof list>, options: OptionsOf<typeof list>): Promise<void> {
  const request = buildListRequest(options);
  await ctx.requireApiKey();
  const count = await ctx.out.list({ operation: 'webhooks.list', input: { query: request.query }, request, noun: 'webhooks', columns: WEBHOOK_COLUMNS, tableRow: webhookRow });
  if (count === 0) ctx.log.status('no webhooks');
}
