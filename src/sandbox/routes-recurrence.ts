import { catchUp } from './catch-up.js';
import { advanceClock, clockView, parseAdvance } from './clock.js';
import { approveInvoice, removeInvoice, voidInvoice } from './invoice-charge.js';
import { findInvoice, listInvoices, planCreateInvoice } from './invoices.js';
import { findPlan, listPlans, planCreatePlan, planUpdatePlan, removePlan } from './plans.js';
import { changing, changingOne, creating, idOf, planned, reading } from './handlers.js';
import type { Change } from './route.js';
import type { RequestContext, Route } from './route.js';
import {
  cancel,
  findSubscription,
  listSubscriptions,
  planCreateSubscription,
  planUpdateSubscription,
  reactivate,
  reanchorSubscriptions,
  suspend,
} from './subscriptions.js';
import type { Invoice, SandboxState, StoredSubscription } from './types.js';
import { generateVolume, parseVolume } from './volume.js';

// Routes of recurrence: plans, subscriptions, invoices, and the sandbox-only clock that drives
// their billing (and the sandbox-only volume generator, which trades forward on that clock). The
// plan collection answers with and without the provider's trailing slash (the server drops empty
// path segments).

/** A change of one subscription; answers it. */
const changeSubscription = (change: (c: RequestContext) => Change<StoredSubscription>) => changingOne(findSubscription, change, (stored) => stored.sub);

/** A change of one invoice; answers what `change` returns. */
const changeInvoice = (change: (state: SandboxState, invoice: Invoice, now: Date) => Invoice) => changing((state, c) => change(state, findInvoice(state, idOf(c)), c.now()));

export const recurrenceRoutes: Route[] = [
  { pattern: ['recurrence_plans'], handlers: { GET: reading((state, c) => listPlans(state, c.query, c.path)), POST: creating(planCreatePlan) } },
  {
    pattern: ['recurrence_plans', ':id'],
    handlers: {
      GET: reading((state, c) => findPlan(state, idOf(c))),
      PUT: changingOne(findPlan, (c) => planUpdatePlan(c.body, reanchorSubscriptions)),
      DELETE: changing((state, c) => removePlan(findPlan(state, idOf(c)), c.now())),
    },
  },
  {
    pattern: ['recurrence_subscriptions'],
    handlers: { GET: reading((state, c) => listSubscriptions(state, c.query, c.path)), POST: creating(planCreateSubscription) },
  },
  {
    pattern: ['recurrence_subscriptions', ':id'],
    handlers: {
      GET: reading((state, c) => findSubscription(state, idOf(c)).sub),
      PUT: changeSubscription((c) => planUpdateSubscription(c.body, c.now())),
      DELETE: changeSubscription(() => cancel),
    },
  },
  { pattern: ['recurrence_subscriptions', ':id', 'suspend'], handlers: { POST: changeSubscription(() => suspend) } },
  { pattern: ['recurrence_subscriptions', ':id', 'reactivate'], handlers: { POST: changeSubscription(() => reactivate) } },
  { pattern: ['invoices'], handlers: { GET: reading((state, c) => listInvoices(state, c.query, c.path)), POST: creating(planCreateInvoice) } },
  {
    pattern: ['invoices', ':id'],
    handlers: { GET: reading((state, c) => findInvoice(state, idOf(c))), DELETE: changeInvoice(removeInvoice) },
  },
  { pattern: ['invoices', ':id', 'approve'], handlers: { POST: changeInvoice(approveInvoice) } },
  { pattern: ['invoices', ':id', 'void'], handlers: { DELETE: changeInvoice(voidInvoice) } },
  { pattern: ['sandbox', 'clock'], handlers: { GET: reading((state, c) => clockView(state, c.now())) } },
  {
    pattern: ['sandbox', 'generate'],
    // It runs what falls due as it trades; nothing is due before it starts that catch-up would not run.
    ownsCatchUp: true,
    handlers: { POST: async (c) => ({ status: 200, body: await generateVolume(c.stateDir, parseVolume(c.body), c.now) }) },
  },
  {
    pattern: ['sandbox', 'clock', 'advance'],
    // Its own catch-up runs everything due up to the new time, so its answer lists all of it.
    ownsCatchUp: true,
    handlers: {
      POST: planned(
        (c) => parseAdvance(c.body),
        (days, state, c) => {
          // The catch-up runs in date order, so whatever was already due at the old time comes first.
          advanceClock(state, c.now, days);
          const report = catchUp(state, c.now());
          return { ...clockView(state, c.now()), ...report };
        },
      ),
    },
  },
];
