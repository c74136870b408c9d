import type { Factory } from '../../factory.js';
import { ApiError, ValidationError } from '../../errors.js';

/** Today's calendar date where the user is (due dates are read as local days). */
export function localToday(now = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** A due date cannot fall before today. */
export function notInThePast(date: string, flag: string): string {
  if (date < localToday()) throw new ValidationError(flag, `${date} is in the past`);
  return date;
}

/** What a dry run shows for a date a sandbox's clock decides: a dry run reads nothing to learn it. */
export const SANDBOX_TODAY = '(today on the sandbox clock)';

/**
 * Today, for a date payctl fills in itself (a due date not given). On a sandbox, the day of its
 * clock, which `sandbox advance` moves ahead of the real one (a UTC day, as the sandbox counts
 * them): the real date would be in its past. Elsewhere, the user's local day.
 */
export async function defaultToday(ctx: Factory): Promise<string> {
  if (!(await ctx.isSandbox())) return localToday();
  if (ctx.globals.dryRun) return SANDBOX_TODAY;
  try {
    const clock = await (await ctx.api()).call('sandbox.clock');
    return /^\d{4}-\d{2}-\d{2}/.exec(clock.now)?.[0] ?? localToday();
  } catch (err) {
    // A test key on a service other than payctl's sandbox: it has no clock to ask, and keeps real time.
    if (err instanceof ApiError && err.details.httpStatus === 404) return localToday();
    throw err;
  }
}
