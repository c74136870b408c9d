import { accountRoutes } from './routes-accounts.js';
import { documentRoutes } from './routes-documents.js';
import { eventRoutes } from './routes-events.js';
import { financeRoutes } from './routes-finance.js';
import { payBoleto } from './invoice-charge.js';
import { recurrenceRoutes } from './routes-recurrence.js';
import { sellerRoutes } from './routes-sellers.js';
import { changingOne, idOf, planned, reading } from './handlers.js';
import { mutateState } from './store.js';
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
import type { RequestContext, Route } from './route.js';
import type { SandboxState, StoredTransaction } from './types.js';

// The route table: which handler serves which method and path (relative to /v1/ or
// /v1/marketplaces/{id}/). Handlers only glue validation, the state lock and the domain code.
// Transactions and tokens are here; buyers, cards and sources in routes-accounts.ts; boletos,
// receipts and receivables in routes-documents.ts; plans, subscriptions, invoices and the sandbox
// clock in routes-recurrence.ts; balances, transfers and future entries in routes-finance.ts;
// webhooks and events in routes-events.ts.

/** A change of one transaction, planned from the request first; answers the transaction. */
const changeTransaction = (plan: (c: RequestContext) => TransactionChange) => changingOne(findTransaction, plan, (stored) => stored.txn);

/** A change of a transaction's split rules, planned from the request first; its parts are settled again after it. */
const changeSplits = <P>(plan: (c: RequestContext) => P, change: (made: P, state: SandboxState, stored: StoredTransaction, c: RequestContext) => unknown) =>
  planned(plan, (made, state, c) => {
    const stored = findTransaction(state, idOf(c));
    const answer = change(made, state, stored, c);
    settleTransaction(state, stored, c.now());
    return answer;
  });

const transactionRoutes: Route[] = [
  {
    pattern: ['transactions'],
    handlers: {
      GET: reading((state, c) => listTransactions(state, c.query, c.path)),
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
    handlers: { GET: reading((state, c) => findTransaction(state, idOf(c)).txn), PUT: changeTransaction((c) => planUpdate(c.body)) },
  },
  { pattern: ['transactions', ':id', 'void'], handlers: { POST: changeTransaction((c) => planVoid(c.body)) } },
  { pattern: ['transactions', ':id', 'capture'], handlers: { POST: changeTransaction((c) => planCapture(c.body)) } },
  // A boleto an invoice was billed with pays the invoice too (invoice-charge.ts).
  { pattern: ['transactions', ':id', 'approve'], handlers: { POST: changeTransaction(() => payBoleto) } },
  {
    pattern: ['transactions', ':id', 'split_rules'],
    handlers: {
      GET: reading((state, c) => listSplitRules(findTransaction(state, idOf(c)), c.query, c.path)),
      // The provider answers a new split rule with 200, not 201.
      POST: changeSplits(
        (c) => planAddSplitRule(c.body),
        (add, state, stored, c) => add(state, stored, c.now()),
      ),
    },
  },
  {
    pattern: ['transactions', ':id', 'split_rules', ':rule'],
    handlers: {
      GET: reading((state, c) => findSplitRule(findTransaction(state, idOf(c)), c.params.rule ?? '')),
      DELETE: changeSplits(
        () => undefined,
        (_, state, stored, c) => removeSplitRule(state, stored, c.params.rule ?? '', c.now()),
      ),
    },
  },
  { pattern: ['transactions', ':id', 'cancelled-letter'], handlers: { GET: reading((state, c) => cancellationLetter(findTransaction(state, idOf(c)), c.origin)) } },
  // The provider answers 200 (not 201) for a new token; seed 4.2.
  {
    pattern: ['cards', 'tokens'],
    handlers: { POST: planned((c) => validateTokenRequest(c.body, c.now()), (card, state, c) => createToken(state, card, c.now())) },
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
