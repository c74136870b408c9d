import type { Factory } from '../../factory.js';
import { ValidationError } from '../../errors.js';
import { counted, formatCount, noun } from '../../platform/plural.js';
import { missingInput, optionalString } from '../shared/input.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { advance, generate } from './flags.js';

export async function runClock(ctx: Factory): Promise<void> {
  await ctx.service.requireApiKey();
  await ctx.out.render(await (await ctx.api()).call('sandbox.clock'));
}

interface Advanced {
  now?: string;
  billed?: unknown[];
  expired?: unknown[];
  overdue?: unknown[];
}

export async function runAdvance(ctx: Factory, _args: ArgsOf<typeof advance>, options: OptionsOf<typeof advance>): Promise<void> {
  const raw = optionalString(options.days);
  if (raw === undefined) throw missingInput(ctx, ['--days']);
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 3660) throw new ValidationError('--days', 'give a whole number of days from 1 to 3660');
  const body = { days: Number(raw) };
  await ctx.service.requireApiKey();
  if (ctx.globals.dryRun) return ctx.service.printDryRun('sandbox.advance', { body });
  await ctx.service.noteSandbox();
  const result = await (await ctx.api()).call<Advanced>('sandbox.advance', { body });
  await ctx.out.render(result);
  const count = (list: unknown[] | undefined, one: string) => counted(list?.length ?? 0, one);
  ctx.log.status(`Sandbox clock now ${result.now}; ${count(result.billed, 'billing')}, ${count(result.expired, 'subscription')} expired, ${count(result.overdue, 'invoice')} over-due`);
}

interface Generated {
  now?: string;
  offset_seconds?: number;
  transactions?: number;
  transfers?: number;
  buyers?: number;
}

/**
 * Sales per request: each answers in a few seconds (about 4 on 2 cores: a sale with its buyer,
 * card on file, instalments and what becomes of it costs about twice what a bare one did), well
 * inside the request timeout even on a loaded machine, and shows progress.
 */
export const GENERATE_PART = 10_000;

/**
 * How long a part may take to answer, when that is longer than --timeout: 10 ms a sale (some 40
 * times what a sale takes on 2 idle cores), and for the last part, which also packs the database
 * the whole volume was written to, 0.2 ms more a sale of the volume; at most 10 minutes. A machine
 * under heavy load made parts of 10,000 sales miss the default 30 s, with every sale made so far
 * kept but the command failed.
 */
export function partWorkMs(sales: number, last: boolean, total: number): number {
  return Math.min(600_000, sales * 10 + (last ? total * 0.2 : 0));
}

/** `sandbox generate`: days of a shop's trading on the sandbox clock, for rehearsing support, month-ends and exports at volume. */
export async function runGenerate(ctx: Factory, _args: ArgsOf<typeof generate>, options: OptionsOf<typeof generate>): Promise<void> {
  const sales = optionalString(options.sales);
  if (sales === undefined) throw missingInput(ctx, ['--sales']);
  if (!/^\d+$/.test(sales) || Number(sales) < 1 || Number(sales) > 1_000_000) throw new ValidationError('--sales', 'give a whole number of sales from 1 to 1000000');
  const days = optionalString(options.days) ?? '90';
  if (!/^\d+$/.test(days) || Number(days) < 1 || Number(days) > 3660) throw new ValidationError('--days', 'give a whole number of days from 1 to 3660');
  const seed = optionalString(options.seed) ?? '1';
  if (!/^\d{1,10}$/.test(seed) || Number(seed) > 2_147_483_647) throw new ValidationError('--seed', 'give a whole number from 0 to 2147483647');
  const total = Number(sales);
  const part = (first: number) => ({ sales: Math.min(GENERATE_PART, total - first), days: Number(days), first, total, seed: Number(seed) });
  await ctx.service.requireApiKey();
  if (ctx.globals.dryRun) return ctx.service.printDryRun('sandbox.generate', { body: part(0) });
  await ctx.service.noteSandbox();
  ctx.log.status(`Trading ${counted(total, 'sale')} over ${counted(Number(days), 'day')} on the sandbox clock…`);
  // The embedded sandbox trades on a thread of its own: on this one, a part of 10,000 sales held
  // the command for seconds, and Ctrl-C waited for the part to end (4 s on a loaded machine).
  ctx.service.expectLongRun();
  const api = await ctx.api();
  // In parts: a stop (Ctrl-C, a lost connection) keeps every part already traded, on a clock that
  // has moved as far as they reach.
  let result: Generated = {};
  let transfers = 0;
  let buyers = 0;
  for (let first = 0; first < total; first += GENERATE_PART) {
    const body = part(first);
    result = await api.call<Generated>('sandbox.generate', { body, workMs: partWorkMs(body.sales, first + body.sales === total, total) });
    transfers += result.transfers ?? 0;
    buyers += result.buyers ?? 0;
    const done = Math.min(total, first + GENERATE_PART);
    if (done < total) ctx.log.status(`Traded ${formatCount(done)} of ${counted(total, 'sale')}…`);
  }
  const summary = { ...result, transactions: total, transfers, buyers };
  await ctx.out.render(summary);
  ctx.log.status(`Sandbox clock now ${summary.now}; ${counted(total, 'transaction')}, ${counted(transfers, 'transfer')}, ${counted(buyers, 'new buyer')} made`);
}
