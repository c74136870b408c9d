import { accountIdFor } from './ledger.js';
import { listHistory, listSellerReceivables, listTransfers } from './finance.js';
import { listInvoices } from './invoices.js';
import type { Handler, RequestContext, RouteTable } from './route.js';
import { KIND_OF_SEGMENT, listSellers, planCreateSeller, planUpdateSeller, removeSeller, requireSeller } from './sellers.js';
import { changing, changingOne, creating, idOf, reading } from './handlers.js';
import { listSubscriptions } from './subscriptions.js';
import { listTransactions } from './transactions.js';
import type { SandboxState } from './types.js';

// Routes of sellers: create (…/sellers/individuals, …/sellers/businesses), list, get, update and
// remove, and the lists scoped to one seller. The provider publishes the seller-scoped
// transactions, subscriptions, invoices and receivables; the rest (the sellers themselves, their
// transfers and balance history) are ours, laid out the same way.

/** A GET of one seller's records: 404 for a seller the sandbox does not know. */
function scoped(list: (state: SandboxState, c: RequestContext, seller: string) => unknown): Handler {
  return reading((state, c) => {
    requireSeller(state, idOf(c));
    return list(state, c, idOf(c));
  });
}

const kindRoutes: RouteTable = Object.fromEntries(
  Object.entries(KIND_OF_SEGMENT).flatMap(([segment, kind]) => [
    [`POST sellers/${segment}`, creating((body) => planCreateSeller(kind, body))],
    [`PUT sellers/${segment}/:id`, changingOne(requireSeller, (c) => planUpdateSeller(kind, c.body))],
  ]),
);

export const sellerRoutes: RouteTable = {
  ...kindRoutes,
  'GET sellers': reading((state, c) => listSellers(state, c.query, c.path)),
  'GET sellers/:id': reading((state, c) => requireSeller(state, idOf(c))),
  'DELETE sellers/:id': changing((state, c) => removeSeller(state, idOf(c))),
  'GET sellers/:id/transactions': scoped((state, c, seller) => listTransactions(state, c.query, c.path, seller)),
  'GET sellers/:id/subscriptions': scoped((state, c, seller) => listSubscriptions(state, c.query, c.path, seller)),
  'GET sellers/:id/invoices': scoped((state, c, seller) => listInvoices(state, c.query, c.path, seller)),
  'GET sellers/:id/receivables': scoped((state, c, seller) => listSellerReceivables(state, seller, c.query, c.path)),
  'GET sellers/:id/transfers': scoped((state, c, seller) => listTransfers(state, c.query, c.path, seller)),
  'GET sellers/:id/balances/history': scoped((state, c, seller) => listHistory(state, [accountIdFor(seller)], c.query, c.path)),
};
