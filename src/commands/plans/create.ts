import type { Factory } from '../../factory.js';
import { validateCurrency } from '../../validate/index.js';
import { missingInput } from '../shared/input.js';
import { planBodyFromFlags, planRow } from './shared.js';
import { PLAN_VIEW } from './view.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { create } from './flags.js';

export async function run(ctx: Factory, _args: ArgsOf<typeof create>, options: OptionsOf<typeof create>): Promise<void> {
  const body = planBodyFromFlags(options);
  const missing = [body.name === undefined && '--name', body.amount === undefined && '--amount (or --amount-cents)', body.frequency === undefined && '--frequency'].filter(
    (f): f is string => Boolean(f),
  );
  if (missing.length > 0) throw missingInput(ctx, missing);
  await ctx.service.requireApiKey();
  const profile = await ctx.config.profile();
  body.currency ??= validateCurrency(profile.currency, '--currency');
  body.interval ??= 1;
  body.payment_methods ??= ['credit'];
  if (ctx.globals.dryRun) return ctx.service.printDryRun('plans.create', { body });
  await ctx.service.noteSandbox();
  const plan = await (await ctx.api()).call('plans.create', { body });
  await ctx.out.show(plan, PLAN_VIEW, { tableRow: planRow });
  ctx.log.status(`Created plan ${plan.uuid ?? ''} (${plan.name ?? body.name})`);
}
