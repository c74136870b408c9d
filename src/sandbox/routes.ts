import { accountRoutes } from './routes-accounts.js';
import { documentRoutes, documentSandboxRoutes } from './routes-documents.js';
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
import { endpoints, type Operation } from '../provider/endpoints.js';
import { matcherOf, type ApiPath, type WrongMethod } from '../provider/operation-of.js';
import type { JsonObject } from './http.js';
import { checkedBody } from './request-schemas.js';
import type { BodyOf, Handler, Reply, RequestContext, RouteTable, SandboxOnlyRoute } from './route.js';
import type { SandboxState, StoredTransaction } from './types.js';

// The route table: which handler serves each operation of the endpoint table (provider/endpoints.ts,
// where its method and path are written), and the sandbox-only routes with their own. Handlers only
// glue validation, the state lock and the domain code. Transactions and tokens are here; each other
// family of resources has its routes-*.ts.

/** A change of one transaction, planned from the request first; answers the transaction. */
const changeTransaction = <B>(plan: (c: RequestContext<B>) => TransactionChange) => changingOne(findTransaction, plan, (stored) => stored.txn);

/** A change of a transaction's split rules, planned from the request first; its parts are settled again after it. */
const changeSplits = <P, B>(plan: (c: RequestContext<B>) => P, change: (made: P, state: SandboxState, stored: StoredTransaction, c: RequestContext<B>) => unknown) =>
  planned(plan, (made, state, c) => {
    const stored = findTransaction(state, idOf(c));
    const answer = change(made, state, stored, c);
    settleTransaction(state, stored, c.now());
    return answer;
  });

const transactionRoutes = {
  'transactions.list': reading((state, c) => listTransactions(state, c.query, c.path)),
  'transactions.create': async (c) => {
    const plan = planCreateTransaction(c.body, c.now());
    await plan.ready;
    const stored = await mutateState(c.stateDir, c.now, (state) => plan(state, c.now()));
    return { status: 201, body: stored.txn };
  },
  'transactions.get': reading((state, c) => findTransaction(state, idOf(c)).txn),
  'transactions.update': changeTransaction((c) => planUpdate(c.body)),
  'transactions.void': changeTransaction((c) => planVoid(c.body)),
  'transactions.capture': changeTransaction((c) => planCapture(c.body)),
  // A boleto an invoice was billed with pays the invoice too (invoice-charge.ts).
  'transactions.approve': changeTransaction(() => payBoleto),
  'transactions.splits.list': reading((state, c) => listSplitRules(findTransaction(state, idOf(c)), c.query, c.path)),
  // The provider answers a new split rule with 200, not 201.
  'transactions.splits.add': changeSplits(
    (c) => planAddSplitRule(c.body),
    (add, state, stored, c) => add(state, stored, c.now()),
  ),
  'transactions.splits.get': reading((state, c) => findSplitRule(findTransaction(state, idOf(c)), c.params.rule ?? '')),
  'transactions.splits.remove': changeSplits(
    () => undefined,
    (_, state, stored, c) => removeSplitRule(state, stored, c.params.rule ?? '', c.now()),
  ),
  'transactions.cancellationLetter': reading((state, c) => cancellationLetter(findTransaction(state, idOf(c)), c.origin)),
  // The provider answers 200 (not 201) for a new token; seed 4.2.
  'cards.tokenize': planned((c) => validateTokenRequest(c.body, c.now()), (card, state, c) => createToken(state, card, c.now())),
} satisfies RouteTable;

/** Every operation of the endpoint table, and the handler that serves it. */
export const operationRoutes: { [O in Operation]: Handler<BodyOf<O>> } = {
  ...transactionRoutes,
  ...sellerRoutes,
  ...accountRoutes,
  ...documentRoutes,
  ...recurrenceRoutes,
  ...financeRoutes,
  ...eventRoutes,
};

/** The routes the provider has no operation for, each with its own method and path. */
export const sandboxOnlyRoutes = { ...documentSandboxRoutes } satisfies Record<string, SandboxOnlyRoute>;

type RouteName = Operation | keyof typeof sandboxOnlyRoutes;

/** A route as the server takes it: the handler, once the body is read as its operation's. */
export interface Route extends Pick<Handler, 'ownsCatchUp' | 'noBody'> {
  /** Checks `body` against the operation's request schema (a 400 when it does not meet it), and gives the handler to call with it. */
  take(body: JsonObject): (c: Omit<RequestContext, 'body'>) => Promise<Reply>;
}

function routeOf<B>(handler: Handler<B>, read: (body: JsonObject) => B): Route {
  return {
    ownsCatchUp: handler.ownsCatchUp,
    noBody: handler.noBody,
    take: (raw) => {
      const body = read(raw);
      return (c) => handler({ ...c, body });
    },
  };
}

const operationRoute = <O extends Operation>(operation: O): Route => routeOf(operationRoutes[operation], (body) => checkedBody(operation, body));

const routes = new Map<RouteName, Route>([
  ...(Object.keys(endpoints) as Operation[]).map((operation) => [operation, operationRoute(operation)] as const),
  ...Object.entries(sandboxOnlyRoutes).map(([name, { handler }]) => [name as RouteName, routeOf(handler, (body) => body)] as const),
]);

const matchRoute = matcherOf<RouteName>({ ...endpoints, ...sandboxOnlyRoutes });

/** The route of a request's method and path under /v1/, with the path's values; or the methods its path takes; or undefined. */
export function findRoute(method: string, path: ApiPath): { route: Route; params: Record<string, string> } | WrongMethod | undefined {
  const matched = matchRoute(method, path);
  if (!matched || 'allowed' in matched) return matched;
  return { route: routes.get(matched.operation) as Route, params: matched.params };
}
