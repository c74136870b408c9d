import { dueReceivables, nextPendingAfter } from './db/queries.js';
import { SANDBOX_BANK_ACCOUNT } from '../provider/sandbox-account.js';
import { newId } from './ids.js';
import { accountIdFor, postEntry } from './ledger.js';
import { decimalToCents } from './money.js';
import { calendarDate, DAY_MS, isoOfMs, isoTimestamp, msOfIso } from './time.js';
import type { Receivable, SandboxState, Transfer } from './types.js';

// Receivables are future entries until their expected date; on that date (on the sandbox clock),
// at the payout hour, each is paid out to the seller's bank account by a transfer of its net
// amount, which leaves the seller's balance. `state.payouts.next` remembers when the next payout
// is made (the payout hour of the earliest expected date still pending), so a request can tell in
// O(1) whether any payout is due, and the receivables are scanned only when one is.

/**
 * The hour of a day payouts are made at: 12:00 UTC, 09:00 in Brasília (UTC−03:00, which keeps no
 * daylight saving time), as a Brazilian bank pays during its business hours. Noon UTC is the same
 * calendar date in every zone from UTC−12:00 to UTC+11:59, all of Brazil's among them, so a
 * transfer, its receivables' paid_at and its balance entry fall on its transfer_date wherever they
 * are read, except from UTC+12:00 on (New Zealand, Fiji), where it is past midnight. (At 00:00 UTC
 * a payout would be 21:00 of the evening before in São Paulo: a statement of São Paulo's days
 * would show it on the day, and in the month, before its date.)
 */
const PAYOUT_HOUR_MS = 12 * 3_600_000;

/** 00:00 UTC of the day of `ms`. */
const dayStart = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/** When the receivables expected on the UTC day of `expectedMs` are paid out. */
function payoutTime(expectedMs: number): number {
  return dayStart(expectedMs) + PAYOUT_HOUR_MS;
}

/** A new pending receivable: payouts are made no later than its expected date's payout hour. */
export function notePayoutDate(state: SandboxState, expectedOn: string): void {
  const { next } = state.payouts;
  const at = isoOfMs(payoutTime(msOfIso(expectedOn)));
  if (next === null || at < next) state.payouts.next = at;
}

function transferFor(state: SandboxState, receivable: Receivable, at: Date): Transfer {
  const id = newId(state);
  const stamp = isoTimestamp(at);
  return {
    id,
    resource: 'transfer',
    status: 'succeeded',
    type: 'automatic',
    amount: receivable.amount,
    currency: 'BRL',
    description: `Payout of installment ${receivable.installment} of transaction ${receivable.transaction}`,
    on_behalf_of: receivable.recipient,
    account: accountIdFor(receivable.recipient),
    bank_account: SANDBOX_BANK_ACCOUNT,
    transactions: [receivable.transaction],
    receivables: [receivable.id],
    transfer_date: calendarDate(at),
    fees: '0.00',
    uri: `/v1/marketplaces/${state.marketplace_id}/transfers/${id}`,
    created_at: stamp,
    updated_at: stamp,
  };
}

/**
 * Pays out, at `at` (a payout hour, `payouts.next` once it has come), every receivable expected on
 * `at`'s date or before, earliest first, one transfer each; then moves `payouts.next` to the payout
 * hour of the earliest expected date still pending. Returns the transfers made.
 *
 * With `limit`, at most that many receivables are read: a day of a million-sale volume pays out
 * tens of thousands at once, and a change holds what it touches until it is saved. When more are
 * due, `payouts.next` stays at the first of them and `more` is true: the caller saves this change
 * and calls again. (A slice that paid nothing, every receivable it read paid earlier in
 * the same change, is read again without the limit, so the calls always come to an end.)
 */
export function runPayouts(state: SandboxState, at: Date, limit?: number): { made: Transfer[]; more: boolean } {
  // The last millisecond of `at`'s date: a receivable is paid on its date, whatever time its expected_on names.
  const ms = dayStart(at.getTime()) + DAY_MS - 1;
  // Earliest first; receivables due the same moment keep the order they were created in.
  const read = dueReceivables<Receivable>(state, ms, limit);
  // A receivable paid earlier in this same change still reads as pending from its stored row.
  const due = read.filter((r) => r.status === 'pending');
  if (limit !== undefined && read.length >= limit && due.length === 0) return runPayouts(state, at);
  const more = limit !== undefined && read.length >= limit;
  const after = more ? undefined : nextPendingAfter(state, ms);
  const next = more ? state.payouts.next : after === undefined ? null : isoOfMs(payoutTime(after));
  const made: Transfer[] = [];
  for (const receivable of due) {
    const transfer = transferFor(state, receivable, at);
    state.transfers.append(transfer);
    receivable.status = 'paid';
    receivable.paid_at = transfer.created_at;
    receivable.transfer = transfer.id;
    const { recipient: owner, transaction } = receivable;
    const cents = -decimalToCents(receivable.amount);
    const description = `Transfer ${transfer.id} to bank ${SANDBOX_BANK_ACCOUNT.bank_code} account ${SANDBOX_BANK_ACCOUNT.account_number}`;
    postEntry(state, { owner, operation: 'transfer', cents, description, transfer: transfer.id, transaction }, at);
    made.push(transfer);
  }
  state.payouts.next = next;
  return { made, more };
}
