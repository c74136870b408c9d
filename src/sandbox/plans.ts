import { notFound, SandboxError } from './errors.js';
import type { JsonObject } from './http.js';
import { newId } from './ids.js';
import { listByCreation, parseListQuery, type ListEnvelope } from './list.js';
import { parseCents } from './money.js';
import { isoTimestamp } from './time.js';
import type { Plan, PlanFrequency, RecurrencePaymentMethod, SandboxState } from './types.js';
import { Checker } from './validate.js';

// Recurrence plans: what a subscription charges and on which calendar. A removed plan is kept,
// canceled, because its subscriptions still point at it and keep billing on its calendar; it only
// stops taking new subscriptions.

const FREQUENCIES: readonly PlanFrequency[] = ['daily', 'weekly', 'monthly', 'annually'];
/**
 * Credit cards, and boletos issued for each invoice. The provider's published file lists only
 * credit; its service description names boleto recurrence, and the sandbox takes both.
 */
export const PAYMENT_METHODS: readonly RecurrencePaymentMethod[] = ['credit', 'boleto'];

type PlanPatch = Partial<Omit<Plan, 'uuid' | 'resource' | 'status' | 'uri' | 'created_at' | 'updated_at' | 'metadata'>> & {
  metadata?: Record<string, string | null>;
};

function integerAtLeast(value: unknown, field: string, min: number, nullable: boolean, check: Checker): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === null && nullable) return null;
  const n = parseCents(value);
  if (n === undefined || n < min) {
    check.add(field, `must be a whole number of at least ${min}${nullable ? ' (or null for none)' : ''}`);
    return undefined;
  }
  return n;
}

/** The body has met the request schema, and holds only a plan's fields (request-schemas.ts). */
function parsePatch(body: JsonObject, check: Checker): PlanPatch {
  const patch: PlanPatch = {};
  if (body.name !== undefined) {
    const name = check.optionalString(body.name, 'name', 200);
    if (name === null || name?.trim() === '') check.add('name', 'must not be empty');
    else if (name) patch.name = name.trim();
  }
  const description = check.optionalString(body.description, 'description', 500);
  if (description !== undefined) patch.description = description;
  if (body.amount !== undefined) {
    const amount = check.positiveCents(body.amount, 'amount');
    if (amount !== undefined) patch.amount = amount;
  }
  const setup = integerAtLeast(body.setup_amount, 'setup_amount', 0, false, check);
  if (typeof setup === 'number') patch.setup_amount = setup;
  if (body.currency !== undefined) {
    const currency = check.currency(body.currency, 'currency');
    if (currency) patch.currency = currency;
  }
  if (body.frequency !== undefined) {
    if (typeof body.frequency === 'string' && (FREQUENCIES as readonly string[]).includes(body.frequency)) {
      patch.frequency = body.frequency as PlanFrequency;
    } else check.add('frequency', `must be one of ${FREQUENCIES.join(', ')}`);
  }
  const interval = integerAtLeast(body.interval, 'interval', 1, false, check);
  if (typeof interval === 'number') patch.interval = interval;
  if (body.payment_methods !== undefined) {
    const methods = body.payment_methods;
    if (!Array.isArray(methods) || methods.length === 0 || !methods.every((m) => typeof m === 'string')) {
      check.add('payment_methods', 'must be a non-empty array such as ["credit"]');
    } else if (methods.some((m) => !(PAYMENT_METHODS as readonly string[]).includes(m as string))) {
      check.add('payment_methods', `only ${PAYMENT_METHODS.join(' and ')} are supported`);
    } else patch.payment_methods = [...new Set(methods as string[])];
  }
  for (const [key, min] of [
    ['duration', 1],
    ['grace_period', 0],
    ['tolerance_period', 0],
  ] as const) {
    const value = integerAtLeast(body[key], key, min, true, check);
    if (value !== undefined) patch[key] = value;
  }
  const metadata = check.metadata(body.metadata, 'metadata');
  if (metadata) patch.metadata = metadata;
  return patch;
}

function applyPatch(plan: Plan, patch: PlanPatch): void {
  const { metadata, ...fields } = patch;
  Object.assign(plan, fields);
  if (metadata) {
    // Merge like the provider: keys not sent are kept; a key sent as null is removed.
    for (const [key, value] of Object.entries(metadata)) {
      if (value === null) delete plan.metadata[key];
      else plan.metadata[key] = value;
    }
  }
}

export function findPlan(state: SandboxState, uuid: string): Plan {
  const plan = state.plans.get(uuid);
  if (!plan) throw notFound('plan', uuid);
  return plan;
}

/** Refused when the plan does not list the method. */
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

export type PlanCreation = (state: SandboxState, now: Date) => Plan;

export function planCreatePlan(body: JsonObject): PlanCreation {
  const check = new Checker();
  const patch = parsePatch(body, check);
  for (const key of ['name', 'frequency', 'interval', 'payment_methods', 'currency', 'amount'] as const) {
    if (body[key] === undefined || body[key] === null) check.add(key, 'is required');
  }
  check.throwIfAny();

  return (state, now) => {
    const at = isoTimestamp(now);
    const uuid = newId();
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

export type PlanChange = (plan: Plan, state: SandboxState, now: Date) => void;

/** What the provider's PUT requires: it replaces the plan, so a client must send these every time. */
const REQUIRED_ON_UPDATE = ['name', 'frequency', 'interval', 'payment_methods', 'currency'] as const;

/**
 * The provider's PUT: the plan's fields as sent, the five of REQUIRED_ON_UPDATE always; a field
 * left out keeps its value. A change of calendar applies to the plan's subscriptions from their
 * next due date.
 */
export function planUpdatePlan(body: JsonObject, reanchor: (state: SandboxState, plan: Plan) => void): PlanChange {
  const check = new Checker();
  const patch = parsePatch(body, check);
  for (const key of REQUIRED_ON_UPDATE) {
    if (body[key] === undefined || body[key] === null) check.add(key, 'is required: the update replaces the plan, so send it whole');
  }
  check.throwIfAny();

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
  const query = parseListQuery(params, ['status'], { status: ['active', 'canceled'] });
  const statuses = query.filters.get('status');
  return listByCreation(
    uri,
    state.plans.all().filter((p) => !statuses || statuses.has(p.status)),
    query,
  );
}
