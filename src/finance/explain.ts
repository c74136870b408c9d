// Why a transfer is the amount it is: the receivables it paid, each with its sale, gross, fee and
// net, and the refunds and chargebacks of that sale made before the payout (already out of the
// gross: a receivable is re-split when part of its sale is refunded). Their net less the
// transfer's own fee must be the transfer's amount, to the centavo; what is left over is the
// difference, and a receivable the service does not have, or whose sale it does not have, is an
// unexplained item. Answers that cannot be added up at all (an item listed twice, an answer for
// another receivable or sale, a receivable that says another transfer paid it, more items than a
// command reads) stop it with exit 8 naming them, never a difference made of them. Every sum is
// in integer cents from the service's decimal strings.
import type { ApiClient } from '../api/client.js';
import { ApiError, NetworkError } from '../errors.js';
import { counted } from '../platform/plural.js';
import { centsToDecimalString, decimalStringToCents } from '../validate/index.js';

// The explanation's shape is written once, as a schema (explanation.ts); only its types are read here.
export type { ExplainedItem, TransferExplanation, UnexplainedItem } from './explanation.js';
import type { ExplainedItem, TransferExplanation, UnexplainedItem } from './explanation.js';

interface Transfer {
  id: string;
  amount: string;
  fees?: string | null;
  status?: string | null;
  on_behalf_of?: string | null;
  transfer_date?: string | null;
  created_at?: string | null;
  receivables?: string[] | null;
}

interface Receivable {
  id: string;
  transaction?: string | null;
  installment?: string | number | null;
  amount: string;
  gross_amount?: string | null;
  transfer?: string | null;
}

interface Sale {
  id: string;
  history?: Array<{ operation_type?: string | null; status?: string | null; amount?: string | null; created_at?: string | null }> | null;
}

/** How many receivables (and their sales) are read at once. */
const AT_ONCE = 8;

const money = (cents: number) => centsToDecimalString(cents);

/** Runs `work` over `items`, `limit` at a time, keeping their order. */
export async function inTurn<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      results[at] = await work(items[at] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** What of a sale was refunded and charged back by `until` (the payout), in cents. */
function undoneBefore(sale: Sale | undefined, until: number): { refunded: number; chargedBack: number } {
  let refunded = 0;
  let chargedBack = 0;
  for (const entry of sale?.history ?? []) {
    if (entry.status !== 'succeeded' || typeof entry.amount !== 'string') continue;
    const at = Date.parse(entry.created_at ?? '');
    if (Number.isFinite(until) && Number.isFinite(at) && at > until) continue;
    if (entry.operation_type === 'void') refunded += decimalStringToCents(entry.amount);
    if (entry.operation_type === 'chargeback') chargedBack += decimalStringToCents(entry.amount);
  }
  return { refunded, chargedBack };
}

const notFound = (err: unknown) => err instanceof ApiError && err.details.httpStatus === 404;

/** Reads the transfer, its receivables and their sales, and adds them up. */
export async function explainTransfer(api: ApiClient, id: string, known?: Transfer): Promise<TransferExplanation> {
  const transfer = known ?? (await api.call('transfers.get', { params: { id } }));
  if (transfer.id !== id) throw new NetworkError(`the service answered GET transfers/${id} with transfer ${transfer.id}; stopped, nothing was added up`);
  const paidAt = Date.parse(transfer.created_at ?? '');
  const ids = transfer.receivables ?? [];
  const read = await readingItemsOf(id, async () => {
    // The items are counted before any is read: a transfer listing more than a command reads is
    // stopped at once, not after reading that many.
    api.readBound.count(`the ${counted(ids.length, 'receivable')} transfer ${id} lists`, ids.length, 0);
    const listed = new Set<string>();
    const twice = ids.find((receivableId) => listed.size === listed.add(receivableId).size);
    if (twice !== undefined) throw badAnswers(`it lists receivable ${twice} more than once`);
    return inTurn(ids, AT_ONCE, (receivableId) => {
      api.readBound.check();
      return explainItem(api, id, receivableId, paidAt);
    });
  });
  const items = read.filter((r): r is ExplainedItem => 'net' in r);
  const unexplainedItems = read.filter((r): r is UnexplainedItem => 'why' in r);
  const total = (pick: (item: ExplainedItem) => string) => items.reduce((sum, item) => sum + decimalStringToCents(pick(item)), 0);
  const net = total((i) => i.net);
  const fee = transfer.fees ? decimalStringToCents(transfer.fees) : 0;
  const amount = decimalStringToCents(transfer.amount);
  const difference = amount - (net - fee);
  return {
    transfer: id,
    seller: transfer.on_behalf_of ?? null,
    status: transfer.status ?? null,
    transfer_date: transfer.transfer_date ?? null,
    created_at: transfer.created_at ?? null,
    items,
    unexplained: unexplainedItems,
    sum: { gross: money(total((i) => i.gross)), fees: money(total((i) => i.fee)), refunded: money(total((i) => i.refunded)), charged_back: money(total((i) => i.charged_back)), net: money(net) },
    transfer_fee: money(fee),
    expected: money(net - fee),
    amount: money(amount),
    difference: money(difference),
    matched: difference === 0 && unexplainedItems.length === 0,
  };
}

/** One receivable of transfer `transferId`, with its sale: an item, or why it is not one. */
async function explainItem(api: ApiClient, transferId: string, receivableId: string, paidAt: number): Promise<ExplainedItem | UnexplainedItem> {
  let receivable: Receivable;
  try {
    receivable = await api.call('receivables.get', { params: { id: receivableId } });
  } catch (err) {
    if (notFound(err)) return { receivable: receivableId, transaction: null, sale_missing: false, why: 'the service has no such receivable' };
    throw err;
  }
  if (receivable.id !== receivableId) throw badAnswers(`asked for receivable ${receivableId}, it answered receivable ${receivable.id}`);
  if (receivable.transfer && receivable.transfer !== transferId) throw badAnswers(`receivable ${receivableId}, which it lists, says transfer ${receivable.transfer} paid it`);
  let sale: Sale | undefined;
  if (receivable.transaction) {
    try {
      sale = await api.call('transactions.get', { params: { id: receivable.transaction } });
    } catch (err) {
      if (!notFound(err)) throw err;
      return { receivable: receivableId, transaction: receivable.transaction, sale_missing: true, why: `its sale ${receivable.transaction} is missing` };
    }
    if (sale.id !== receivable.transaction) throw badAnswers(`asked for sale ${receivable.transaction} (of receivable ${receivableId}), it answered sale ${sale.id}`);
  }
  const net = decimalStringToCents(receivable.amount);
  const gross = receivable.gross_amount ? decimalStringToCents(receivable.gross_amount) : net;
  const undone = undoneBefore(sale, paidAt);
  return {
    receivable: receivableId,
    transaction: receivable.transaction ?? null,
    installment: receivable.installment === undefined || receivable.installment === null ? null : String(receivable.installment),
    gross: money(gross),
    fee: money(gross - net),
    refunded: money(undone.refunded),
    charged_back: money(undone.chargedBack),
    net: money(net),
  };
}

/** Answers about a transfer's items that cannot be added up: the cause, never a difference made of them. */
class BadAnswers extends Error {}

function badAnswers(why: string): BadAnswers {
  return new BadAnswers(`the service's answers about its items are bad: ${why}`);
}

/**
 * Reads a transfer's items. When an answer could not be used (one of the above, or one the client
 * refused: not a receivable, no answer, past the command's bound) that is the transfer's outcome,
 * exit 8 naming it and the transfer: a difference added up from such answers would be made up.
 */
async function readingItemsOf<T>(transferId: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof BadAnswers || err instanceof NetworkError) {
      throw new NetworkError(`transfer ${transferId} was not added up (no difference is reported): ${err.message}`, { cause: err });
    }
    throw err;
  }
}
