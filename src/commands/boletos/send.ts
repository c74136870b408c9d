import type { Context } from '../../context.js';
import { validateEmail, validateId } from '../../validate/index.js';
import { optionalString } from '../shared/input.js';

export async function run(ctx: Context, args: string[], options: Record<string, unknown>): Promise<void> {
  const id = validateId(args[0] ?? '', 'boleto id', '<id>');
  const to = optionalString(options.to);
  const body = to === undefined ? {} : { to: validateEmail(to, '--to') };
  await ctx.requireApiKey();
  if (ctx.globals.dryRun) return ctx.printDryRun('boletos.send', { params: { id }, body });
  await ctx.noteSandbox();
  const result = await (await ctx.api()).call<{ to?: string }>('boletos.send', { params: { id }, body });
  await ctx.render(result);
  ctx.log.status(`Sent boleto ${id} by e-mail${result.to ?? to ? ` to ${result.to ?? to}` : " to the buyer's address"}`);
}
