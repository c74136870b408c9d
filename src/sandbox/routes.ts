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
import type { HttpMethod } from '../provider/endpoints.js';
import type { Handler, RequestContext, RouteTable } from './route.js';
import type { SandboxState, StoredTransaction } from './types.js';

// The route table: which handler serves which method and path (relative to /v1/ or
// /v1/marketplaces/{id}/). Handlers only glue validation, the state lock and the domain code.
// Transactions and tokens are here; each other family of resources has its routes-*.ts.

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

const transactionRoutes: RouteTable = {
  'GET transactions': reading((state, c) => listTransactions(state, c.query, c.path)),
  'POST transactions': async (c) => {
    const plan = planCreateTransaction(c.body, c.now());
    await plan.ready;
    const stored = await mutateState(c.stateDir, c.now, (state) => plan(state, c.now()));
    return { status: 201, body: stored.txn };
  },
  'GET transactions/:id': reading((state, c) => findTransaction(state, idOf(c)).txn),
  'PUT transactions/:id': changeTransaction((c) => planUpdate(c.body)),
  'POST transactions/:id/void': changeTransaction((c) => planVoid(c.body)),
  'POST transactions/:id/capture': changeTransaction((c) => planCapture(c.body)),
  // A boleto an invoice was billed with pays the invoice too (invoice-charge.ts).
  'POST transactions/:id/approve': changeTransaction(() => payBoleto),
  'GET transactions/:id/split_rules': reading((state, c) => listSplitRules(findTransaction(state, idOf(c)), c.query, c.path)),
  // The provider answers a new split rule with 200, not 201.
  'POST transactions/:id/split_rules': changeSplits(
    (c) => planAddSplitRule(c.body),
    (add, state, stored, c) => add(state, stored, c.now()),
  ),
  'GET transactions/:id/split_rules/:rule': reading((state, c) => findSplitRule(findTransaction(state, idOf(c)), c.params.rule ?? '')),
  'DELETE transactions/:id/split_rules/:rule': changeSplits(
    () => undefined,
    (_, state, stored, c) => removeSplitRule(state, stored, c.params.rule ?? '', c.now()),
  ),
  'GET transactions/:id/cancelled-letter': reading((state, c) => cancellationLetter(findTransaction(state, idOf(c)), c.origin)),
  // The provider answers 200 (not 201) for a new token; seed 4.2.
  'POST cards/tokens': planned((c) => validateTokenRequest(c.body, c.now()), (card, state, c) => createToken(state, card, c.now())),
};

interface Route {
  /** Literal segments, or `:name` to capture one. */
  pattern: string[];
  handlers: Partial<Record<HttpMethod, Handler>>;
  outsidePrefix: boolean;
}

/** The tables' handlers gathered by path, each path where it first comes. */
function byPath(tables: RouteTable[]): Route[] {
  const routes = new Map<string, Route>();
  for (const [key, handler] of tables.flatMap((table) => Object.entries(table))) {
    const [method, path] = key.split(' ') as [HttpMethod, string];
    const route = routes.get(path) ?? { pattern: path.split('/'), handlers: {}, outsidePrefix: false };
    route.handlers[method] = handler;
    route.outsidePrefix ||= handler.outsidePrefix === true;
    routes.set(path, route);
  }
  return [...routes.values()];
}

// First match wins: literal segments (cards/tokens, buyers/search, receipts/{id}/emails) come
// before the patterns whose captures would also take them.
const routes = byPath([transactionRoutes, sellerRoutes, accountRoutes, documentRoutes, recurrenceRoutes, financeRoutes, eventRoutes]);

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
