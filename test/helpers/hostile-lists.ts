// A transfers list as a service gone wrong serves it, for the tests of reads of many pages: pages
// asked by offset, every one full of new transfers and saying there is more, unless `bad` answers
// that page otherwise. Everything else a reconcile asks (a seller's receivables) is answered plainly.
import type { RecordedRequest, Reply, Route } from './recording-server.js';

export const LIST_SELLER = 's'.repeat(32);

/** An id of 32 characters: `prefix`, then `n`. */
export function numberedId(prefix: string, n: number): string {
  return `${prefix}${String(n).padStart(32 - prefix.length, '0')}`;
}

/** Transfer `n` of R$ 3,00, paying out no receivables (so explaining it asks nothing more). */
export function transferItem(n: number, extra: Record<string, unknown> = {}) {
  return {
    id: numberedId('tr', n),
    resource: 'transfer',
    status: 'succeeded',
    amount: '3.00',
    currency: 'BRL',
    on_behalf_of: LIST_SELLER,
    transfer_date: '2026-11-02',
    created_at: '2026-11-02T10:00:00.000Z',
    receivables: [],
    ...extra,
  };
}

export function listPage(items: unknown[], hasMore: boolean): Reply {
  return { status: 200, body: { resource: 'list', items, has_more: hasMore } };
}

/** A number in a request's query string. */
export function queryNumber(req: RecordedRequest, name: string): number {
  return Number(new URL(req.url, 'http://x').searchParams.get(name));
}

/** The transfers list, with no end unless `bad` answers a page (by its offset) otherwise; a seller's receivables: none. */
export function transfersList(bad: (offset: number, req: RecordedRequest) => Reply | undefined = () => undefined): Route {
  return (req) => {
    if (req.path.endsWith('/receivables')) return listPage([], false);
    const offset = queryNumber(req, 'offset');
    return bad(offset, req) ?? listPage(Array.from({ length: queryNumber(req, 'limit') }, (_, i) => transferItem(offset + i)), true);
  };
}
