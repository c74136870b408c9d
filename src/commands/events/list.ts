import type { Factory } from '../../factory.js';
import { buildListRequest } from '../shared/list.js';
import { checkEventTypes, EVENT_COLUMNS, eventRow } from '../webhooks/shared.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { list } from './flags.js';

export async function run(ctx: Factory, _args: ArgsOf<typeof list>, options: OptionsOf<typeof list>): Promise<void> {
  const request = buildListRequest(options);
  const types = checkEventTypes(options.type ?? [], '--type').filter((t) => t !== '*');
  if (types.length > 0) request.query.type = types.join(',');
  await ctx.service.requireApiKey();
  const count = await ctx.out.list({ operation: 'events.list', input: { query: request.query }, request, noun: 'events', columns: EVENT_COLUMNS, tableRow: eventRow });
  if (count === 0) ctx.log.status('no events match');
}
