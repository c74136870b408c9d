import type { Operation } from '../../provider/endpoints.js';
import type { Factory } from '../../factory.js';
import type { ObjectView } from '../../output/object-view.js';
import { validateId } from '../../validate/index.js';

/** The same, shown on a terminal through `view` (a short view that reads like the transaction's). */
export function showWithView(operation: Operation, what: string, view: ObjectView, tableRow?: (item: Record<string, unknown>) => Record<string, unknown>) {
  return async (ctx: Factory, args: string[]): Promise<void> => {
    const id = validateId(args[0] ?? '', what, '<id>');
    await ctx.service.requireApiKey();
    await ctx.out.show(await (await ctx.api()).call(operation, { params: { id } }), view, tableRow ? { tableRow } : {});
  };
}

/** The whole of a "get <id>" verb: check the id, fetch, render (`tableRow` as for Printer.render). */
export function showById(operation: Operation, what: string, tableRow?: (item: Record<string, unknown>) => Record<string, unknown>) {
  return async (ctx: Factory, args: string[]): Promise<void> => {
    const id = validateId(args[0] ?? '', what, '<id>');
    await ctx.service.requireApiKey();
    await ctx.out.render(await (await ctx.api()).call(operation, { params: { id } }), tableRow);
  };
}

/**
 * What a removal answers ({id, resource, deleted}, or nothing at all), on a terminal
 * "<Noun> <id>  removed" and what it was, as the question named it (`was`: "Maria Silva,
 * ***.***.*47-25"), under `label`; JSON prints the answer as it is.
 */
export async function showRemoval(ctx: Factory, answer: unknown, noun: string, id: string, was?: { label: string; text: string }): Promise<void> {
  const view: ObjectView = { noun, id: 'id', status: 'status', summary: was ? [{ label: was.label, at: () => was.text }] : [], sections: [] };
  const removed = (a: Record<string, unknown>) => a.deleted !== false && a.deleted !== 'false';
  await ctx.out.show(answer, view, { tableRow: (a) => ({ id: typeof a.id === 'string' ? a.id : id, ...(removed(a) ? { status: 'removed' } : {}) }) });
}
