// A period's transfers, each explained (explain.ts), one line each, with totals per seller; and
// what no transfer accounts for: a receivable paid out whose transfer does not list it (or is not
// there), and a transfer item whose sale is missing. Read page by page; the transfers of a page are
// explained a few at a time. The period is of calendar dates as written: the transfers dated in it
// (transfer_date) and the receivables expected in it; any other the service answers is left out.
import type { ApiClient } from '../api/client.js';
import { ApiError } from '../errors.js';
import { centsToDecimalString, decimalStringToCents, writtenDayWithin } from '../validate/index.js';
import { explainTransfer, inTurn, type TransferExplanation } from './explain.js';

export interface ReconciledTransfer {
  transfer: string;
  transfer_date: string | null;
  seller: string | null;
  status: string | null;
  amount: string;
  items: number;
  expected: string;
  difference: string;
  unexplained: number;
  result: 'matched' | 'difference' | 'unexplained';
}

export interface SellerTotals {
  seller: string;
  transfers: number;
  amount: string;
  expected: string;
  difference: string;
  not_matched: number;
}

export interface Orphan {
  kind: 'paid, in no transfer' | 'sale missing';
  receivable: string;
  transaction: string | null;
  transfer: string | null;
  amount: string | null;
  why: string;
}

export interface Reconciliation {
  from: string | null;
  to: string | null;
  transfers: ReconciledTransfer[];
  sellers: SellerTotals[];
  orphans: Orphan[];
  matched: boolean;
}

interface Receivable {
  id: string;
  status?: string | null;
  transaction?: string | null;
  amount: string;
  transfer?: string | null;
}

const TRANSFERS_AT_ONCE = 4;

function line(e: TransferExplanation): ReconciledTransfer {
  const result = e.unexplained.length > 0 ? 'unexplained' : e.difference !== '0.00' ? 'difference' : 'matched';
  return {
    transfer: e.transfer,
    transfer_date: e.transfer_date,
    seller: e.seller,
    status: e.status,
    amount: e.amount,
    items: e.items.length,
    expected: e.expected,
    difference: e.difference,
    unexplained: e.unexplained.length,
    result,
  };
}

export interface ReconcileInput {
  from: string | null;
  to: string | null;
  /** The list query for transfers (date_range of the period, as lists send it). */
  transferQuery: Record<string, string | number | undefined>;
  /** The same period for receivables, bounded by their expected day. */
  receivableQuery: Record<string, string | number | undefined>;
  seller?: string;
  /**
   * Told as the work goes, a page at a time: transfers explained (of the list's total, when the
   * service gives one), then paid receivables checked against them.
   */
  onProgress?: (step: 'transfers' | 'receivables', items: number, total: number | undefined) => void;
  /** Items the service answered dated outside the period, left out: how many of a page. */
  onOutside?: (what: 'transfers' | 'receivables', count: number) => void;
}

/** The items of a page dated (`key`, as written) in the period; the rest are said to `onOutside` and left out. */
function ofThePeriod<T>(page: T[], key: string, input: ReconcileInput, what: 'transfers' | 'receivables'): T[] {
  const kept = page.filter((item) => writtenDayWithin((item as Record<string, unknown>)[key], input.from ?? undefined, input.to ?? undefined));
  if (kept.length < page.length) input.onOutside?.(what, page.length - kept.length);
  return kept;
}

export async function reconcile(api: ApiClient, input: ReconcileInput): Promise<Reconciliation> {
  const lines: ReconciledTransfer[] = [];
  const orphans: Orphan[] = [];
  let total: number | undefined;
  const paging = { limit: 100, all: true, onPage: (_: number, listed: number | undefined) => (total = listed) };
  const listed = input.seller === undefined ? api.pages('transfers.list', { query: input.transferQuery }, paging) : api.pages('transfers.listBySeller', { params: { id: input.seller }, query: input.transferQuery }, paging);
  // The receivables the period's transfers paid.
  const paid = new Set<string>();
  for await (const page of listed) {
    const explained = await inTurn(ofThePeriod(page as Array<{ id: string }>, 'transfer_date', input, 'transfers'), TRANSFERS_AT_ONCE, (transfer) => explainTransfer(api, transfer.id, transfer as never));
    for (const e of explained) {
      lines.push(line(e));
      for (const item of e.items) paid.add(item.receivable);
      for (const item of e.unexplained) {
        if (item.sale_missing) orphans.push({ kind: 'sale missing', receivable: item.receivable, transaction: item.transaction, transfer: e.transfer, amount: null, why: item.why });
      }
    }
    input.onProgress?.('transfers', page.length, total);
  }
  // Receivables paid out in the period that none of its transfers lists: their own transfer is
  // asked (it may be of a day next to the period) and must list them.
  const sellers = new Set<string>(input.seller !== undefined ? [input.seller] : lines.map((l) => l.seller).filter((s): s is string => s !== null));
  const otherTransfers = new Map<string, Set<string> | null>();
  for (const seller of sellers) {
    for await (const page of api.pages('receivables.listBySeller', { params: { id: seller }, query: { ...input.receivableQuery, status: 'paid' } }, { limit: 100, all: true })) {
      for (const receivable of ofThePeriod(page as Receivable[], 'expected_on', input, 'receivables')) {
        if (receivable.status !== 'paid' || paid.has(receivable.id)) continue;
        const why = await paidElsewhere(api, receivable, otherTransfers);
        if (why) orphans.push({ kind: 'paid, in no transfer', receivable: receivable.id, transaction: receivable.transaction ?? null, transfer: receivable.transfer ?? null, amount: receivable.amount, why });
      }
      input.onProgress?.('receivables', page.length, undefined);
    }
  }
  const bySeller = new Map<string, { transfers: number; amount: number; expected: number; notMatched: number }>();
  for (const l of lines) {
    const key = l.seller ?? '(none)';
    const totals = bySeller.get(key) ?? { transfers: 0, amount: 0, expected: 0, notMatched: 0 };
    totals.transfers += 1;
    totals.amount += decimalStringToCents(l.amount);
    totals.expected += decimalStringToCents(l.expected);
    if (l.result !== 'matched') totals.notMatched += 1;
    bySeller.set(key, totals);
  }
  const sellerTotals = [...bySeller].map(([seller, t]) => ({
    seller,
    transfers: t.transfers,
    amount: centsToDecimalString(t.amount),
    expected: centsToDecimalString(t.expected),
    difference: centsToDecimalString(t.amount - t.expected),
    not_matched: t.notMatched,
  }));
  return { from: input.from, to: input.to, transfers: lines, sellers: sellerTotals, orphans, matched: lines.every((l) => l.result === 'matched') && orphans.length === 0 };
}

/** Why a paid receivable is in no transfer, or undefined when its own transfer lists it. */
async function paidElsewhere(api: ApiClient, receivable: Receivable, seen: Map<string, Set<string> | null>): Promise<string | undefined> {
  if (!receivable.transfer) return 'paid, but it names no transfer';
  if (!seen.has(receivable.transfer)) {
    try {
      const transfer = await api.call('transfers.get', { params: { id: receivable.transfer } });
      seen.set(receivable.transfer, new Set(transfer.receivables ?? []));
    } catch (err) {
      if (!(err instanceof ApiError && err.details.httpStatus === 404)) throw err;
      seen.set(receivable.transfer, null);
    }
  }
  const lists = seen.get(receivable.transfer);
  if (lists === null || lists === undefined) return `paid by transfer ${receivable.transfer}, which the service does not have`;
  return lists.has(receivable.id) ? undefined : `paid by transfer ${receivable.transfer}, which does not list it`;
}
