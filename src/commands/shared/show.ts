import type { Operation } from '../../api/endpoints.js';
import type { Context } from '../../context.js';
import { validateId } from '../../validate/index.js';

/** The whole of a "get <id>" verb: check the id, fetch, render (`tableRow` as for Context.render). */
export function showById(operation: Operation, what: string, tableRow?: (item: Record<string, unknown>) => Record<string, unknown>) {
  return async (ctx: Context, args: string[]): Promise<void> => {
    const id = validateId(args[0] ?? '', what, '<id>');
    await ctx.requireApiKey();
    await ctx.render(await (await ctx.api()).call(operation, { params: { id } }), tableRow);
  };
}
