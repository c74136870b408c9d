import type { Factory } from '../../factory.js';
import { ValidationError } from '../../errors.js';
import { validateCurrency, validateId } from '../../validate/index.js';
import { defaultToday, SANDBOX_TODAY } from '../shared/dates.js';
import { missingInput, optionalString } from '../shared/input.js';
import { buyersDefaultCard, checkPlanAccepts, scheduleFromFlags, subscriptionRow, type PaymentMethod, type Subscription } from './shared.js';
import { SUBSCRIPTION_VIEW } from './view.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { create } from './flags.js';

/**
 * Seed 4.3's body plus on_behalf_of (and description, when given); amounts in cents.
 * expiration_date is left out when not given: the provider's file types it a string, and refuses
 * null. card is left out of a boleto subscription, which has none.
 */
export interface SubscriptionBody {
  plan: string;
  customer: string;
  payment_method: PaymentMethod;
  due_date: string;
  expiration_date?: string;
  amount: number | string;
  currency: string;
  card?: string;
  on_behalf_of: string;
  description?: string;
}

export async function run(ctx: Factory, _args: ArgsOf<typeof create>, options: OptionsOf<typeof create>): Promise<void> {
  const schedule = scheduleFromFlags(options);
  const customerFlag = optionalString(options.customer);
  const missing = [schedule.plan === undefined && '--plan', customerFlag === undefined && '--customer'].filter((f): f is string => Boolean(f));
  if (missing.length > 0) throw missingInput(ctx, missing);
  const customer = validateId(customerFlag as string, 'buyer id', '--customer');
  await ctx.service.requireApiKey();
  const profile = await ctx.config.profile();
  let seller = optionalString(options.onBehalfOf) ?? profile.sellerId;
  if (seller === undefined) {
    if (!ctx.prompts.interactive) throw missingInput(ctx, ['--on-behalf-of (or the profile seller_id, or PAYCTL_SELLER_ID)']);
    seller = await (await import('../shared/ask-missing.js')).askArgument(ctx, { noun: 'seller' }, '--on-behalf-of');
  }
  const currency = validateCurrency(optionalString(options.currency) ?? profile.currency, '--currency');
  const onBehalfOf = validateId(seller, 'seller id', '--on-behalf-of');
  const method = (schedule.payment_method as PaymentMethod | undefined) ?? 'credit';
  const body: SubscriptionBody = {
    plan: schedule.plan as string,
    customer,
    payment_method: method,
    // Not given: today as the service counts it (on a sandbox, the day of its clock).
    due_date: (schedule.due_date as string | undefined) ?? (await defaultToday(ctx)),
    amount: (schedule.amount as number | undefined) ?? "(the plan's amount)",
    currency,
    on_behalf_of: onBehalfOf,
  };
  if (method === 'credit') body.card = (schedule.card as string | undefined) ?? "(the buyer's default card)";
  const expiration = schedule.expiration_date as string | undefined;
  if (expiration !== undefined) body.expiration_date = expiration;
  const description = optionalString(options.description);
  if (description !== undefined) body.description = description;
  if (body.expiration_date !== undefined && body.due_date !== SANDBOX_TODAY && body.expiration_date <= body.due_date) {
    throw new ValidationError('--expiration-date', `${body.expiration_date} is not after the due date ${body.due_date}`);
  }
  // A dry run reads nothing: the defaults that need a lookup are shown as what they would be.
  if (ctx.globals.dryRun) return ctx.service.printDryRun('subscriptions.create', { body });
  const api = await ctx.api();
  // Read in any case: the plan must accept the payment method, checked before anything is sent.
  const plan = await api.call('plans.get', { params: { id: body.plan } });
  checkPlanAccepts(plan, body.plan, method);
  if (typeof body.amount !== 'number') body.amount = plan.amount ?? 0;
  if (method === 'credit' && schedule.card === undefined) body.card = await buyersDefaultCard(ctx, customer);
  await ctx.service.noteSandbox();
  const subscription = await api.call('subscriptions.create', { body });
  await ctx.out.show(subscription, SUBSCRIPTION_VIEW, { tableRow: subscriptionRow });
  ctx.log.status(`Created subscription ${subscription.uuid}; next due ${subscription.due_date ?? body.due_date}`);
}
