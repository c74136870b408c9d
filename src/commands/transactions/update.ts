import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { parseMetadata } from '../../validate/index.js';
import { optionalString, stringList } from '../shared/input.js';
import { transactionId } from './shared.js';
import { TRANSACTION_VIEW } from './view.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { update } from './flags.js';

export function buildUpdateRequest(options: OptionsOf<typeof update>): { description?: string; metadata?: Record<string, string> } {
  const body: { description?: string; metadata?: Record<string, string> } = {};
  const description = optionalString(options.description);
  if (description !== undefined) body.description = description;
  const metadata = stringList(options.metadata);
  if (metadata.length > 0) body.metadata = parseMetadata(metadata, '--metadata');
  if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give --description and/or --metadata key=value');
  return body;
}

export async function run(ctx: Factory, args: ArgsOf<typeof update>, options: OptionsOf<typeof update>): Promise<void> {
  const id = transactionId(args);
  const body = buildUpdateRequest(options);
  await ctx.service.requireApiKey();
  if (ctx.globals.dryRun) return ctx.service.printDryRun('transactions.update', { params: { id }, body });
  await ctx.service.noteSandbox();
  const api = await ctx.api();
  await ctx.out.show(await api.call('transactions.update', { params: { id }, body }), TRANSACTION_VIEW);
  ctx.log.status(`Updated transaction ${id}`);
}
