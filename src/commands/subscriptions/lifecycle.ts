import type { Operation } from '../../provider/endpoints.js';
import type { Factory } from '../../factory.js';
import { formatMoney } from '../../output/format.js';
import { nameOrId } from '../../output/record-names.js';
import { centsToDecimalString } from '../../validate/index.js';
import { getSubscription, subscriptionId, subscriptionRow, type Subscription } from './shared.js';
import { SUBSCRIPTION_VIEW } from './view.js';
import { moneyMoveFlags, type MoneyMoveFlags } from '../shared/again.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
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

async function step(ctx: Factory, args: string[], how: Step, flags?: MoneyMoveFlags): Promise<void> {
  const id = subscriptionId(args);
  await ctx.service.requireApiKey();
  if (ctx.globals.dryRun) return ctx.service.printDryRun(how.operation, { params: { id } });
  if (flags) return cancelGuarded(ctx, id, how, flags);
  const question = how.question;
  if (question) {
    const current = await getSubscription(ctx, id);
    await ctx.prompts.confirm(async () => question(current, await describe(ctx, current)), how.action);
  }
  await ctx.service.noteSandbox();
  await done(ctx, id, how, await (await ctx.api()).call<Subscription>(how.operation, { params: { id } }));
}

async function done(ctx: Factory, id: string, how: Step, after: Subscription): Promise<void> {
  // An answer of a removal's own ({id, deleted}) is still titled by the subscription's id.
  await ctx.out.show(after, SUBSCRIPTION_VIEW, { tableRow: (answer) => subscriptionRow({ uuid: id, ...answer }), short: true });
  // A removal may answer with nothing (204, or an empty object): then there is no status to report.
  ctx.log.status(`${how.done} subscription ${id}${after.status ? `; status ${after.status}` : ''}`);
}

/**
 * Canceling a subscription is one of the moves the team's rules are about (subscription-cancel):
 * it goes through the money guard, which judges it (a request for approval, a block) and keeps
 * its intent. Canceled once is canceled: a canceled subscription is said so, and nothing sent.
 */
async function cancelGuarded(ctx: Factory, id: string, how: Step, flags: MoneyMoveFlags): Promise<void> {
  const guard = await ctx.moneyGuard({ noWait: flags.noWait });
  const look = () => getSubscription(ctx, id);
  const { underApproval } = await import('../shared/approval.js');
  await underApproval(ctx, flags.waitForApproval, () =>
    guard.run<Subscription, Subscription>({
      what: { key: `subscription:${id}`, operation: how.operation, target: id, requestedCents: null, what: `the cancellation of subscription ${id}`, checkCommand: `payctl subscriptions get ${id}` },
      proof: {
        look,
        proves: (_intent, now) => (now.status === 'canceled' ? { kind: 'applied', proof: null } : { kind: 'not_seen' }),
        answered: () => ({ kind: 'applied', proof: null }),
        seen: (now) => now,
      },
      send: {
        async prepare() {
          const current = await look();
          if (current.status === 'canceled') {
            await done(ctx, id, { ...how, done: 'Already canceled:' }, current);
            return undefined;
          }
          // Who and what it bills, read only when someone reads it (the question, a request).
          const about = () => describe(ctx, current);
          const question = how.question as NonNullable<Step['question']>;
          await ctx.prompts.confirm(async () => question(current, await about()), how.action);
          await ctx.service.noteSandbox();
          const api = await ctx.api();
          const amount = typeof current.amount === 'number' ? current.amount : null;
          return {
            record: { amount_cents: amount, before: JSON.stringify({ status: current.status }) },
            asked: { body: null, amountCents: amount, currency: current.currency ?? (await ctx.config.profile()).currency, summary: async () => `Cancel subscription ${id} (${await about()})`, replay: ['subscriptions', 'remove', id] },
            request: () => api.call<Subscription>(how.operation, { params: { id } }),
          };
        },
      },
      report: { done: (after) => done(ctx, id, how, after) },
    }),
  async () => done(ctx, id, how, await look()));
}

export function runSuspend(ctx: Factory, args: ArgsOf<typeof suspend>): Promise<void> {
  return step(ctx, args, {
    operation: 'subscriptions.suspend',
    question: (s, about) => `Suspend subscription ${s.uuid} (${about})? No charges until it is reactivated.`,
    action: 'suspend a subscription',
    done: 'Suspended',
  });
}

export function runRemove(ctx: Factory, args: ArgsOf<typeof remove>, options: OptionsOf<typeof remove>): Promise<void> {
  return step(ctx, args, {
    operation: 'subscriptions.remove',
    question: (s, about) => `Cancel subscription ${s.uuid} (${about})? This cannot be undone.`,
    action: 'remove a subscription',
    done: 'Canceled',
  }, moneyMoveFlags(options));
}

export function runReactivate(ctx: Factory, args: ArgsOf<typeof reactivate>): Promise<void> {
  return step(ctx, args, { operation: 'subscriptions.reactivate', action: 'reactivate a subscription', done: 'Reactivated' });
}
