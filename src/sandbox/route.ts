import type { HttpMethod } from '../provider/endpoints.js';
import type { SandboxClock } from './clock.js';
import type { JsonObject } from './http.js';
import type { SandboxState } from './types.js';

// What a route is: the shape every route table (routes.ts and routes-*.ts) is written in, apart from
// the tables, so that routes.ts can gather them without any of them importing it back.

export interface RequestContext {
  stateDir: string;
  /** The sandbox's time (clock.ts): the only time a handler may use. */
  now: SandboxClock;
  params: Record<string, string>;
  query: URLSearchParams;
  body: JsonObject;
  /** The path as the client sent it, echoed as a list's `uri`. */
  path: string;
  /** scheme://host:port the client reached, for links back into the sandbox (plus /m/<marketplace> under sandbox serve). */
  origin: string;
}

export interface Reply {
  status: number;
  /** JSON, unless contentType says otherwise; then the text to send as is. */
  body: unknown;
  contentType?: string;
}

export interface Handler {
  (c: RequestContext): Promise<Reply>;
  /** It runs what fell due itself, so the server does not before calling it. */
  ownsCatchUp?: boolean;
  /** The provider takes no request body here and answers 415 to one. */
  noBody?: boolean;
  /** The few provider paths that name the marketplace themselves answer only without the prefix. */
  outsidePrefix?: boolean;
}

/** Handlers by method and path: "GET transactions/:id", where `:name` captures one segment. */
export type RouteTable = Record<`${HttpMethod} ${string}`, Handler>;

/** What a creation's plan gives: the change that makes the record under the lock, and answers it. */
export type Creation<T> = (state: SandboxState, now: Date) => T;

/** What an update's plan gives: the change made to the record it is handed, under the lock. */
export type Change<R> = (record: R, state: SandboxState, now: Date) => void;
