import { UncertainOutcomeError } from '../../api/client.js';
import type { Context } from '../../context.js';
import { OutcomeUnknownError } from '../../errors.js';
import { validateId } from '../../validate/index.js';

export async function run(ctx: Context, args: string[]): Promise<void> {
  const id = validateId(args[0] ?? '', 'transaction id', '<transaction-id>');
  await ctx.requireApiKey();
  if (ctx.globals.dryRun) return ctx.printDryRun('transactions.approve', { params: { id } });
  await ctx.noteSandbox();
  const api = await ctx.api();
  let tx: { status?: string };
  try {
    tx = await api.call<{ status?: string }>('transactions.approve', { params: { id } });
  } catch (err) {
    if (!(err instanceof UncertainOutcomeError)) throw err;
    throw new OutcomeUnknownError(`${err.message}; transaction ${id} may or may not be paid now: check with payctl transactions get ${id} before paying it again`, { cause: err });
  }
  await ctx.render(tx);
  ctx.log.status(`Transaction ${id} paid; status ${tx.status}`);
}
