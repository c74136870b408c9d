import type { Context } from '../../context.js';
import { ValidationError } from '../../errors.js';
import { missingInput, optionalString } from '../shared/input.js';

export async function runClock(ctx: Context): Promise<void> {
  await ctx.requireApiKey();
  await ctx.render(await (await ctx.api()).call('sandbox.clock'));
}

interface Advanced {
  now?: string;
  billed?: unknown[];
  expired?: unknown[];
  overdue?: unknown[];
}

export async function runAdvance(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<void> {
  const raw = optionalString(options.days);
  if (raw === undefined) throw missingInput(['--days']);
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 3660) throw new ValidationError('--days', 'give a whole number of days from 1 to 3660');
  const body = { days: Number(raw) };
  await ctx.requireApiKey();
  if (ctx.globals.dryRun) return ctx.printDryRun('sandbox.advance', { body });
  await ctx.noteSandbox();
  const result = await (await ctx.api()).call<Advanced>('sandbox.advance', { body });
  await ctx.render(result);
  const count = (list: unknown[] | undefined, what: string) => `${list?.length ?? 0} ${what}`;
  ctx.log.status(`Sandbox clock now ${result.now}; ${count(result.billed, 'billings')}, ${count(result.expired, 'subscriptions expired')}, ${count(result.overdue, 'invoices over-due')}`);
}

interface Generated {
  now?: string;
  transactions?: number;
  transfers?: number;
}

/** `sandbox generate`: days of trading on the sandbox clock, for rehearsing exports at volume. */
export async function runGenerate(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<void> {
  const sales = optionalString(options.sales);
  if (sales === undefined) throw missingInput(['--sales']);
  if (!/^\d+$/.test(sales) || Number(sales) < 1 || Number(sales) > 1_000_000) throw new ValidationError('--sales', 'give a whole number of sales from 1 to 1000000');
  const days = optionalString(options.days) ?? '30';
  if (!/^\d+$/.test(days) || Number(days) < 1 || Number(days) > 3660) throw new ValidationError('--days', 'give a whole number of days from 1 to 3660');
  const body = { sales: Number(sales), days: Number(days) };
  await ctx.requireApiKey();
  if (ctx.globals.dryRun) return ctx.printDryRun('sandbox.generate', { body });
  await ctx.noteSandbox();
  ctx.log.status(`Trading ${body.sales.toLocaleString('en-US')} sales over ${body.days} days on the sandbox clock…`);
  const result = await (await ctx.api()).call<Generated>('sandbox.generate', { body });
  await ctx.render(result);
  ctx.log.status(`Sandbox clock now ${result.now}; ${result.transactions ?? 0} transactions, ${result.transfers ?? 0} transfers made`);
}
