// How each list that takes --group-by is summed: what its gross, fees, refunds and net are, and
// where its groupings are in an item. Kept free of the summary's code (output/summary.ts), which is
// loaded only when a list is grouped.
import type { Dimension, SummarySpec } from '../../output/summary.js';
import { decimalCents } from '../../output/totals.js';

const cents = (value: unknown) => decimalCents(value) ?? 0;

/**
 * A sale: gross is what it was sold for (original_amount), refunds what was given back of it
 * (original − what remains), fees its fees, net what remains less the fees. So the groups' gross
 * less their refunds is the ungrouped list's gross (what remains), and their nets its net.
 */
export const TRANSACTION_SUMMARY: SummarySpec = {
  time: { key: 'created_at', day: false },
  fields: { seller: 'on_behalf_of', 'payment-type': 'payment_type', 'card-brand': 'payment_method.card_brand', status: 'status' },
  sums(item) {
    const remains = cents(item.amount);
    const original = decimalCents(item.original_amount) ?? remains;
    const fees = cents(item.fees);
    return { gross: original, fees, refunds: original - remains, net: remains - fees };
  },
};

/** A transfer: its amount, less its own fee. */
export const TRANSFER_SUMMARY: SummarySpec = {
  time: { key: 'created_at', day: false },
  fields: { seller: 'on_behalf_of', status: 'status' },
  sums(item) {
    const amount = cents(item.amount);
    const fees = cents(item.fees);
    return { gross: amount, fees, refunds: 0, net: amount - fees };
  },
};

/**
 * A balance entry (its amount is already net of fees): gross is what came in, refunds what went
 * back to buyers (refunded or charged back, as a sale's refunds count both), net the balance's
 * change, transfers to the bank included.
 */
export const HISTORY_SUMMARY: SummarySpec = {
  time: { key: 'created_at', day: false },
  fields: {},
  sums(item) {
    const amount = cents(item.amount);
    const given = item.operation === 'refund' || item.operation === 'chargeback';
    return { gross: Math.max(0, amount), fees: 0, refunds: given ? -Math.min(0, amount) : 0, net: amount };
  },
};

/** A receivable or future entry: gross and net as it gives them, the fee between; by its expected day. */
function receivableSummary(fields: SummarySpec['fields']): SummarySpec {
  return {
    time: { key: 'expected_on', day: true },
    fields,
    sums(item) {
      const net = cents(item.amount);
      const gross = decimalCents(item.gross_amount) ?? net;
      return { gross, fees: gross - net, refunds: 0, net };
    },
  };
}
export const RECEIVABLE_SUMMARY = receivableSummary({ status: 'status' });
export const FUTURE_ENTRY_SUMMARY = receivableSummary({});

/** --group-by checked against `spec` (the summary's code loaded only then), or undefined when not given. */
export async function groupingOf(options: { groupBy?: string }, spec: SummarySpec, noun: string): Promise<{ by: Dimension; spec: SummarySpec } | undefined> {
  if (options.groupBy === undefined) return undefined;
  const { parseGroupBy } = await import('../../output/summary.js');
  return { by: parseGroupBy(options.groupBy, spec, noun) as Dimension, spec };
}
