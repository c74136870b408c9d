import type { Factory } from '../../factory.js';
import type { Column } from '../../output/render-options.js';
import type { Operation } from '../../provider/endpoints.js';
import { buildListRequest } from './list.js';
import type { ListFlagValues } from './list-flags.js';

/**
 * The whole of a list verb with no filters of its own (buyers, sellers, plans, webhooks): the
 * marketplace's items as the flags every list shares ask, in `columns` (`tableRow` as for Printer.list).
 */
export function plainList(operation: Operation, noun: string, columns: Column[], tableRow: (item: Record<string, unknown>) => Record<string, unknown>) {
  return async (ctx: Factory, _args: string[], options: ListFlagValues): Promise<void> => {
    const request = buildListRequest(options);
    await ctx.service.requireApiKey();
    const count = await ctx.out.list({ operation, input: { query: request.query }, request, noun, columns, tableRow });
    if (count === 0) ctx.log.status(`no ${noun}`);
  };
}
