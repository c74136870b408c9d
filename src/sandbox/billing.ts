import { SandboxError } from './errors.js';
import { chargeInvoice, issueInvoiceBoleto } from './invoice-charge.js';
import { issueInvoice } from './invoices.js';
import { dueDateAt } from './schedule.js';
import { isoTimestamp } from './time.js';
import type { Invoice, Plan, SandboxState, StoredSubscription } from './types.js';

// One billing of a subscription: an invoice for its due date, charged at once to its card (or, for
// a boleto subscription, sent a pending boleto the buyer pays later), then the schedule moved to
// the next due date. catch-up.ts decides when; this decides what.

/** Whether the subscription's next due date is still one to bill: not past its end, by date or by count. */
export function billable(stored: StoredSubscription, plan: Plan): boolean {
  const { sub } = stored;
  if (sub.expiration_date !== null && sub.due_date > sub.expiration_date) return false;
  return plan.duration === null || stored.billed.length < plan.duration;
}

/**
 * Bills the subscription's due date (unless that date was billed before) and moves it to the next
 * date on the plan's calendar. Returns the invoice, or nothing for a date already billed.
 */
export function billDueDate(state: SandboxState, stored: StoredSubscription, plan: Plan, now: Date): Invoice | undefined {
  const { sub } = stored;
  const due = sub.due_date;
  let invoice: Invoice | undefined;
  // The record of billed dates is what makes billing exactly-once: the date is written in the same
  // locked state write as its invoice, so no retry, crash or second process can bill it again.
  if (!stored.billed.includes(due)) {
    const customer = state.buyers.get(sub.customer);
    // Always there: a buyer with a running subscription cannot be removed (buyer-ops.ts).
    if (customer) {
      invoice = issueInvoice(
        state,
        {
          subscription: sub.uuid,
          on_behalf_of: sub.on_behalf_of,
          customer,
          description: sub.description ?? plan.name,
          payment_method: sub.payment_method,
          due_date: due,
          expiration_date: null,
          amount: sub.amount,
          currency: sub.currency,
          metadata: {},
        },
        now,
      );
      try {
        if (sub.payment_method === 'boleto') issueInvoiceBoleto(state, invoice, `Subscription ${sub.uuid}`, now);
        else chargeInvoice(state, invoice, sub.card, `Subscription ${sub.uuid}`, now);
      } catch (err) {
        if (!(err instanceof SandboxError)) throw err;
        // The card was removed since: the billing happened, its charge could not (a boleto that
        // could not be issued would be recorded the same way).
        invoice.status = 'failed';
        invoice.retries += 1;
      }
    }
    stored.billed.push(due);
    sub.due_since_date = due;
  }
  stored.step += 1;
  sub.due_date = dueDateAt(stored.anchor, plan, stored.step);
  sub.updated_at = isoTimestamp(now);
  return invoice;
}
