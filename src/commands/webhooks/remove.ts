import type { Factory } from '../../factory.js';
import { validateId } from '../../validate/index.js';
import { showRemoval } from '../shared/show.js';
import type { ArgsOf } from '../verb.js';
import type { remove } from './flags.js';

export async function run(ctx: Factory, args: ArgsOf<typeof remove>): Promise<void> {
  const id = validateId(args[0] ?? '', 'webhook id', '<id>');
  await ctx.service.requireApiKey();
  if (ctx.globals.dryRun) return ctx.service.printDryRun('webhooks.remove', { params: { id } });
  const api = await ctx.api();
  const webhook = await api.call('webhooks.get', { params: { id } });
  await ctx.prompts.confirm(`Remove webhook ${id} (${webhook.url ?? 'no URL'})? It will receive no more events.`, 'remove a webhook');
  await ctx.service.noteSandbox();
  await showRemoval(ctx, await api.call('webhooks.remove', { params: { id } }), 'Webhook', id, webhook.url ? { label: 'URL', text: webhook.url } : undefined);
  ctx.log.status(`Removed webhook ${id}`);
}
