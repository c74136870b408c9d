import type { Operation } from '../../provider/endpoints.js';
import type { Factory } from '../../factory.js';
import { formatMoney } from '../../output/format.js';
import { nameOrId } from '../../output/record-names.js';
import { centsToDecimalString } from '../../validate/index.js';
import { getSubscription, subscriptionId, subscriptionRow, type Subscription } from './shared.js';
import { SUBSCRIPTION_VIEW } from './view.js';
import type { ArgsOf } from '../verb.js';
import type { reactivate, remove, suspend } from './flags.js';

interface Step {
  operation: Operation;
  /** The question, when the step needs one (suspend, remove), given who and what it bills; reactivation is not asked. */
  question?: (s: Subscription, about: string) => string;
  action: string;
  done: string;
}

/** "Maria Silva, R$ 29,90 per cycle": the buyer by name (by id when it cannot be read). */
async function describe(ctx: Factory, s: Subscription): Promise<string> {
  const amount = typeof s.amount === 'number' ? formatMoney(centsToDecimalString(s.amount), s.currency) : '';
  const buyer = s.customer ? await nameOrId(await ctx.api(), 'buyer', s.customer) : '';
  return [buyer, amount && `${amount} per cycle`].filter(Boolean).join(', ');
}

async function step(ctx: Factory, args: string[], how: Step): Promise<void> {
  const id = subscriptionId(args);
  await ctx.service.requireApiKey();
  if (ctx.globals.dryRun) return ctx.service.printDryRun(how.operation, { params: { id } });
  const question = how.question;
  if (question) {
    const current = await getSubscription(ctx, id);
    await ctx.prompts.confirm(async () => question(current, await describe(ctx, current)), how.action);
  }
  await ctx.service.noteSandbox();
  const after = await (await ctx.api()).call<Subscription>(how.operation, { params: { id } });
  // An answer of a removal's own ({id, deleted}) is still titled by the subscription's id.
  await ctx.out.show(after, SUBSCRIPTION_VIEW, { tableRow: (answer) => subscriptionRow({ uuid: id, ...answer }), short: true });
  // A removal may answer with nothing (204, or an empty object): then there is no status to report.
  ctx.log.status(`${how.done} subscription ${id}${after.status ? `; status ${after.status}` : ''}`);
}

export function runSuspend(ctx: Factory, args: ArgsOf<typeof suspend>): Promise<void> {
  return step(ctx, args, {
    operation: 'subscriptions.suspend',
    question: (s, about) => `Suspend subscription ${s.uuid} (${about})? No charges until it is reactivated.`,
    action: 'suspend a subscription',
    done: 'Suspended',
  });
}

export function runRemove(ctx: Factory, args: ArgsOf<typeof remove>): Promise<void> {
  return step(ctx, args, {
    operation: 'subscriptions.remove',
    question: (s, about) => `Cancel subscription ${s.uuid} (${about})? This cannot be undone.`,
    action: 'remove a subscription',
    done: 'Canceled',
  });
}

export function runReactivate(ctx: Factory, args: ArgsOf<typeof reactivate>): Promise<void> {
  return step(ctx, args, { operation: 'subscriptions.reactivate', action: 'reactivate a subscription', done: 'Reactivated' });
}
