// `plans get` on a terminal: what is charged, how often, and for how long. Amounts are shown
// after planRow has turned cents into a decimal. See src/output/object-view.ts.
import { AMOUNT, CREATED, DESCRIPTION, resourceView } from '../../output/resource-view.js';

type Item = Record<string, unknown>;

/** "every 1 monthly" reads badly: "every month", "every 3 months", "every 2 weeks". */
function every(item: Item): string | undefined {
  const frequency = typeof item.frequency === 'string' ? item.frequency : undefined;
  if (frequency === undefined) return undefined;
  const unit = { daily: 'day', weekly: 'week', monthly: 'month', annually: 'year', yearly: 'year' }[frequency] ?? frequency;
  const interval = Number(item.interval ?? 1);
  return interval > 1 ? `every ${interval} ${unit}s` : `every ${unit}`;
}

export const PLAN_VIEW = resourceView('Plan', 'uuid', [
  { label: 'Name', at: 'name' },
  AMOUNT,
  { label: 'Paid with', at: (item) => (Array.isArray(item.payment_methods) ? item.payment_methods.join(', ') : undefined) },
  { label: 'Charged', at: every },
  { label: 'Setup', at: 'setup_amount', kind: 'money' },
  { label: 'Grace days', at: 'grace_period' },
  { label: 'Tolerance', at: 'tolerance_period' },
  { label: 'Duration', at: 'duration' },
  DESCRIPTION,
  CREATED,
]);
