import { catchUp } from './catch-up.js';
import { advanceClock, clockView, parseAdvance } from './clock.js';
import { approveInvoice, removeInvoice, voidInvoice } from './invoice-charge.js';
import { findInvoice, listInvoices, planCreateInvoice } from './invoices.js';
import { findPlan, listPlans, planCreatePlan, planUpdatePlan, removePlan } from './plans.js';
import { changing, changingOne, creating, flagged, idOf, planned, reading } from './handlers.js';
import type { Change, RequestContext, RouteTable } from './route.js';
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
// plan collection answers with and without the provider's trailing slash (the matcher drops empty
// path segments).

/** A change of one subscription; answers it. */
const changeSubscription = <B>(change: (c: RequestContext<B>) => Change<StoredSubscription>) => changingOne(findSubscription, change, (stored) => stored.sub);

/** A change of one invoice; answers what `change` returns. */
const changeInvoice = (change: (state: SandboxState, invoice: Invoice, now: Date) => Invoice) => changing((state, c) => change(state, findInvoice(state, idOf(c)), c.now()));

export const recurrenceRoutes = {
  'plans.list': reading((state, c) => listPlans(state, c.query, c.path)),
  'plans.create': creating(planCreatePlan),
  'plans.get': reading((state, c) => findPlan(state, idOf(c))),
  'plans.update': changingOne(findPlan, (c) => planUpdatePlan(c.body, reanchorSubscriptions)),
  'plans.remove': changing((state, c) => removePlan(findPlan(state, idOf(c)), c.now())),
  'subscriptions.list': reading((state, c) => listSubscriptions(state, c.query, c.path)),
  'subscriptions.create': creating(planCreateSubscription),
  'subscriptions.get': reading((state, c) => findSubscription(state, idOf(c)).sub),
  'subscriptions.update': changeSubscription((c) => planUpdateSubscription(c.body, c.now())),
  'subscriptions.remove': changeSubscription(() => cancel),
  'subscriptions.suspend': changeSubscription(() => suspend),
  'subscriptions.reactivate': changeSubscription(() => reactivate),
  'invoices.list': reading((state, c) => listInvoices(state, c.query, c.path)),
  'invoices.create': creating(planCreateInvoice),
  'invoices.get': reading((state, c) => findInvoice(state, idOf(c))),
  'invoices.remove': changeInvoice(removeInvoice),
  'invoices.approve': changeInvoice(approveInvoice),
  'invoices.refund': changeInvoice(voidInvoice),
  'sandbox.clock': reading((state, c) => clockView(state, c.now())),
  // It runs what falls due as it trades; nothing is due before it starts that catch-up would not run.
  'sandbox.generate': flagged({ ownsCatchUp: true }, async (c) => ({ status: 200, body: await generateVolume(c.stateDir, parseVolume(c.body), c.now) })),
  // Its own catch-up runs everything due up to the new time, so its answer lists all of it.
  'sandbox.advance': flagged(
    { ownsCatchUp: true },
    planned(
      (c) => parseAdvance(c.body),
      (days, state, c) => {
        // The catch-up runs in date order, so whatever was already due at the old time comes first.
        advanceClock(state, c.now, days);
        const report = catchUp(state, c.now());
        return { ...clockView(state, c.now()), ...report };
      },
    ),
  ),
} satisfies RouteTable;
