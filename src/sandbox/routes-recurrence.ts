import { catchUp } from './catch-up.js';
import { advanceClock, clockView, parseAdvance } from './clock.js';
import { approveInvoice, removeInvoice, voidInvoice } from './invoice-charge.js';
import { findInvoice, listInvoices, planCreateInvoice } from './invoices.js';
import { findPlan, listPlans, planCreatePlan, planUpdatePlan, removePlan } from './plans.js';
import type { RequestContext, Route } from './route.js';
import { mutateState, readState } from './store.js';
import {
  cancel,
  findSubscription,
  listSubscriptions,
  planCreateSubscription,
  planUpdateSubscription,
  reactivate,
  reanchorSubscriptions,
  suspend,
  type SubscriptionChange,
} from './subscriptions.js';
import type { Invoice, SandboxState } from './types.js';
import { generateVolume, parseVolume } from './volume.js';

// Routes of recurrence: plans, subscriptions, invoices, and the sandbox-only clock that drives
// their billing (and the sandbox-only volume generator, which trades forward on that clock). The plan collection answers with and without the provider's trailing slash
// (the server drops empty path segments).

const id = (c: RequestContext): string => c.params.id ?? '';

async function changeSubscription(c: RequestContext, change: SubscriptionChange) {
  const body = await mutateState(c.stateDir, c.now, (state) => {
    const stored = findSubscription(state, id(c));
    change(stored, state, c.now());
    return stored.sub;
  });
  return { status: 200, body };
}

async function changeInvoice(c: RequestContext, change: (state: SandboxState, invoice: Invoice, now: Date) => Invoice) {
  const body = await mutateState(c.stateDir, c.now, (state) => change(state, findInvoice(state, id(c)), c.now()));
  return { status: 200, body };
}

export const recurrenceRoutes: Route[] = [
  {
    pattern: ['recurrence_plans'],
    handlers: {
      GET: async (c) => ({ status: 200, body: listPlans(await readState(c.stateDir, c.now), c.query, c.path) }),
      POST: async (c) => {
        const plan = planCreatePlan(c.body);
        return { status: 201, body: await mutateState(c.stateDir, c.now, (state) => plan(state, c.now())) };
      },
    },
  },
  {
    pattern: ['recurrence_plans', ':id'],
    handlers: {
      GET: async (c) => ({ status: 200, body: findPlan(await readState(c.stateDir, c.now), id(c)) }),
      PUT: async (c) => {
        const change = planUpdatePlan(c.body, reanchorSubscriptions);
        const body = await mutateState(c.stateDir, c.now, (state) => {
          const plan = findPlan(state, id(c));
          change(plan, state, c.now());
          return plan;
        });
        return { status: 200, body };
      },
      DELETE: async (c) => ({ status: 200, body: await mutateState(c.stateDir, c.now, (state) => removePlan(findPlan(state, id(c)), c.now())) }),
    },
  },
  {
    pattern: ['recurrence_subscriptions'],
    handlers: {
      GET: async (c) => ({ status: 200, body: listSubscriptions(await readState(c.stateDir, c.now), c.query, c.path) }),
      POST: async (c) => {
        const plan = planCreateSubscription(c.body, c.now());
        return { status: 201, body: await mutateState(c.stateDir, c.now, (state) => plan(state, c.now())) };
      },
    },
  },
  {
    pattern: ['recurrence_subscriptions', ':id'],
    handlers: {
      GET: async (c) => ({ status: 200, body: findSubscription(await readState(c.stateDir, c.now), id(c)).sub }),
      PUT: async (c) => changeSubscription(c, planUpdateSubscription(c.body, c.now())),
      DELETE: async (c) => changeSubscription(c, cancel),
    },
  },
  { pattern: ['recurrence_subscriptions', ':id', 'suspend'], handlers: { POST: async (c) => changeSubscription(c, suspend) } },
  { pattern: ['recurrence_subscriptions', ':id', 'reactivate'], handlers: { POST: async (c) => changeSubscription(c, reactivate) } },
  {
    pattern: ['invoices'],
    handlers: {
      GET: async (c) => ({ status: 200, body: listInvoices(await readState(c.stateDir, c.now), c.query, c.path) }),
      POST: async (c) => {
        const plan = planCreateInvoice(c.body, c.now());
        return { status: 201, body: await mutateState(c.stateDir, c.now, (state) => plan(state, c.now())) };
      },
    },
  },
  {
    pattern: ['invoices', ':id'],
    handlers: {
      GET: async (c) => ({ status: 200, body: findInvoice(await readState(c.stateDir, c.now), id(c)) }),
      DELETE: async (c) => changeInvoice(c, removeInvoice),
    },
  },
  { pattern: ['invoices', ':id', 'approve'], handlers: { POST: async (c) => changeInvoice(c, approveInvoice) } },
  { pattern: ['invoices', ':id', 'void'], handlers: { DELETE: async (c) => changeInvoice(c, voidInvoice) } },
  {
    pattern: ['sandbox', 'clock'],
    handlers: {
      GET: async (c) => {
        const state = await readState(c.stateDir, c.now);
        return { status: 200, body: clockView(state, c.now()) };
      },
    },
  },
  {
    pattern: ['sandbox', 'generate'],
    // It runs what falls due as it trades; nothing is due before it starts that catch-up would not run.
    ownsCatchUp: true,
    handlers: {
      POST: async (c) => {
        const spec = parseVolume(c.body);
        const body = await generateVolume(c.stateDir, spec, c.now);
        return { status: 200, body };
      },
    },
  },
  {
    pattern: ['sandbox', 'clock', 'advance'],
    // Its own catch-up runs everything due up to the new time, so its answer lists all of it.
    ownsCatchUp: true,
    handlers: {
      POST: async (c) => {
        const days = parseAdvance(c.body);
        const body = await mutateState(c.stateDir, c.now, (state) => {
          // The catch-up runs in date order, so whatever was already due at the old time comes first.
          advanceClock(state, c.now, days);
          const report = catchUp(state, c.now());
          return { ...clockView(state, c.now()), ...report };
        });
        return { status: 200, body };
      },
    },
  },
];
