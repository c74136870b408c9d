import { accountIdFor } from './ledger.js';
import { listHistory, listSellerReceivables, listTransfers } from './finance.js';
import { listInvoices } from './invoices.js';
import type { RequestContext, Route } from './route.js';
import { KIND_OF_SEGMENT, listSellers, planCreateSeller, planUpdateSeller, removeSeller, requireSeller } from './sellers.js';
import { mutateState, readState } from './store.js';
import { listSubscriptions } from './subscriptions.js';
import { listTransactions } from './transactions.js';
import type { SandboxState } from './types.js';

// Routes of sellers: create (…/sellers/individuals, …/sellers/businesses), list, get, update and
// remove, and the lists scoped to one seller. The provider publishes the seller-scoped
// transactions, subscriptions, invoices and receivables; the rest (the sellers themselves, their
// transfers and balance history) are ours, laid out the same way.

const id = (c: RequestContext): string => c.params.id ?? '';

/** A GET of one seller's records: 404 for a seller the sandbox does not know. */
function scoped(list: (state: SandboxState, c: RequestContext, seller: string) => unknown): Route['handlers'] {
  return {
    GET: async (c) => {
      const state = await readState(c.stateDir, c.now);
      requireSeller(state, id(c));
      return { status: 200, body: list(state, c, id(c)) };
    },
  };
}

const kindRoutes: Route[] = Object.entries(KIND_OF_SEGMENT).flatMap(([segment, kind]): Route[] => [
  {
    pattern: ['sellers', segment],
    handlers: {
      POST: async (c) => {
        const plan = planCreateSeller(kind, c.body);
        return { status: 201, body: await mutateState(c.stateDir, c.now, (state) => plan(state, c.now())) };
      },
    },
  },
  {
    pattern: ['sellers', segment, ':id'],
    handlers: {
      PUT: async (c) => {
        const change = planUpdateSeller(kind, c.body);
        return { status: 200, body: await mutateState(c.stateDir, c.now, (state) => change(state, id(c), c.now())) };
      },
    },
  },
]);

export const sellerRoutes: Route[] = [
  ...kindRoutes,
  { pattern: ['sellers'], handlers: { GET: async (c) => ({ status: 200, body: listSellers(await readState(c.stateDir, c.now), c.query, c.path) }) } },
  {
    pattern: ['sellers', ':id'],
    handlers: {
      GET: async (c) => ({ status: 200, body: requireSeller(await readState(c.stateDir, c.now), id(c)) }),
      DELETE: async (c) => ({ status: 200, body: await mutateState(c.stateDir, c.now, (state) => removeSeller(state, id(c))) }),
    },
  },
  { pattern: ['sellers', ':id', 'transactions'], handlers: scoped((state, c, seller) => listTransactions(state, c.query, c.path, seller)) },
  { pattern: ['sellers', ':id', 'subscriptions'], handlers: scoped((state, c, seller) => listSubscriptions(state, c.query, c.path, seller)) },
  { pattern: ['sellers', ':id', 'invoices'], handlers: scoped((state, c, seller) => listInvoices(state, c.query, c.path, seller)) },
  { pattern: ['sellers', ':id', 'receivables'], handlers: scoped((state, c, seller) => listSellerReceivables(state, seller, c.query, c.path)) },
  { pattern: ['sellers', ':id', 'transfers'], handlers: scoped((state, c, seller) => listTransfers(state, c.query, c.path, seller)) },
  { pattern: ['sellers', ':id', 'balances', 'history'], handlers: scoped((state, c, seller) => listHistory(state, [accountIdFor(seller)], c.query, c.path)) },
];
