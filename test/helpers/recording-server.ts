import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  json?: any;
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
 * from a list of replies (the last one repeats), or from a function.
 */
export class RecordingServer {
  readonly requests: RecordedRequest[] = [];
  private server!: Server;
  private readonly sockets = new Set<import('node:net').Socket>();
  url = '';

  constructor(private readonly route: Route | Reply[]) {}

  async start(): Promise<this> {
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
    const reply = typeof this.route === 'function' ? this.route(recorded, index) : this.route[Math.min(index, this.route.length - 1)]!;
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

export async function recordingServer(route: Route | Reply[]): Promise<RecordingServer> {
  return new RecordingServer(route).start();
}

/** The provider's error body. */
export function providerError(status: number, category: string, message: string, extra: Record<string, unknown> = {}) {
  return { error: { status: 'Error', status_code: status, type: 'invalid_request_error', category, message, ...extra } };
}
