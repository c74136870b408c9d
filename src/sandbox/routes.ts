import { accountRoutes } from './routes-accounts.js';
import { documentRoutes } from './routes-documents.js';
import { eventRoutes } from './routes-events.js';
import { financeRoutes } from './routes-finance.js';
import { payBoleto } from './invoice-charge.js';
import { recurrenceRoutes } from './routes-recurrence.js';
import { sellerRoutes } from './routes-sellers.js';
import { mutateState, readState } from './store.js';
import { settleTransaction } from './settle.js';
import { findSplitRule, listSplitRules, planAddSplitRule, removeSplitRule } from './splits.js';
import { createToken, validateTokenRequest } from './tokens.js';
import { planCreateTransaction } from './transactions-create.js';
import {
  cancellationLetter,
  findTransaction,
  listTransactions,
  planCapture,
  planUpdate,
  planVoid,
  type TransactionChange,
} from './transactions.js';
import type { Method, Reply, RequestContext, Route } from './route.js';

// The route table: which handler serves which method and path (relative to /v1/ or
// /v1/marketplaces/{id}/). Handlers only glue validation, the state lock and the domain code.
// Transactions and tokens are here; buyers, cards and sources in routes-accounts.ts; boletos,
// receipts and receivables in routes-documents.ts; plans, subscriptions, invoices and the sandbox
// clock in routes-recurrence.ts; balances, transfers and future entries in routes-finance.ts;
// webhooks and events in routes-events.ts.

function transactionId(c: RequestContext): string {
  return c.params.id ?? '';
}

async function changeTransaction(c: RequestContext, change: TransactionChange): Promise<Reply> {
  const txn = await mutateState(c.stateDir, c.now, (state) => {
    const stored = findTransaction(state, transactionId(c));
    change(stored, state, c.now());
    return stored.txn;
  });
  return { status: 200, body: txn };
}

const transactionRoutes: Route[] = [
  {
    pattern: ['transactions'],
    handlers: {
      GET: async (c) => ({ status: 200, body: listTransactions(await readState(c.stateDir, c.now), c.query, c.path) }),
      POST: async (c) => {
        const plan = planCreateTransaction(c.body, c.now());
        await plan.ready;
        const stored = await mutateState(c.stateDir, c.now, (state) => plan(state, c.now()));
        return { status: 201, body: stored.txn };
      },
    },
  },
  {
    pattern: ['transactions', ':id'],
    handlers: {
      GET: async (c) => ({ status: 200, body: findTransaction(await readState(c.stateDir, c.now), transactionId(c)).txn }),
      PUT: async (c) => changeTransaction(c, planUpdate(c.body)),
    },
  },
  { pattern: ['transactions', ':id', 'void'], handlers: { POST: async (c) => changeTransaction(c, planVoid(c.body)) } },
  { pattern: ['transactions', ':id', 'capture'], handlers: { POST: async (c) => changeTransaction(c, planCapture(c.body)) } },
  // A boleto an invoice was billed with pays the invoice too (invoice-charge.ts).
  { pattern: ['transactions', ':id', 'approve'], handlers: { POST: async (c) => changeTransaction(c, payBoleto) } },
  {
    pattern: ['transactions', ':id', 'split_rules'],
    handlers: {
      GET: async (c) => ({ status: 200, body: listSplitRules(findTransaction(await readState(c.stateDir, c.now), transactionId(c)), c.query, c.path) }),
      POST: async (c) => {
        const add = planAddSplitRule(c.body);
        const rule = await mutateState(c.stateDir, c.now, (state) => {
          const stored = findTransaction(state, transactionId(c));
          const added = add(state, stored, c.now());
          settleTransaction(state, stored, c.now());
          return added;
        });
        // The provider answers a new split rule with 200, not 201.
        return { status: 200, body: rule };
      },
    },
  },
  {
    pattern: ['transactions', ':id', 'split_rules', ':rule'],
    handlers: {
      GET: async (c) => ({ status: 200, body: findSplitRule(findTransaction(await readState(c.stateDir, c.now), transactionId(c)), c.params.rule ?? '') }),
      DELETE: async (c) => {
        const removed = await mutateState(c.stateDir, c.now, (state) => {
          const stored = findTransaction(state, transactionId(c));
          const answer = removeSplitRule(state, stored, c.params.rule ?? '', c.now());
          settleTransaction(state, stored, c.now());
          return answer;
        });
        return { status: 200, body: removed };
      },
    },
  },
  {
    pattern: ['transactions', ':id', 'cancelled-letter'],
    handlers: {
      GET: async (c) => ({
        status: 200,
        body: cancellationLetter(findTransaction(await readState(c.stateDir, c.now), transactionId(c)), c.origin),
      }),
    },
  },
  {
    pattern: ['cards', 'tokens'],
    handlers: {
      // The provider answers 200 (not 201) for a new token; seed 4.2.
      POST: async (c) => {
        const card = validateTokenRequest(c.body, c.now());
        const token = await mutateState(c.stateDir, c.now, (state) => createToken(state, card, c.now()));
        return { status: 200, body: token };
      },
    },
  },
];

// First match wins: literal segments (cards/tokens, buyers/search, receipts/{id}/emails) come
// before the patterns whose captures would also take them.
export const routes: Route[] = [...transactionRoutes, ...sellerRoutes, ...accountRoutes, ...documentRoutes, ...recurrenceRoutes, ...financeRoutes, ...eventRoutes];

export function matchRoute(segments: string[], prefixed: boolean): { route: Route; params: Record<string, string> } | undefined {
  for (const route of routes) {
    if (route.pattern.length !== segments.length || (prefixed && route.outsidePrefix)) continue;
    const params: Record<string, string> = {};
    const matches = route.pattern.every((part, i) => {
      const segment = segments[i] as string;
      if (part.startsWith(':')) {
        params[part.slice(1)] = segment;
        return true;
      }
      return part === segment;
    });
    if (matches) return { route, params };
  }
  return undefined;
}
