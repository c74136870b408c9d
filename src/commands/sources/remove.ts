import type { Factory } from '../../factory.js';
import { cardName, nameOrId } from '../../output/record-names.js';
import { validateId } from '../../validate/index.js';
import { showRemoval } from '../shared/show.js';
import { sourceCustomer } from './view.js';
import type { ArgsOf } from '../verb.js';
import type { remove } from './flags.js';

/** What a source charges, as the question names it: its card ("MasterCard ••••4444") or its buyer; undefined when it cannot be read. */
async function sourceName(ctx: Factory, id: string): Promise<string | undefined> {
  try {
    const api = await ctx.api();
    const source = await api.call('sources.get', { params: { id } });
    const customer = sourceCustomer(source);
    return cardName(source.card) ?? (customer === undefined ? undefined : await nameOrId(api, 'buyer', customer));
  } catch {
    return undefined;
  }
}

export async function run(ctx: Factory, args: ArgsOf<typeof remove>): Promise<void> {
  const id = validateId(args[0] ?? '', 'source id', '<id>');
  await ctx.service.requireApiKey();
  if (ctx.globals.dryRun) return ctx.service.printDryRun('sources.remove', { params: { id } });
  // Read only when the question is asked: with --yes the removal is the one request.
  let name: string | undefined;
  await ctx.prompts.confirm(async () => {
    name = await sourceName(ctx, id);
    return `Remove source ${id}${name ? ` (${name})` : ''}?`;
  }, 'remove a source');
  await ctx.service.noteSandbox();
  await showRemoval(ctx, await (await ctx.api()).call('sources.remove', { params: { id } }), 'Source', id, name ? { label: 'Charged', text: name } : undefined);
  ctx.log.status(`Removed source ${id}`);
}
