import type { Factory } from '../../factory.js';
import { optionalString, stringList } from '../shared/input.js';
import { checkEventTypes, checkWebhookUrl } from './shared.js';
import { WEBHOOK_VIEW } from './view.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { create } from './flags.js';

export interface WebhookBody {
  method: 'POST';
  url: string;
  description?: string;
  event: string[];
}

/**
 * The provider's webhook request: `{method: "POST", url, description, event: [...]}`. --url and
 * --event are required: the command line has them, or they were asked for, before this runs.
 */
export function buildWebhookRequest(options: OptionsOf<typeof create>): WebhookBody {
  const body: WebhookBody = { method: 'POST', url: checkWebhookUrl(options.url ?? ''), event: checkEventTypes(stringList(options.event)) };
  const description = optionalString(options.description);
  if (description !== undefined) body.description = description;
  return body;
}

export async function run(ctx: Factory, _args: ArgsOf<typeof create>, options: OptionsOf<typeof create>): Promise<void> {
  const body = buildWebhookRequest(options);
  await ctx.service.requireApiKey();
  if (ctx.globals.dryRun) return ctx.service.printDryRun('webhooks.create', { body });
  await ctx.service.noteSandbox();
  const created = await (await ctx.api()).call('webhooks.create', { body });
  await ctx.out.show(created, WEBHOOK_VIEW);
  ctx.log.status(`Created webhook ${created.id}${created.secret ? '; its signing secret is shown only now: keep it to verify X-Payctl-Signature' : ''}`);
}
