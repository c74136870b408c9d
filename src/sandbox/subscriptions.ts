import { findCard } from './card-ops.js';
import { findCustomer } from './buyer-ops.js';
import { found, invalidStatus, SandboxError, throwProblems, type Problem } from './errors.js';
import { requireSeller } from './sellers.js';
import type { Change, Creation } from './route.js';
import { newId } from './ids.js';
import { listFiltered, type ListEnvelope } from './list.js';
import { findPlan, planCanceled, requireAcceptedMethod } from './plans.js';
import { dueDateAt, firstStepOnOrAfter } from './schedule.js';
import { dayOrInstantAt } from '../validate/date.js';
import { calendarDate, isoTimestamp } from './time.js';
import type { Buyer, Plan, RecurrencePaymentMethod, SandboxState, StoredSubscription, Subscription, SubscriptionStatus } from './types.js';
import { mergeMetadata, newMetadata } from './validate.js';
import type { RequestBody } from '../provider/schemas/requests.js';

// Subscriptions: a buyer billed on a plan's calendar, charged to a card or (payment_method boleto)
// sent a boleto for each invoice. This module creates, changes and lists them and moves them
// between statuses; billing them is billing.ts, and running what fell due is catch-up.ts. As
// elsewhere, bodies are checked before the state is locked, and what depends on the state (plan,
// buyer, card, seller) under the lock before anything changes.

type SubscriptionBody = RequestBody<'subscriptions.update'>;

/** The body has met the request schema (request-schemas.ts): what it sets, dates as calendar dates. */
function patchOf(body: SubscriptionBody): SubscriptionBody & { expiration_date?: string | null } {
  const { expiration_date: expiration, ...patch } = body;
  if (expiration === undefined) return patch;
  return { ...patch, expiration_date: expiration === null ? null : calendarDate(dayOrInstantAt(expiration) as Date) };
}

/**
 * What the schema cannot know: a due date not before the sandbox's today, and an expiration date
 * after the first date the subscription would bill (the one it will have once changed, on update).
 */
function dateProblems(due: string | undefined, expiration: string | null | undefined, today?: string): Problem[] {
  const problems: Problem[] = [];
  if (today !== undefined && due !== undefined && due < today) problems.push({ field: 'due_date', message: `must not be before today (${today})` });
  if (due !== undefined && expiration && expiration <= due) problems.push({ field: 'expiration_date', message: `must be after the due date (${due})` });
  return problems;
}

function requireActivePlan(state: SandboxState, uuid: string): Plan {
  const plan = findPlan(state, uuid);
  if (plan.status !== 'active') throw planCanceled(plan, 'takes no new subscriptions');
  return plan;
}

/** The card a card subscription charges: the one given, else the buyer's default; it must be theirs. */
function cardToCharge(state: SandboxState, given: string | null | undefined, customer: Buyer): string {
  const cardId = given ?? customer.default_credit;
  if (!cardId) {
    throw new SandboxError(400, 'invalid_parameter', `The customer (id: ${customer.id}) has no card on file; give card or associate one.`, {
      reasons: ['card: is required (the customer has no default card)'],
    });
  }
  if (findCard(state, cardId).customer !== customer.id) {
    const message = `The card (id: ${cardId}) does not belong to the customer (id: ${customer.id}); associate it with the customer first.`;
    throw new SandboxError(400, 'card_not_owned', message);
  }
  return cardId;
}

export function findSubscription(state: SandboxState, uuid: string): StoredSubscription {
  return found(state.subscriptions.get(uuid), 'subscription', uuid);
}

/** Seed 4.3's body plus on_behalf_of. `now` is the sandbox's time, for "not before today". */
export function planCreateSubscription(body: RequestBody<'subscriptions.create'>, now: Date): Creation<Subscription> {
  const patch = patchOf(body);
  const { plan: planId, customer: customerId, on_behalf_of: onBehalfOf, due_date: due, currency } = body;
  const problems = dateProblems(due, patch.expiration_date, calendarDate(now));
  throwProblems(problems);
  const expiration = patch.expiration_date ?? null;
  const method = patch.payment_method ?? 'credit';

  return (state, at) => {
    const plan = requireActivePlan(state, planId);
    requireAcceptedMethod(plan, method);
    const customer = findCustomer(state, customerId);
    // A card subscription left without card charges the buyer's default card; a boleto one has none.
    const cardId = method === 'credit' ? cardToCharge(state, patch.card, customer) : null;
    requireSeller(state, onBehalfOf);
    const stamp = isoTimestamp(at);
    const uuid = newId(state);
    const sub: Subscription = {
      uuid,
      resource: 'subscription',
      plan: plan.uuid,
      on_behalf_of: onBehalfOf,
      customer: customer.id,
      // Left out, what the plan says it is, as the invoices will.
      description: patch.description ?? plan.description ?? plan.name,
      payment_method: method,
      due_date: due,
      // Not billed yet: the cycle it is in starts on its first due date.
      due_since_date: due,
      expiration_date: expiration,
      amount: patch.amount ?? plan.amount,
      currency: currency?.toUpperCase() ?? plan.currency,
      status: 'active',
      suspended_at: null,
      card: cardId,
      uri: `/v1/marketplaces/${state.marketplace_id}/recurrence_subscriptions/${uuid}`,
      metadata: newMetadata(patch.metadata),
      created_at: stamp,
      updated_at: stamp,
    };
    state.subscriptions.put(uuid, { anchor: due, step: 0, billed: [], sub });
    return sub;
  };
}

/** Canceled or expired: it bills no more and can no longer be changed. */
function ended(sub: Subscription): boolean {
  return sub.status === 'canceled' || sub.status === 'expired';
}

function invalidSubscriptionStatus(sub: Subscription, action: string, allowed: string): SandboxError {
  return invalidStatus('subscription', sub.uuid, sub.status, action, allowed);
}

export function planUpdateSubscription(body: SubscriptionBody, now: Date): Change<StoredSubscription> {
  // Only the fields an update may change, as request-schemas.ts has seen to.
  const patch = patchOf(body);
  const early = dateProblems(patch.due_date, undefined, calendarDate(now));
  throwProblems(early);

  return (stored, state, at) => {
    const { sub } = stored;
    if (ended(sub)) throw invalidSubscriptionStatus(sub, 'updated', 'active or suspended');
    // Checked against what the subscription will be once changed, so only under the lock.
    const problems = dateProblems(patch.due_date ?? sub.due_date, patch.expiration_date === undefined ? sub.expiration_date : patch.expiration_date);
    if (patch.due_date !== undefined && stored.billed.includes(patch.due_date)) {
      problems.push({ field: 'due_date', message: `${patch.due_date} was already billed; give a later date` });
    }
    throwProblems(problems);
    const plan = patch.plan !== undefined && patch.plan !== sub.plan ? requireActivePlan(state, patch.plan) : findPlan(state, sub.plan);
    const method = patch.payment_method ?? sub.payment_method;
    // A new plan or a new method must suit each other; a subscription left as it was keeps its method.
    if (patch.plan !== undefined || patch.payment_method !== undefined) requireAcceptedMethod(plan, method);
    const card = paymentCard(state, sub, method, patch.card);

    const { metadata, card: _card, payment_method: _method, ...fields } = patch;
    Object.assign(sub, fields);
    sub.payment_method = method;
    sub.card = card;
    // Nothing billed yet: the cycle it is in still starts on its (new) first due date.
    if (patch.due_date !== undefined && stored.billed.length === 0) sub.due_since_date = patch.due_date;
    mergeMetadata(sub.metadata, metadata);
    // A new due date or a new plan starts a new calendar from the next due date.
    if (patch.due_date !== undefined || patch.plan !== undefined) {
      stored.anchor = sub.due_date;
      stored.step = 0;
    }
    sub.updated_at = isoTimestamp(at);
  };
}

/**
 * The card a subscription will have once changed: none when paid by boleto; for a card one, the
 * card sent, else the one it had, else (coming from boleto) the buyer's default card.
 */
function paymentCard(state: SandboxState, sub: Subscription, method: RecurrencePaymentMethod, sent: string | null | undefined): string | null {
  if (method === 'boleto') {
    if (typeof sent === 'string') {
      throw new SandboxError(400, 'invalid_parameter', `The subscription (id: ${sub.uuid}) is paid by boleto and has no card; send payment_method credit with the card.`, {
        reasons: ['card: a boleto subscription has no card (send payment_method credit with it)'],
      });
    }
    return null;
  }
  if (sent == null && sub.card !== null) return sub.card;
  return cardToCharge(state, sent, findCustomer(state, sub.customer));
}

export const suspend: Change<StoredSubscription> = (stored, _state, now) => {
  const { sub } = stored;
  if (sub.status !== 'active') throw invalidSubscriptionStatus(sub, 'suspended', 'active');
  sub.status = 'suspended';
  sub.suspended_at = isoTimestamp(now);
  sub.updated_at = sub.suspended_at;
};

/**
 * Back to active on the plan's calendar: the next due date is the first one not before today, so
 * the due dates that passed while suspended are skipped for good, never billed late.
 */
export const reactivate: Change<StoredSubscription> = (stored, state, now) => {
  const { sub } = stored;
  if (sub.status !== 'suspended') throw invalidSubscriptionStatus(sub, 'reactivated', 'suspended');
  const plan = findPlan(state, sub.plan);
  stored.step = firstStepOnOrAfter(stored.anchor, plan, stored.step, calendarDate(now));
  sub.due_date = dueDateAt(stored.anchor, plan, stored.step);
  sub.status = 'active';
  sub.suspended_at = null;
  sub.updated_at = isoTimestamp(now);
};

export const cancel: Change<StoredSubscription> = (stored, _state, now) => {
  const { sub } = stored;
  if (ended(sub)) throw invalidSubscriptionStatus(sub, 'removed', 'active or suspended');
  sub.status = 'canceled';
  sub.updated_at = isoTimestamp(now);
};

/** A plan's new calendar applies to its running subscriptions from their next due date on. */
export function reanchorSubscriptions(state: SandboxState, plan: Plan): void {
  for (const stored of state.subscriptions.all()) {
    if (stored.sub.plan !== plan.uuid || ended(stored.sub)) continue;
    stored.anchor = stored.sub.due_date;
    stored.step = 0;
  }
}

const SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = ['active', 'suspended', 'canceled', 'expired'];

/**
 * Every subscription, or (`seller`) only that seller's: sellers/{id}/subscriptions. Besides the
 * provider's date_range on creation, `due_date[gte]`… bound the next due date as written.
 */
export function listSubscriptions(state: SandboxState, params: URLSearchParams, uri: string, seller?: string): ListEnvelope<Subscription> {
  const subscriptions = state.subscriptions.all().map((s) => s.sub).filter((sub) => seller === undefined || sub.on_behalf_of === seller);
  return listFiltered(uri, subscriptions, params, ['customer', 'plan', 'status'], { status: SUBSCRIPTION_STATUSES }, 'due_date');
}
