import type { Operation } from '../../provider/endpoints.js';
import type { Factory } from '../../factory.js';
import { formatMoney } from '../../output/format.js';
import { centsToDecimalString } from '../../validate/index.js';
import { getSubscription, subscriptionId, subscriptionRow, type Subscription } from './shared.js';
import { SUBSCRIPTION_VIEW } from './view.js';
import type { ArgsOf } from '../verb.js';
import type { reactivate, remove, suspend } from './flags.js';

interface Step {
  operation: Operation;
  /** The question, when the step needs one (suspend, remove); reactivation is not asked. */
  question?: (s: Subscription) => string;
  action: string;
  done: string;
}

function describe(s: Subscription): string {
  const amount = typeof s.amount === 'number' ? formatMoney(centsToDecimalString(s.amount), s.currency) : '';
  return [s.customer && `customer ${s.customer}`, amount && `${amount} per cycle`].filter(Boolean).join(', ');
}

async function step(ctx: Factory, args: string[], how: Step): Promise<void> {
  const id = subscriptionId(args);
  await ctx.requireApiKey();
  if (ctx.globals.dryRun) return ctx.printDryRun(how.operation, { params: { id } });
  if (how.question) {
    const current = await getSubscription(ctx, id);
    await ctx.confirm(how.question(current), how.action);
  }
  await ctx.noteSandbox();
  const after = await (await ctx.api()).call<Subscription>(how.operation, { params: { id } });
  await ctx.out.show(after, SUBSCRIPTION_VIEW, { tableRow: subscriptionRow, short: true });
  // A removal may answer with nothing (204, or an empty object): then there is no status to report.
  ctx.log.status(`${how.done} subscription ${id}${after.status ? `; status ${after.status}` : ''}`);
}

export function runSuspend(ctx: Factory, args: ArgsOf<typeof suspend>): Promise<void> {
  return step(ctx, args, {
    operation: 'subscriptions.suspend',
    question: (s) => `Suspend subscription ${s.uuid} (${describe(s)})? No charges until it is reactivated.`,
    action: 'suspend a subscription',
    done: 'Suspended',
  });
}

export function runRemove(ctx: Factory, args: ArgsOf<typeof remove>): Promise<void> {
  return step(ctx, args, {
    operation: 'subscriptions.remove',
    question: (s) => `Cancel subscription ${s.uuid} (${describe(s)})? This cannot be undone.`,
    action: 'remove a subscription',
    done: 'Canceled',
  });
}

export function runReactivate(ctx: Factory, args: ArgsOf<typeof reactivate>): Promise<void> {
  return step(ctx, args, { operation: 'subscriptions.reactivate', action: 'reactivate a subscription', done: 'Reactivated' });
}
