import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { catchUpIfDue } from './catch-up.js';
import { reportSandboxNotices } from './db/database.js';
import { startDeliverer, type Deliverer, type DeliveryOptions } from './deliverer.js';
import { prepareSandboxDir } from './paths.js';
import { drawFault, type FaultPlan } from './faults.js';
import { sandboxClock, type SandboxClock } from './clock.js';
import { SandboxError } from './errors.js';
import { requireMarketplace } from './handlers.js';
import { checkAuth, parseJsonObject, readBody, sendError, sendJson, sendText } from './http.js';
import { findRoute } from './routes.js';
import { apiPathOf, type ApiPath } from '../provider/operation-of.js';
import { marketplaceExists, marketplaceName, marketplaceStateDir } from './marketplaces.js';
import { readState, releaseState } from './store.js';
import { cancellationLetter, findTransaction, LETTERS_PATH } from './transactions.js';

export interface SandboxOptions {
  stateDir: string;
  /** Default 127.0.0.1: the sandbox takes test keys only, but still has no business on a network. */
  host?: string;
  /** Default 0: an ephemeral port, so concurrent payctl processes never collide. */
  port?: number;
  /** Real time, under the sandbox clock's offset (clock.ts); tests pin it. */
  now?: () => Date;
  /** Deliver events to webhooks from this process (sandbox serve, webhooks listen); see deliverer.ts. */
  deliver?: boolean | DeliveryOptions;
  /** Fail a share of requests on purpose (sandbox serve --faults); see faults.ts. */
  faults?: FaultPlan;
  /**
   * Each API key its own marketplace (marketplaces.ts), and only keys long enough to be someone's
   * own: for sandbox serve, where any program may call. The embedded sandbox has one key, and one state.
   */
  isolateKeys?: boolean;
  /** Where a line for the user goes (a database of another build recreated); stderr by default. */
  onNotice?: (line: string) => void;
}

export interface SandboxHandle {
  url: string;
  port: number;
  /** Stops serving and releases the state; `now` cuts open connections at once instead of after a moment. */
  close(options?: { now?: boolean }): Promise<void>;
}

/** The server's options, and what it keeps while it runs. */
interface ServerContext extends SandboxOptions {
  now: () => Date;
  /** Requests whose connection was dropped and that are still to be applied (late-apply). */
  late: Set<NodeJS.Timeout>;
  /** The state directories served so far, each with its deliverer when this server delivers. */
  opened: Map<string, Deliverer | undefined>;
  /** Set once close() has begun: a request still in flight then starts no deliverer that would outlive the server. */
  closing: boolean;
}

/** Serves `stateDir` from now on: its deliverer starts, if this server delivers. */
function serveState(ctx: ServerContext, stateDir: string): void {
  ctx.opened.set(stateDir, ctx.deliver && !ctx.closing ? startDeliverer(stateDir, ctx.now, ctx.deliver === true ? {} : ctx.deliver) : undefined);
}

/** A marketplace this server had not served yet is made ready: its directory (0700), and its deliverer. */
function openMarketplace(ctx: ServerContext, stateDir: string): void {
  if (ctx.opened.has(stateDir)) return;
  prepareSandboxDir(stateDir);
  serveState(ctx, stateDir);
}

/**
 * The marketplace of the request's key: the state directory the request works on, and the start of
 * links back into it. Its letters live under /m/<its name>: a letter's URL is fetched without
 * credentials (as the provider's pre-signed ones are), so the path says whose it is.
 */
function marketplaceOf(req: IncomingMessage, ctx: ServerContext) {
  const key = checkAuth(req, ctx.isolateKeys);
  const origin = `http://${req.headers.host ?? 'localhost'}`;
  if (!ctx.isolateKeys) return { stateDir: ctx.stateDir, origin };
  const name = marketplaceName(key);
  const stateDir = marketplaceStateDir(ctx.stateDir, name) as string;
  openMarketplace(ctx, stateDir);
  return { stateDir, origin: `${origin}/m/${name}` };
}

const ISOLATED_LETTER = /^\/m\/([0-9a-f]{32})(\/.*)$/;

/** The state a letter's path points into and the letter's name, if the path is a letter's. */
function letterOf(pathname: string, ctx: ServerContext): { stateDir: string; name: string } | undefined {
  let stateDir: string | undefined = ctx.stateDir;
  let rest = pathname;
  if (ctx.isolateKeys) {
    const match = ISOLATED_LETTER.exec(pathname);
    if (!match) return undefined;
    const name = match[1] as string;
    // A marketplace never used has no letters; its directory is not made for a stranger's request.
    stateDir = marketplaceExists(ctx.stateDir, name) ? marketplaceStateDir(ctx.stateDir, name) : undefined;
    rest = match[2] as string;
  }
  if (!rest.startsWith(LETTERS_PATH)) return undefined;
  if (!stateDir) throw new SandboxError(404, 'resource_not_found', 'Sorry, that letter does not exist.');
  return { stateDir, name: rest.slice(LETTERS_PATH.length) };
}

function unknownRoute(method: string, pathname: string): SandboxError {
  return new SandboxError(404, 'resource_not_found', `Sorry, the resource you are trying to use does not exist: ${method} ${pathname}.`);
}

async function handle(req: IncomingMessage, res: ServerResponse, ctx: ServerContext): Promise<void> {
  try {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://sandbox.local');
    // One clock per request: it learns the clock offset from each state the request loads.
    const clock = sandboxClock(ctx.now);
    const letter = method === 'GET' ? letterOf(url.pathname, ctx) : undefined;
    if (letter) {
      await serveLetter(letter.name, res, letter.stateDir, clock);
      return;
    }
    const market = marketplaceOf(req, ctx);
    let path: ApiPath | undefined;
    try {
      path = apiPathOf(url.pathname);
    } catch {
      throw new SandboxError(400, 'invalid_parameter', 'Invalid request: the path is not valid percent-encoding.');
    }
    if (!path) throw unknownRoute(method, url.pathname);
    // Every route also answers under the provider's /v1/marketplaces/{id}/ prefix, but those outside it.
    if (path.marketplace !== undefined) requireMarketplace(path.marketplace);
    const match = findRoute(method, path);
    if (!match) throw unknownRoute(method, url.pathname);
    if ('allowed' in match) {
      throw new SandboxError(405, 'invalid_request', `Method ${method} is not allowed on ${url.pathname}.`, { headers: { Allow: match.allowed.join(', ') } });
    }
    const { route, params } = match;
    const raw = method === 'POST' || method === 'PUT' ? await readBody(req) : '';
    if (route.noBody && raw.trim() !== '') {
      throw new SandboxError(415, 'unsupported_media_type', `Unsupported media type: ${method} ${url.pathname} takes no request body.`);
    }
    const handler = route.take(parseJsonObject(raw));
    // Injected failures (faults.ts), on the API only: the sandbox's own clock and generator stay reliable.
    const fault = ctx.faults && path.segments[0] !== 'sandbox' ? drawFault(ctx.faults) : undefined;
    if (fault === '500-before') throw new SandboxError(500, 'server_api_error', 'Injected fault: the service failed before applying the request.');
    if (fault === '429') {
      throw new SandboxError(429, 'rate_limit_error', 'Injected fault: too many requests.', { headers: { 'Retry-After': String(ctx.faults?.retryAfterSeconds ?? 1) } });
    }
    if (fault === 'reset-before') {
      req.socket.destroy();
      return;
    }
    if (fault === 'slow') await new Promise((resolve) => setTimeout(resolve, ctx.faults?.slowMs ?? 0));
    const apply = async () => {
      // Whatever fell due since the last request (billings, expiries, over-due invoices) happens
      // before this one is served, so it sees the sandbox as it is at this moment.
      if (!route.ownsCatchUp) await catchUpIfDue(market.stateDir, clock);
      return handler({ ...market, now: clock, params, query: url.searchParams, path: url.pathname });
    };
    if (fault === 'late-apply' && method !== 'GET') {
      req.socket.destroy();
      const timer = setTimeout(() => {
        ctx.late.delete(timer);
        // Applied with no one listening: a refusal is as lost as a success.
        apply().catch(() => undefined);
      }, ctx.faults?.lateMs ?? 0);
      ctx.late.add(timer);
      return;
    }
    const reply = await apply();
    // Applied, and then the answer is lost: the case a client must reconcile.
    if (fault === '500-after') throw new SandboxError(500, 'server_api_error', 'Injected fault: the service failed after applying the request.');
    if (fault === 'reset-after') {
      req.socket.destroy();
      return;
    }
    if (reply.contentType) sendText(res, reply.status, String(reply.body), reply.contentType);
    else sendJson(res, reply.status, reply.body);
  } catch (err) {
    sendError(res, err);
  }
}

/** A one-page PDF standing in for the provider's cancellation letter of a canceled transaction. */
async function serveLetter(name: string, res: ServerResponse, stateDir: string, clock: SandboxClock): Promise<void> {
  const id = /^Carta_Cancelamento_([0-9a-f]{32})\.pdf$/.exec(name)?.[1];
  if (!id) throw new SandboxError(404, 'resource_not_found', 'Sorry, that letter does not exist.');
  cancellationLetter(findTransaction(await readState(stateDir, clock), id), '');
  const text = `Carta de cancelamento - transacao ${id}`;
  const stream = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  res.writeHead(200, { 'Content-Type': 'application/pdf', 'Content-Length': Buffer.byteLength(pdf) });
  res.end(pdf);
}

export function startSandbox(opts: SandboxOptions): Promise<SandboxHandle> {
  if (opts.onNotice) reportSandboxNotices(opts.onNotice);
  const now = opts.now ?? (() => new Date());
  const ctx: ServerContext = { ...opts, stateDir: path.resolve(opts.stateDir), now, late: new Set(), opened: new Map(), closing: false };
  const host = opts.host ?? '127.0.0.1';
  const server = createServer((req, res) => {
    void handle(req, res, ctx);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const urlHost = host.includes(':') ? `[${host}]` : host;
      let closing: Promise<void> | undefined;
      // One state from the start (its directory made by the caller); with isolated keys, each
      // marketplace's on its first request.
      if (!ctx.isolateKeys) serveState(ctx, ctx.stateDir);
      resolve({
        url: `http://${urlHost}:${port}`,
        port,
        // Idempotent, because both a command's cleanup and a signal handler may call it.
        close: ({ now = false } = {}) => {
          // Closing now (the process is about to exit): connections are cut at once, not given a moment.
          if (now) server.closeAllConnections();
          return (closing ??= new Promise<void>((done, fail) => {
            ctx.closing = true;
            // Requests still waiting to be applied late are dropped with the server, as a queue is lost with its service.
            for (const timer of ctx.late) clearTimeout(timer);
            ctx.late.clear();
            const stopped = Promise.all(
              [...ctx.opened].map(async ([stateDir, deliverer]) => {
                await deliverer?.stop();
                await releaseState(stateDir);
              }),
            );
            server.close((err) => (err ? fail(err) : void stopped.then(() => done())));
            // Keep-alive sockets would hold close() open until they time out; requests still in
            // flight get a moment to finish first.
            server.closeIdleConnections();
            setTimeout(() => server.closeAllConnections(), 1000).unref();
          }));
        },
      });
    });
  });
}
