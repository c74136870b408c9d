import { accountIdFor } from './ledger.js';
import { listHistory, listSellerReceivables, listTransfers } from './finance.js';
import { listInvoices } from './invoices.js';
import type { Handler, RequestContext, RouteTable } from './route.js';
import { listSellers, planCreateSeller, planUpdateSeller, removeSeller, requireSeller } from './sellers.js';
import { changing, changingOne, creating, idOf, reading } from './handlers.js';
import { listSubscriptions } from './subscriptions.js';
import { listTransactions } from './transactions.js';
import type { SandboxState } from './types.js';

// Routes of sellers: create and update (a path for each kind), list, get and remove, and the
// lists scoped to one seller. The provider publishes the seller-scoped
// transactions, subscriptions, invoices and receivables; the rest (the sellers themselves, their
// transfers and balance history) are ours, laid out the same way.

/** A GET of one seller's records: 404 for a seller the sandbox does not know. */
function scoped(list: (state: SandboxState, c: RequestContext, seller: string) => unknown): Handler {
  return reading((state, c) => {
    requireSeller(state, idOf(c));
    return list(state, c, idOf(c));
  });
}

export const sellerRoutes = {
  'sellers.createIndividual': creating((body) => planCreateSeller('individual', body)),
  'sellers.createBusiness': creating((body) => planCreateSeller('business', body)),
  'sellers.updateIndividual': changingOne(requireSeller, (c) => planUpdateSeller('individual', c.body)),
  'sellers.updateBusiness': changingOne(requireSeller, (c) => planUpdateSeller('business', c.body)),
  'sellers.list': reading((state, c) => listSellers(state, c.query, c.path)),
  'sellers.get': reading((state, c) => requireSeller(state, idOf(c))),
  'sellers.remove': changing((state, c) => removeSeller(state, idOf(c))),
  'transactions.listBySeller': scoped((state, c, seller) => listTransactions(state, c.query, c.path, seller)),
  'subscriptions.listBySeller': scoped((state, c, seller) => listSubscriptions(state, c.query, c.path, seller)),
  'invoices.listBySeller': scoped((state, c, seller) => listInvoices(state, c.query, c.path, seller)),
  'receivables.listBySeller': scoped((state, c, seller) => listSellerReceivables(state, seller, c.query, c.path)),
  'transfers.listBySeller': scoped((state, c, seller) => listTransfers(state, c.query, c.path, seller)),
  'balances.historyBySeller': scoped((state, c, seller) => listHistory(state, [accountIdFor(seller)], c.query, c.path)),
} satisfies RouteTable;
