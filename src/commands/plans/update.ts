import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { validateId } from '../../validate/index.js';
import { planBodyFromFlags, planRow } from './shared.js';
import { PLAN_VIEW } from './view.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { update } from './flags.js';

/** What the provider's PUT takes; it requires the first five, so every update sends them all. */
const WRITABLE = ['name', 'frequency', 'interval', 'currency', 'payment_methods', 'amount', 'setup_amount', 'description', 'duration'] as const;

/**
 * The whole plan with the changes applied: the provider's PUT replaces the plan and refuses a body
 * without name, frequency, interval, currency and payment_methods, so the fields not being changed
 * are sent as the service holds them now. Fields it holds as null are left out.
 */
export function wholePlan(current: Record<string, unknown>, changes: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const key of WRITABLE) {
    if (current[key] !== undefined && current[key] !== null) body[key] = current[key];
  }
  return { ...body, ...changes };
}

export async function run(ctx: Factory, args: ArgsOf<typeof update>, options: OptionsOf<typeof update>): Promise<void> {
  const id = validateId(args[0] ?? '', 'plan id', '<id>');
  const changes = planBodyFromFlags(options);
  if (Object.keys(changes).length === 0) throw new UsageError('nothing to change: give at least one flag, e.g. --amount or --description');
  await ctx.service.requireApiKey();
  if (ctx.globals.dryRun) {
    ctx.log.status('dry run: the real PUT carries the whole plan, its other fields read from the service first');
    return ctx.service.printDryRun('plans.update', { params: { id }, body: changes });
  }
  await ctx.service.noteSandbox();
  const api = await ctx.api();
  const current = await api.call('plans.get', { params: { id } });
  const body = wholePlan(current, changes);
  // A field not being changed comes from the service: if the PUT would carry it in a shape the
  // service refuses, say so, rather than blame a flag that was never given.
  const { checkRequestBody } = await import('../../provider/schemas/requests.js');
  const problem = checkRequestBody('plans.update', body);
  if (problem && !(problem.field in changes)) {
    throw new UsageError(`plan ${id} as the service holds it has a ${problem.field} that its own update refuses (${problem.message}); give ${problem.flag} to replace it`);
  }
  await ctx.out.show(await api.call('plans.update', { params: { id }, body }), PLAN_VIEW, { tableRow: planRow });
  ctx.log.status(`Updated plan ${id}`);
}
