import type { Context } from '../../context.js';
import { validateId } from '../../validate/index.js';

export async function run(ctx: Context, args: string[]): Promise<void> {
  const id = validateId(args[0] ?? '', 'boleto id', '<id>');
  await ctx.requireApiKey();
  await ctx.render(await (await ctx.api()).call('boletos.get', { params: { id } }));
}
