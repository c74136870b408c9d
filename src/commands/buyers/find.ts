import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { buyersMatching, fold } from '../transactions/find.js';
import { BUYER_COLUMNS, buyerRow } from './shared.js';
import type { ArgsOf } from '../verb.js';
import type { find } from './flags.js';

/** `payctl buyers find <e-mail | CPF/CNPJ | name>`: the buyers a customer may be. */
export async function run(ctx: Factory, args: ArgsOf<typeof find>): Promise<void> {
  const query = (args[0] ?? '').trim();
  if (fold(query).length < 2 || /[\u0000-\u001f\u007f]/.test(query)) throw new UsageError('<e-mail | CPF/CNPJ | name>: give an e-mail, a CPF or CNPJ, or at least 2 letters of a name');
  await ctx.service.requireApiKey();
  const found = await buyersMatching(await ctx.api(), query);
  await ctx.out.renderRows(found, BUYER_COLUMNS, buyerRow);
  if (found.length === 0) ctx.log.status(`no buyer matches ${query}`);
}
