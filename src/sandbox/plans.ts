import { found, SandboxError } from './errors.js';
import type { Change, Creation } from './route.js';
import { newId } from './ids.js';
import { listFiltered, type ListEnvelope } from './list.js';
import { isoTimestamp } from './time.js';
import type { Plan, RecurrencePaymentMethod, SandboxState } from './types.js';
import type { RequestBody } from '../provider/schemas/requests.js';
import { mergeMetadata } from './validate.js';

// Recurrence plans: what a subscription charges and on which calendar. A removed plan is kept,
// canceled, because its subscriptions still point at it and keep billing on its calendar; it only
// stops taking new subscriptions.

type PlanBody = RequestBody<'plans.update'>;
type PlanPatch = Partial<Omit<Plan, 'uuid' | 'resource' | 'status' | 'uri' | 'created_at' | 'updated_at' | 'metadata'>> & {
  metadata?: Record<string, string | null>;
};

/** The body has met the request schema, and holds only a plan's fields (request-schemas.ts). */
function patchOf(body: PlanBody): PlanPatch {
  const { name, currency, payment_methods: methods, ...fields } = body;
  const patch: PlanPatch = Object.fromEntries(Object.entries(fields).filter((e) => e[1] !== undefined));
  if (name !== undefined) patch.name = name.trim();
  if (currency !== undefined) patch.currency = currency.toUpperCase();
  if (methods !== undefined) patch.payment_methods = [...new Set(methods)];
  return patch;
}

function applyPatch(plan: Plan, patch: PlanPatch): void {
  const { metadata, ...fields } = patch;
  Object.assign(plan, fields);
  mergeMetadata(plan.metadata, metadata);
}

export function findPlan(state: SandboxState, uuid: string): Plan {
  return found(state.plans.get(uuid), 'plan', uuid);
}

export function requireAcceptedMethod(plan: Plan, method: RecurrencePaymentMethod): void {
  const accepted = plan.payment_methods;
  if (accepted.includes(method)) return;
  throw new SandboxError(400, 'payment_method_not_accepted', `The plan (id: ${plan.uuid}) does not accept payment_method ${method}; it accepts ${accepted.join(', ')}.`, {
    reasons: [`payment_method: must be one of the plan's payment_methods (${accepted.join(', ')})`],
  });
}

export function planCanceled(plan: Plan, what: string): SandboxError {
  return new SandboxError(400, 'plan_canceled', `The plan (id: ${plan.uuid}) is canceled and ${what}.`);
}

export function planCreatePlan(body: RequestBody<'plans.create'>): Creation<Plan> {
  const patch = patchOf(body);

  return (state, now) => {
    const at = isoTimestamp(now);
    const uuid = newId(state);
    const plan: Plan = {
      uuid,
      resource: 'plan',
      name: '',
      description: null,
      amount: 0,
      setup_amount: 0,
      currency: '',
      frequency: 'monthly',
      interval: 1,
      payment_methods: [],
      duration: null,
      grace_period: null,
      tolerance_period: null,
      status: 'active',
      uri: `/v1/marketplaces/${state.marketplace_id}/recurrence_plans/${uuid}`,
      metadata: {},
      created_at: at,
      updated_at: at,
    };
    applyPatch(plan, patch);
    state.plans.put(uuid, plan);
    return plan;
  };
}

/**
 * The provider's PUT: the plan's fields as sent, name, frequency, interval, payment_methods and
 * currency always (the request schema requires them); a field left out keeps its value. A change
 * of calendar applies to the plan's subscriptions from their next due date.
 */
export function planUpdatePlan(body: PlanBody, reanchor: (state: SandboxState, plan: Plan) => void): Change<Plan> {
  const patch = patchOf(body);

  return (plan, state, now) => {
    if (plan.status === 'canceled') throw planCanceled(plan, 'cannot be changed');
    const calendarChanged =
      (patch.frequency !== undefined && patch.frequency !== plan.frequency) || (patch.interval !== undefined && patch.interval !== plan.interval);
    applyPatch(plan, patch);
    plan.updated_at = isoTimestamp(now);
    if (calendarChanged) reanchor(state, plan);
  };
}

export function removePlan(plan: Plan, now: Date): Plan {
  if (plan.status === 'canceled') throw planCanceled(plan, 'was already removed');
  plan.status = 'canceled';
  plan.updated_at = isoTimestamp(now);
  return plan;
}

export function listPlans(state: SandboxState, params: URLSearchParams, uri: string): ListEnvelope<Plan> {
  return listFiltered(uri, state.plans.all(), params, ['status'], { status: ['active', 'canceled'] });
}
