import type { Factory } from '../../factory.js';
import { ValidationError } from '../../errors.js';
import { isTestKey } from '../../provider/test-keys.js';

/** Today's calendar date where the user is (due dates are read as local days). */
export function localToday(now = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** A due date cannot fall before today. */
export function notInThePast(date: string, flag: string): string {
  if (date < localToday()) throw new ValidationError(flag, `${date} is in the past`);
  return date;
}

/** What a dry run shows for a date a sandbox's clock may decide: a dry run reads nothing to learn it. */
export const SANDBOX_TODAY = '(today on the sandbox clock)';

/**
 * Today, for a date payctl fills in itself (a due date not given). On payctl's sandbox, the day of
 * its clock, which `sandbox advance` moves ahead of the real one (a UTC day, as the sandbox counts
 * them): the real date would be in its past. Elsewhere, a test key's service included, the user's
 * local day. A dry run asks nothing, so where a sandbox may answer it shows that it would ask.
 */
export async function defaultToday(ctx: Factory): Promise<string> {
  if (ctx.globals.dryRun) {
    const profile = await ctx.config.profile();
    return profile.isEmbedded || isTestKey(profile.apiKey) ? SANDBOX_TODAY : localToday();
  }
  return (await ctx.service.sandboxClock())?.slice(0, 10) ?? localToday();
}
