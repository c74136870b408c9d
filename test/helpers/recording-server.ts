import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

export interface RecordedRequest {
  method: string;
  url: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The body parsed, when it is JSON: unknown until a test checks it (see `sentFields`). */
  json?: unknown;
}

/** The fields of the JSON object `request` carried; none when it carried something else. */
export function sentFields(request: RecordedRequest): Record<string, unknown> {
  const { json } = request;
  return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
}

export type Reply =
  | { status: number; body?: unknown; headers?: Record<string, string>; raw?: string; delayMs?: number }
  | { destroy: true }
  | { hang: true }
  /** Sends the status and headers at once, then one byte of body every `everyMs`, never finishing. */
  | { trickle: true; status?: number; everyMs: number };

export type Route = (req: RecordedRequest, index: number) => Reply;

/**
 * A small local HTTP server for error and fault cases: it records every request and answers
 * from a list of replies, each used once and in turn, or from a function.
 *
 * Stubs and requests must match. A reply in the list that no request reached, or a function that
 * was never called, fails the test that made the server; so does a request that came after the
 * list was used up (a retry or a second read the test did not expect), answered with a 500
 * meanwhile and named in the failure. A test that proves nothing is sent gives an empty list.
 * The check runs when the test that made the server ends (unless it failed already), or, for a
 * server made outside a test (in beforeAll), at its close().
 */
export class RecordingServer {
  readonly requests: RecordedRequest[] = [];
  private server!: Server;
  private readonly sockets = new Set<import('node:net').Socket>();
  private checkedAtTestEnd = false;
  /** Every request as `METHOD path?query`, kept apart from `requests`, which tests may empty between runs. */
  private readonly asked: string[] = [];
  url = '';

  constructor(private readonly route: Route | Reply[]) {}

  async start(): Promise<this> {
    this.checkedAtTestEnd = checkAtTestEnd(() => this.unusedStubs());
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Connections still open: a client that gave up on an answer must have closed its own. */
  get openConnections(): number {
    return this.sockets.size;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    if (!this.checkedAtTestEnd) failOnUnused(this.unusedStubs());
  }

  /** What this server was given to answer that no request asked for, and any request it had nothing for. */
  unusedStubs(): string[] {
    const asked = this.asked;
    const got = asked.length === 0 ? 'no request came' : `the requests that came: ${asked.join(', ')}`;
    if (typeof this.route === 'function') {
      return asked.length === 0 ? [`the route ${describeRoute(this.route)} was never asked anything (${got})`] : [];
    }
    if (this.route.length === 0) return asked.map((request) => `${request} came to a server with no stub for it`);
    const unused = this.route.slice(asked.length).map((reply, i) => `reply ${asked.length + i + 1} of ${this.route.length} (${describeReply(reply)}) was never asked for (${got})`);
    return [...unused, ...unexpected(asked.slice(this.route.length), this.route.length)];
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      path: (req.url ?? '').split('?')[0] ?? '',
      headers: req.headers,
      body,
    };
    try {
      recorded.json = body ? JSON.parse(body) : undefined;
    } catch {
      // not JSON: keep the raw body
    }
    const index = this.requests.push(recorded) - 1;
    const turn = this.asked.push(`${recorded.method} ${recorded.url}`) - 1;
    const reply = typeof this.route === 'function' ? this.route(recorded, index) : (this.route[turn] ?? NO_STUB);
    if ('destroy' in reply) {
      req.socket.destroy();
      return;
    }
    if ('hang' in reply) return; // never answers: the client's timeout must fire
    if ('trickle' in reply) {
      // Never idle long enough for a per-read timeout, never done: only a deadline ends it.
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      res.write('{');
      const timer = setInterval(() => res.write(' '), reply.everyMs);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    const text = reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
    res.writeHead(reply.status, { 'content-type': reply.raw !== undefined ? 'text/plain' : 'application/json', ...reply.headers });
    res.end(text);
  }
}

const NO_STUB: Reply = { status: 500, body: { error: { message: 'the test server has no stub for this request' } } };

/** The requests that came after `given` replies were all used, each named. */
function unexpected(extra: string[], given: number): string[] {
  return extra.map((request, i) => `request ${given + i + 1} (${request}) came after the ${given === 1 ? 'reply given was' : `${given} replies given were`} used: a retry or a read the test did not expect`);
}

/**
 * Replies taken in turn by a route function that answers some requests itself (lookups, say) and
 * the rest from a list, each once; like the server's own list, every reply must be taken, and a
 * request after the last fails the test.
 */
export class RepliesInTurn {
  private readonly asked: string[] = [];

  constructor(private readonly replies: Reply[]) {
    if (!checkAtTestEnd(() => this.unused())) throw new Error('RepliesInTurn is checked when its test ends: make it inside a test');
  }

  /** The next reply, for `request` (as `METHOD path`, named if it is one too many). */
  next(request: RecordedRequest): Reply {
    const reply = this.replies[this.asked.length] ?? NO_STUB;
    this.asked.push(`${request.method} ${request.url}`);
    return reply;
  }

  unused(): string[] {
    const taken = this.asked.length;
    const unused = this.replies.slice(taken).map((reply, i) => `reply ${taken + i + 1} of ${this.replies.length} taken in turn (${describeReply(reply)}) was never asked for`);
    return [...unused, ...unexpected(this.asked.slice(this.replies.length), this.replies.length)];
  }
}

/** Registers `unused` to be checked when the running test ends; false outside a test (in beforeAll, say). */
function checkAtTestEnd(unused: () => string[]): boolean {
  try {
    onTestFinished(({ task }) => {
      // A test that failed already says more than its leftovers would.
      if (task.result?.state !== 'fail') failOnUnused(unused());
    });
    return true;
  } catch (error) {
    if (error instanceof Error && /only be called inside a test/.test(error.message)) return false;
    throw error;
  }
}

function failOnUnused(unused: string[]): void {
  if (unused.length > 0) throw new Error(`recording server: stubs and requests do not match (a stub no request asked for proves nothing; a request no stub was given for was not expected):\n  ${unused.join('\n  ')}`);
}

function describeReply(reply: Reply): string {
  if ('destroy' in reply) return 'drop the connection';
  if ('hang' in reply) return 'never answer';
  if ('trickle' in reply) return `HTTP ${reply.status ?? 200}, trickled`;
  const body = reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
  return `HTTP ${reply.status}${body ? ` ${body.length > 80 ? `${body.slice(0, 80)}…` : body}` : ''}`;
}

function describeRoute(route: Route): string {
  const source = route.toString().replace(/\s+/g, ' ');
  return source.length > 100 ? `${source.slice(0, 100)}…` : source;
}

/** `reply` given `count` times: a test that expects retries says how many. */
export function times(count: number, reply: Reply): Reply[] {
  return Array.from({ length: count }, () => reply);
}

export async function recordingServer(route: Route | Reply[]): Promise<RecordingServer> {
  return new RecordingServer(route).start();
}

/** The provider's error body. */
export function providerError(status: number, category: string, message: string, extra: Record<string, unknown> = {}) {
  return { error: { status: 'Error', status_code: status, type: 'invalid_request_error', category, message, ...extra } };
}
