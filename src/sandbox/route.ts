import type { Endpoint, Operation } from '../provider/endpoints.js';
import type { RequestBody, requestSchemas } from '../provider/schemas/requests.js';
import type { SandboxClock } from './clock.js';
import type { JsonObject } from './http.js';
import type { SandboxState } from './types.js';

// What a route is: the shape every route table (routes.ts and routes-*.ts) is written in, apart from
// the tables, so that routes.ts can gather them without any of them importing it back.

/** The body a route of `O` is handed: what its request schema made of it, else the JSON object sent. */
export type BodyOf<O extends string> = O extends keyof typeof requestSchemas ? RequestBody<O> : JsonObject;

export interface RequestContext<Body = unknown> {
  stateDir: string;
  /** The sandbox's time (clock.ts): the only time a handler may use. */
  now: SandboxClock;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Already checked against the operation's request schema, and as the schema parsed it (BodyOf). */
  body: Body;
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

export interface Handler<Body = unknown> {
  (c: RequestContext<Body>): Promise<Reply>;
  /** It runs what fell due itself, so the server does not before calling it. */
  ownsCatchUp?: boolean;
  /** The provider takes no request body here and answers 415 to one. */
  noBody?: boolean;
}

/** Handlers by the operation they serve (provider/endpoints.ts), each handed its operation's body. */
export type RouteTable = { [O in Operation]?: Handler<BodyOf<O>> };

/** A route the provider has no operation for: the sandbox's alone, with its own method and path. */
export interface SandboxOnlyRoute extends Endpoint {
  sandboxOnly: true;
  handler: Handler<JsonObject>;
}

/** What a creation's plan gives: the change that makes the record under the lock, and answers it. */
export type Creation<T> = (state: SandboxState, now: Date) => T;

/** What an update's plan gives: the change made to the record it is handed, under the lock. */
export type Change<R> = (record: R, state: SandboxState, now: Date) => void;
