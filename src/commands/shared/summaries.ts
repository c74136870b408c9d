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

/** A transfer: its amount is what reached the bank, its own fee already taken; by its transfer date as written. */
export const TRANSFER_SUMMARY: SummarySpec = {
  time: { key: 'transfer_date', day: true },
  fields: { seller: 'on_behalf_of', status: 'status' },
  sums(item) {
    const amount = cents(item.amount);
    const fees = cents(item.fees);
    return { gross: amount + fees, fees, refunds: 0, net: amount };
  },
};

/**
 * A balance entry, as a statement reads it: credits (what came in; a sale is credited net of its
 * fees), the debits by kind (payouts to the bank; refunds, with chargebacks, what went back to
 * buyers; fees when the ledger books them apart; anything else), the net change and, per span of time, the balance it closed at. Filtered by
 * operation (`filtered`), the entries read are not all that moved the balance: no closing balance.
 */
export function historySummary(filtered: boolean): SummarySpec {
  const before = (item: Record<string, unknown>) => {
    const after = decimalCents(item.balance);
    const amount = decimalCents(item.amount);
    return after === undefined || amount === undefined ? undefined : after - amount;
  };
  return {
    time: { key: 'created_at', day: false },
    fields: {},
    columns: [
      { key: 'credits', header: 'CREDITS' },
      { key: 'payouts', header: 'PAYOUTS' },
      { key: 'refunds', header: 'REFUNDS' },
      { key: 'fees', header: 'FEES', whenAny: true, absent: 'credits are sales net of their fees: the entries book no fee apart' },
      { key: 'other_debits', header: 'OTHER', whenAny: true },
      { key: 'net', header: 'NET' },
    ],
    sums(item) {
      const amount = cents(item.amount);
      const kind = DEBIT_KINDS[String(item.operation)] ?? 'other_debits';
      return { credits: Math.max(0, amount), [kind]: Math.min(0, amount), net: amount };
    },
    ...(filtered ? {} : { balance: { account: (item: Record<string, unknown>) => (typeof item.account === 'string' ? item.account : undefined), before } }),
  };
}

/** Which debit column an entry's operation goes in; any other is `other_debits`. */
const DEBIT_KINDS: Record<string, string> = { transfer: 'payouts', refund: 'refunds', chargeback: 'refunds', fee: 'fees' };

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
