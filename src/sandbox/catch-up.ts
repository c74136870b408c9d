import { billable, billDueDate } from './billing.js';
import { findAllIn } from './db/queries.js';
import { runPayouts } from './payouts.js';
import type { SandboxClock } from './clock.js';
import { dayAt, nextDay } from '../validate/date.js';
import { mutateState, readState } from './store.js';
import { calendarDate, isoTimestamp } from './time.js';
import type { Invoice, InvoiceStatus, Plan, SandboxState, StoredSubscription } from './types.js';

// Everything that happens to recurrence by the passing of time: subscriptions billed on their due
// dates, expired at their end, one-off invoices turning over-due. All of it runs here, in
// chronological order across every subscription and invoice, each event once, whether time
// passed for real or through POST /sandbox/clock/advance.

export interface Billed {
  invoice: string;
  subscription: string;
  due_date: string;
  status: InvoiceStatus;
}

export interface CatchUpReport {
  billed: Billed[];
  expired: string[];
  overdue: string[];
  /** Transfers made to pay out receivables. */
  transfers: string[];
  /** With a payout limit: stopped at it, with more due by now (catch up again, in a change of its own). */
  more?: boolean;
}

type Event =
  | { kind: 'bill' | 'expire'; day: string; stored: StoredSubscription; plan: Plan }
  | { kind: 'overdue'; day: string; invoice: Invoice }
  | { kind: 'payout'; day: string; at: string };

/**
 * The subscription's next event: billing its due date, or its end once the next due date is past
 * its expiration date or beyond its plan's duration. A suspended subscription is never billed but
 * still ends on its expiration date.
 */
function subscriptionEvent(stored: StoredSubscription, plan: Plan): Event | undefined {
  const { sub } = stored;
  if (sub.status === 'active') {
    if (billable(stored, plan)) return { kind: 'bill', day: sub.due_date, stored, plan };
    // It lives until the day after its expiration date or, when the duration ran out first, until
    // the due date it will not bill.
    const end = sub.expiration_date !== null && sub.expiration_date < sub.due_date ? nextDay(sub.expiration_date) : sub.due_date;
    return { kind: 'expire', day: end, stored, plan };
  }
  if (sub.status === 'suspended' && sub.expiration_date !== null) return { kind: 'expire', day: nextDay(sub.expiration_date), stored, plan };
  return undefined;
}

/**
 * When an event happened: the start of its day, but never before the last change to what it
 * happens to (a subscription reactivated at noon is not billed at midnight) nor after now. A
 * payout happens at its payout hour (payouts.ts), and is due only once that has come.
 */
function instant(event: Event, now: Date): number {
  if (event.kind === 'payout') return Date.parse(event.at);
  const start = (dayAt(event.day) as Date).getTime();
  const updatedAt = event.kind === 'overdue' ? event.invoice.updated_at : event.stored.sub.updated_at;
  return Math.min(now.getTime(), Math.max(start, Date.parse(updatedAt)));
}

interface Pending {
  subscriptions: Array<{ stored: StoredSubscription; plan: Plan }>;
  invoices: Invoice[];
  payouts: SandboxState['payouts'];
}

/**
 * What may still have events. Found through the status indexes, since every request asks: a sandbox's paid invoices and ended
 * subscriptions pile up, and are never read here.
 */
function pendingWork(state: SandboxState): Pending {
  const subscriptions = findAllIn<StoredSubscription>(state, 'subscriptions', 'status', ['active', 'suspended']).flatMap((stored) => {
    const plan = state.plans.get(stored.sub.plan);
    return plan ? [{ stored, plan }] : [];
  });
  const invoices = findAllIn<Invoice>(state, 'invoices', 'status', ['pending']);
  return { subscriptions, invoices, payouts: state.payouts };
}

/** The next event of each subscription and of each invoice still pending, payouts left aside. */
function recurrenceEvents(work: Pending): Event[] {
  const pending = work.invoices.filter((invoice) => invoice.status === 'pending');
  return [
    ...work.subscriptions.flatMap(({ stored, plan }) => subscriptionEvent(stored, plan) ?? []),
    ...pending.map((invoice): Event => ({ kind: 'overdue', day: nextDay(invoice.due_date), invoice })),
  ];
}

/** The earliest event due by `now`; ties go to what was created first (subscriptions before invoices). */
function nextEvent(work: Pending, now: Date): Event | undefined {
  const today = calendarDate(now);
  const events = recurrenceEvents(work);
  const payout = work.payouts.next;
  if (payout !== null && Date.parse(payout) <= now.getTime()) events.push({ kind: 'payout', day: payout.slice(0, 10), at: payout });
  let best: { event: Event; at: number } | undefined;
  for (const event of events) {
    if (event.day > today) continue;
    const at = instant(event, now);
    if (!best || at < best.at) best = { event, at };
  }
  return best?.event;
}

/**
 * The first day recurrence has anything due on (a bill, an end, an invoice turning over-due),
 * payouts left aside; undefined when nothing is pending. Sales change none of it, so a run of
 * generated sales asks once and then only watches the payout date (volume.ts).
 */
export function recurrenceDueDay(state: SandboxState): string | undefined {
  const days = recurrenceEvents(pendingWork(state)).map((event) => event.day);
  return days.length === 0 ? undefined : days.reduce((a, b) => (b < a ? b : a));
}

/**
 * Runs every event due by `now`, earliest first, and reports what it did. With `payoutLimit`, a
 * payout reads at most that many receivables, and the catch-up stops there when more are due
 * (`more`; see runPayouts).
 */
export function catchUp(state: SandboxState, now: Date, { payoutLimit }: { payoutLimit?: number } = {}): CatchUpReport {
  const report: CatchUpReport = { billed: [], expired: [], overdue: [], transfers: [] };
  const work = pendingWork(state);
  for (let event = nextEvent(work, now); event; event = nextEvent(work, now)) {
    const at = new Date(instant(event, now));
    if (event.kind === 'payout') {
      const { made, more } = runPayouts(state, at, payoutLimit);
      for (const transfer of made) report.transfers.push(transfer.id);
      if (more) return { ...report, more };
    } else if (event.kind === 'overdue') {
      event.invoice.status = 'over-due';
      event.invoice.updated_at = isoTimestamp(at);
      report.overdue.push(event.invoice.id);
    } else if (event.kind === 'expire') {
      event.stored.sub.status = 'expired';
      event.stored.sub.updated_at = isoTimestamp(at);
      report.expired.push(event.stored.sub.uuid);
    } else {
      const invoice = billDueDate(state, event.stored, event.plan, at);
      // A boleto invoice is left pending, to be paid: it turns over-due in this same catch-up if its day passes.
      if (invoice?.status === 'pending') work.invoices.push(invoice);
      if (invoice) report.billed.push({ invoice: invoice.id, subscription: event.stored.sub.uuid, due_date: invoice.due_date, status: invoice.status });
    }
  }
  return report;
}

/**
 * Lets the sandbox live through real time: at the start of a request, anything that fell due
 * since the last one runs first. Reading is enough to know there is nothing to do; the lock is
 * taken only when there is, and the check is made again under it, since another process may have
 * done the work in between.
 */
export async function catchUpIfDue(stateDir: string, clock: SandboxClock): Promise<void> {
  const state = await readState(stateDir, clock);
  if (nextEvent(pendingWork(state), clock()) === undefined) return;
  await mutateState(stateDir, clock, (locked) => catchUp(locked, clock()));
}
