// `transactions list --status a,b --payment-type x,y` against a service whose filters take one value
// each: the provider's file types `status` and `payment_type` as single-value enums, and its
// payment_type enum has no `bolepix` or `debit`. So payctl asks once per combination of values the
// service can filter by, keeps locally what it cannot (a bolepix sale is listed by reading the
// unfiltered list and keeping the bolepix ones), and merges the answers in the service's own
// order, newest first (or oldest with --sort asc), so the output reads as one list.
import type { ApiClient, RequestInput } from '../../api/client.js';
import type { ListRequest } from '../shared/list.js';
import { listSource } from '../shared/seller.js';

/** The payment types the provider's list filter takes; the others are kept by payctl. */
export const SERVICE_PAYMENT_TYPES: readonly string[] = ['credit', 'boleto', 'pix'];
const PAGE = 100;

export interface TransactionFilters {
  statuses: string[];
  paymentTypes: string[];
}

interface Stream {
  /** What the service is asked for. */
  query: RequestInput['query'];
  /** What payctl keeps of its answer, when the service cannot filter. */
  keep?: (item: Record<string, unknown>) => boolean;
}

/** One request per status × service-filterable payment type; one unfiltered for the rest. */
export function planStreams(base: ListRequest['query'], filters: TransactionFilters): Stream[] {
  const statuses = filters.statuses.length > 0 ? filters.statuses : [undefined];
  const served = filters.paymentTypes.filter((t) => SERVICE_PAYMENT_TYPES.includes(t));
  const local = filters.paymentTypes.filter((t) => !SERVICE_PAYMENT_TYPES.includes(t));
  const types: Array<{ type?: string; keep?: Stream['keep'] }> =
    filters.paymentTypes.length === 0 ? [{}] : served.map((type) => ({ type }));
  if (local.length > 0) types.push({ keep: (item) => local.includes(String(item.payment_type)) });
  const streams: Stream[] = [];
  for (const status of statuses) {
    for (const { type, keep } of types) {
      const query = { ...base, status, payment_type: type };
      streams.push(keep ? { query, keep } : { query });
    }
  }
  return streams;
}

/** True when one plain request says it all: no merging, no local filter. */
export function isSingleRequest(filters: TransactionFilters): boolean {
  return filters.statuses.length <= 1 && filters.paymentTypes.length <= 1 && filters.paymentTypes.every((t) => SERVICE_PAYMENT_TYPES.includes(t));
}

function createdMs(item: unknown): number {
  const at = (item as { created_at?: unknown }).created_at;
  const ms = typeof at === 'string' ? Date.parse(at) : Number.NaN;
  return Number.isNaN(ms) ? 0 : ms;
}

/** Items of one stream, one at a time, read a page ahead of need. */
class Cursor {
  private buffer: unknown[] = [];
  private done = false;
  constructor(private readonly pages: AsyncGenerator<unknown[]>, private readonly keep?: Stream['keep']) {}

  /** The next item without taking it, or undefined once the stream is over. */
  async peek(): Promise<unknown> {
    while (this.buffer.length === 0 && !this.done) {
      const next = await this.pages.next();
      if (next.done) this.done = true;
      else this.buffer = this.keep ? next.value.filter((item) => this.keep!(item as Record<string, unknown>)) : next.value;
    }
    return this.buffer[0];
  }

  take(): unknown {
    return this.buffer.shift();
  }

  async close(): Promise<void> {
    await this.pages.return(undefined);
  }
}

/**
 * The merged list: at most `request.limit` items (every item with --all), in the service's order,
 * handed over in pages of up to 100. Each stream is read only as far as the merge needs it.
 */
export async function* mergedPages(
  api: ApiClient,
  base: ListRequest['query'],
  filters: TransactionFilters,
  request: ListRequest,
  onPage?: (items: number, total: number | undefined) => void,
  seller?: string,
): AsyncGenerator<unknown[]> {
  const ascending = base.sort === 'time-ascending';
  const streams = planStreams(base, filters);
  // A stream filtered here may need many pages for a few items: it reads to its end unless the merge stops it.
  const cursors = streams.map(
    (stream) => {
      // One seller's sales come from the provider's seller path, which takes the same filters.
      const { operation, input } = listSource('transactions', seller, stream.query);
      const pages = api.pages(operation, input, { limit: request.limit, all: request.all || stream.keep !== undefined });
      return new Cursor(pages, stream.keep);
    },
  );
  const wanted = request.all ? Number.POSITIVE_INFINITY : request.limit;
  let handed = 0;
  try {
    let page: unknown[] = [];
    while (handed < wanted) {
      let best: { cursor: Cursor; at: number } | undefined;
      for (const cursor of cursors) {
        const head = await cursor.peek();
        if (head === undefined) continue;
        const at = createdMs(head);
        if (!best || (ascending ? at < best.at : at > best.at)) best = { cursor, at };
      }
      if (!best) break;
      page.push(best.cursor.take());
      handed += 1;
      if (page.length === PAGE) {
        onPage?.(page.length, undefined);
        yield page;
        page = [];
      }
    }
    if (page.length > 0) {
      onPage?.(page.length, undefined);
      yield page;
    }
  } finally {
    await Promise.all(cursors.map((cursor) => cursor.close()));
  }
}
