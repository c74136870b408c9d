// The webhook event types, in the provider's dotted style (`transaction.succeeded`). The CLI checks
// `--event` against this list before sending; the sandbox emits these and no others.

const TRANSACTION = [
  'transaction.created',
  'transaction.updated',
  'transaction.pending',
  'transaction.pre_authorized',
  'transaction.succeeded',
  'transaction.failed',
  'transaction.canceled',
  // Statuses of the real service the sandbox raises no event for: reversed, refunded and
  // partial_refunded it never reaches (its void cancels a sale or lowers its amount); dispute and
  // charged_back only in generated volume, which raises no events.
  'transaction.reversed',
  'transaction.refunded',
  'transaction.partial_refunded',
  'transaction.dispute',
  'transaction.charged_back',
] as const;

const BUYER = ['buyer.created', 'buyer.updated', 'buyer.deleted'] as const;
const PLAN = ['plan.created', 'plan.updated', 'plan.canceled'] as const;
const SUBSCRIPTION = [
  'subscription.created',
  'subscription.updated',
  'subscription.suspended',
  'subscription.reactivated',
  'subscription.canceled',
  'subscription.expired',
] as const;
const INVOICE = ['invoice.created', 'invoice.updated', 'invoice.paid', 'invoice.failed', 'invoice.overdue', 'invoice.canceled', 'invoice.refunded'] as const;

export const EVENT_TYPES: readonly string[] = [...TRANSACTION, ...BUYER, ...PLAN, ...SUBSCRIPTION, ...INVOICE];

/** Every event type. */
export const ALL_EVENTS = '*';

/** The types in `requested` that are not event types (`*` is fine). */
export function unknownEventTypes(requested: readonly string[]): string[] {
  return requested.filter((type) => type !== ALL_EVENTS && !EVENT_TYPES.includes(type));
}

/** Whether a webhook subscribed to `events` wants `type`. */
export function eventMatches(events: readonly string[], type: string): boolean {
  return events.includes(ALL_EVENTS) || events.includes(type);
}
