import type { Operation } from '../../provider/endpoints.js';
import type { Factory } from '../../factory.js';
import type { ObjectView } from '../../output/object-view.js';
import { validateId } from '../../validate/index.js';

/** The same, shown on a terminal through `view` (a short view that reads like the transaction's). */
export function showWithView(operation: Operation, what: string, view: ObjectView, tableRow?: (item: Record<string, unknown>) => Record<string, unknown>) {
  return async (ctx: Factory, args: string[]): Promise<void> => {
    const id = validateId(args[0] ?? '', what, '<id>');
    await ctx.requireApiKey();
    await ctx.out.show(await (await ctx.api()).call(operation, { params: { id } }), view, tableRow ? { tableRow } : {});
  };
}

/** The whole of a "get <id>" verb: check the id, fetch, render (`tableRow` as for Printer.render). */
export function showById(operation: Operation, what: string, tableRow?: (item: Record<string, unknown>) => Record<string, unknown>) {
  return async (ctx: Factory, args: string[]): Promise<void> => {
    const id = validateId(args[0] ?? '', what, '<id>');
    await ctx.requireApiKey();
    await ctx.out.render(await (await ctx.api()).call(operation, { params: { id } }), tableRow);
  };
}
