import { setFlagsFromString } from 'node:v8';
import type { Dispatcher } from 'undici';
import { Agent, EnvHttpProxyAgent } from './undici-parts.js';
import { ApiError, NetworkError, UsageError } from '../errors.js';
import { buildUrl, endpointOf, type Endpoint, type Target } from './endpoints.js';
import { errorFromJson, errorFromText } from './error-body.js';
import { isLoopbackHost } from './loopback.js';
import { maskBody, maskHeaders, maskText } from './mask.js';

export interface ClientOptions {
  baseUrl: string;
  apiKey?: string | undefined;
  marketplaceId?: string | undefined;
  timeoutMs: number;
  userAgent: string;
  /** Proxy settings from the environment; ignored for loopback-only embedded use. */
  proxyEnv?: NodeJS.ProcessEnv | undefined;
  debug?: ((line: string) => void) | undefined;
  /** Values to blank out of anything logged (the key, card data read in this run). */
  secrets?: (() => string[]) | undefined;
  maxAttempts?: number;
  retryBaseMs?: number;
  /** Longest Retry-After the CLI is willing to sit through before giving up. */
  maxRetryAfterMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface RequestInput {
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Extra headers (`payctl api -H`); masked like the rest when shown. */
  headers?: Record<string, string>;
}

export interface PreparedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/**
 * A request that was (or may have been) sent and got no usable answer: the server may or may not
 * have applied it. Money-moving commands catch this and reconcile; anything else reports exit 8.
 */
export class UncertainOutcomeError extends NetworkError {}

// undici parses HTTP with a WebAssembly build of llhttp. V8 first compiles it with its baseline
// compiler, then re-optimises it on background threads, and a process exit waits for those jobs:
// measured here at about 100 ms and 35 MB on every command. A CLI makes a handful of requests,
// for which the baseline code is plenty, so the optimising tier is switched off (WebAssembly only;
// payctl runs no other).
setFlagsFromString('--liftoff-only');

/**
 * How many pages of a list are requested ahead of the one being written (see pages()): one, or two
 * when pages are large. Measured on 100,000-item exports: a large page (100 transactions, ~245 KB)
 * takes about as long to arrive as to write, so a second one in flight keeps the service busy
 * (3.7 s instead of 5 s); a small one (100 transfers, ~77 KB) arrives faster than it is written,
 * and a second in flight only holds more buffers (peak memory +25 %).
 */
const READ_AHEAD = 1;
const READ_AHEAD_LARGE = 2;
const LARGE_PAGE_BYTES = 128 * 1024;

const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

export class ApiClient {
  /** Told of every 429 (with the pause it asks for) before the request is retried: a batch slows all its workers. */
  onRateLimited?: (retryAfterMs: number) => void;
  private readonly options: Required<Pick<ClientOptions, 'maxAttempts' | 'retryBaseMs' | 'maxRetryAfterMs'>> & ClientOptions;
  private readonly dispatcher: Dispatcher;

  constructor(options: ClientOptions) {
    this.options = { maxAttempts: 3, retryBaseMs: 250, maxRetryAfterMs: 60_000, ...options };
    this.dispatcher = createDispatcher(options);
  }

  /** The exact request an operation would send, for --dry-run and --debug. */
  prepare(operation: Target, input: RequestInput = {}): PreparedRequest {
    const endpoint = endpointOf(operation);
    const url = buildUrl(operation, {
      baseUrl: this.options.baseUrl,
      marketplaceId: this.options.marketplaceId,
      ...(input.params ? { params: input.params } : {}),
      ...(input.query ? { query: input.query } : {}),
    });
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.options.userAgent,
    };
    if (this.options.apiKey !== undefined) {
      headers.authorization = `Basic ${Buffer.from(`${this.options.apiKey}:`).toString('base64')}`;
    }
    for (const [name, value] of Object.entries(input.headers ?? {})) headers[name.toLowerCase()] = value;
    const prepared: PreparedRequest = { method: endpoint.method, url: url.toString(), headers };
    if (input.body !== undefined) {
      headers['content-type'] = 'application/json';
      prepared.body = input.body;
    }
    return prepared;
  }

  /** What --dry-run prints: credentials and card data masked. */
  describe(operation: Target, input: RequestInput = {}): PreparedRequest {
    const prepared = this.prepare(operation, input);
    const shown: PreparedRequest = { method: prepared.method, url: prepared.url, headers: maskHeaders(prepared.headers) };
    if (prepared.body !== undefined) shown.body = maskBody(prepared.body);
    return shown;
  }

  async call<T = unknown>(operation: Target, input: RequestInput = {}): Promise<T> {
    const { status, text } = await this.exchange(operation, input);
    return parseSuccess<T>(status, text, endpointOf(operation));
  }

  /** For the few operations whose answer is not JSON (a rendered HTML receipt). */
  async callText(operation: Target, input: RequestInput = {}): Promise<{ text: string; contentType?: string | undefined }> {
    const { text, contentType } = await this.exchange(operation, input, 'text/html, application/json');
    return { text, contentType };
  }

  /** Sends with retries and turns error answers into errors; returns a successful answer's text. */
  private async exchange(operation: Target, input: RequestInput, accept?: string) {
    const endpoint = endpointOf(operation);
    const prepared = this.prepare(operation, input);
    if (accept) prepared.headers.accept = accept;
    // GET, PUT and DELETE are safe to repeat; a POST only when it provably never arrived or got 429.
    const repeatable = endpoint.method !== 'POST';
    const { maxAttempts } = this.options;
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= maxAttempts;
      let response: Awaited<ReturnType<typeof this.send>>;
      try {
        response = await this.send(prepared);
      } catch (err) {
        const code = errorCode(err);
        const neverSent = code !== undefined && NEVER_SENT_CODES.has(code);
        if (!last && (repeatable || neverSent)) {
          await this.wait(this.backoff(attempt), `${describeNetworkError(err, this.options.timeoutMs)}; retrying`);
          continue;
        }
        const message = `${describeNetworkError(err, this.options.timeoutMs)} (${prepared.method} ${hostOf(prepared.url)})`;
        if (!neverSent && endpoint.movesMoney) throw new UncertainOutcomeError(message, { cause: err });
        throw new NetworkError(message, { cause: err });
      }
      const { status, text, contentType, retryAfter } = response;
      if (status === 429) this.onRateLimited?.(retryAfter ?? this.backoff(attempt));
      if (status === 429 && !last) {
        const delay = retryAfter ?? this.backoff(attempt);
        if (delay <= this.options.maxRetryAfterMs) {
          await this.wait(delay, 'rate limited (HTTP 429); retrying');
          continue;
        }
      }
      if (status >= 500) {
        if (repeatable && !last) {
          await this.wait(retryAfter ?? this.backoff(attempt), `HTTP ${status}; retrying`);
          continue;
        }
        const error = parseError(status, text, contentType);
        if (endpoint.movesMoney) throw new UncertainOutcomeError(`${error.message} (HTTP ${status})`, { cause: error });
        throw error;
      }
      if (status >= 400) throw parseError(status, text, contentType);
      return response;
    }
  }

  /**
   * Pages of a list, at most `limit` items in all, or every page with `all`. The next page (two,
   * for large pages) is requested before this one is handed over, so the service prepares it while
   * this one is written: fetching and writing overlap instead of taking turns. A bounded number of
   * pages is held, so memory stays flat however long the list.
   *
   * Offsets follow what actually arrived: a service may answer fewer items than asked while
   * saying there are more (a page size cap), and then the pages requested ahead, whose offsets
   * assumed full pages, are dropped and asked again from where the list really is.
   */
  async *pages(
    operation: Target,
    input: RequestInput,
    opts: { limit: number; all: boolean; onPage?: (items: number, total: number | undefined) => void },
  ): AsyncGenerator<unknown[]> {
    const endpoint = endpointOf(operation);
    const wanted = opts.all ? Number.POSITIVE_INFINITY : opts.limit;
    let pageSize = opts.all ? 100 : Math.min(Math.max(opts.limit, 1), 100);
    let depth = READ_AHEAD;
    let end = Number.POSITIVE_INFINITY; // the list's length, once a page has shown it
    let cursor = 0; // offset of the next item to hand over
    let requested = 0; // offset the next request starts at
    let ahead: Array<{ offset: number; limit: number; answer: ReturnType<ApiClient['exchange']> }> = [];
    const fill = () => {
      while (ahead.length < depth && requested < Math.min(wanted, end)) {
        const offset = requested;
        const limit = Math.min(pageSize, wanted - offset);
        // Held as the answer's text and parsed only when its turn comes: a parsed page waiting
        // in memory outlives young-generation collections and piles up in the old one.
        const answer = this.exchange(operation, { ...input, query: { ...input.query, limit, offset } });
        // Awaited in turn below; until then a failure must not count as unhandled (the reader may stop early).
        answer.catch(() => undefined);
        ahead.push({ offset, limit, answer });
        requested += limit;
      }
    };
    fill();
    while (ahead.length > 0) {
      const { limit, answer } = ahead.shift() as (typeof ahead)[number];
      const { status, text } = await answer;
      depth = text.length > LARGE_PAGE_BYTES ? READ_AHEAD_LARGE : READ_AHEAD;
      const page = parseSuccess<ListEnvelope>(status, text, endpoint);
      const items = Array.isArray(page?.items) ? page.items : [];
      const total = Number(page?.total ?? page?.query_count);
      const more = typeof page?.has_more === 'boolean' ? page.has_more : Number.isFinite(total) && cursor + items.length < total;
      const taken = items.slice(0, Math.max(0, wanted - cursor));
      cursor += items.length;
      if (!more || items.length === 0) {
        end = cursor;
        ahead = [];
      } else if (items.length < limit) {
        // A short page that says there is more: the service's pages are smaller than asked.
        pageSize = items.length;
        ahead = [];
        requested = cursor;
      }
      fill();
      opts.onPage?.(taken.length, Number.isFinite(total) ? Math.min(total, wanted) : undefined);
      // One turn of the event loop, so the request just made is on the wire before the reader's
      // synchronous work on this page (CSV, JSON) holds the loop.
      await new Promise((resolve) => setImmediate(resolve));
      if (taken.length > 0) yield taken;
      if (cursor >= wanted) break;
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  private async send(prepared: PreparedRequest) {
    const started = Date.now();
    this.logRequest(prepared);
    const url = new URL(prepared.url);
    const response = await this.dispatcher.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: prepared.method as Dispatcher.HttpMethod,
      headers: prepared.headers,
      ...(prepared.body !== undefined ? { body: JSON.stringify(prepared.body) } : {}),
      headersTimeout: this.options.timeoutMs,
      bodyTimeout: this.options.timeoutMs,
    });
    const text = await response.body.text();
    const header = (name: string) => {
      const value = response.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const result = {
      status: response.statusCode,
      text,
      contentType: header('content-type'),
      retryAfter: parseRetryAfter(header('retry-after')),
    };
    this.logResponse(result.status, text, Date.now() - started);
    return result;
  }

  private backoff(attempt: number): number {
    // Exponential with jitter, so many clients retrying at once do not stay in step.
    const base = this.options.retryBaseMs * 2 ** (attempt - 1);
    return Math.round(base / 2 + Math.random() * (base / 2));
  }

  private async wait(ms: number, why: string): Promise<void> {
    this.options.debug?.(`* ${why} in ${ms} ms`);
    await (this.options.sleep ?? ((t: number) => new Promise((resolve) => setTimeout(resolve, t))))(ms);
  }

  private logRequest(prepared: PreparedRequest): void {
    const debug = this.options.debug;
    if (!debug) return;
    debug(`> ${prepared.method} ${prepared.url}`);
    for (const [name, value] of Object.entries(maskHeaders(prepared.headers))) debug(`> ${name}: ${value}`);
    if (prepared.body !== undefined) debug(`> ${this.scrub(JSON.stringify(maskBody(prepared.body)))}`);
  }

  private logResponse(status: number, text: string, ms: number): void {
    const debug = this.options.debug;
    if (!debug) return;
    debug(`< HTTP ${status} (${ms} ms)`);
    if (!text) return;
    let shown: string;
    try {
      shown = JSON.stringify(maskBody(JSON.parse(text)));
    } catch {
      shown = text;
    }
    debug(`< ${this.scrub(shown.length > 4000 ? `${shown.slice(0, 4000)}… (${shown.length} chars)` : shown)}`);
  }

  private scrub(text: string): string {
    return maskText(text, [...(this.options.apiKey ? [this.options.apiKey] : []), ...(this.options.secrets?.() ?? [])]);
  }
}

interface ListEnvelope {
  items?: unknown[];
  has_more?: boolean;
  total?: number | string;
  query_count?: number | string;
}

function createDispatcher(options: ClientOptions): Dispatcher {
  const connect = { timeout: options.timeoutMs };
  const env = options.proxyEnv;
  const httpProxy = env?.HTTP_PROXY ?? env?.http_proxy;
  const httpsProxy = env?.HTTPS_PROXY ?? env?.https_proxy;
  if (env && (httpProxy || httpsProxy)) {
    const noProxy = env.NO_PROXY ?? env.no_proxy;
    return new EnvHttpProxyAgent({
      connect,
      ...(httpProxy ? { httpProxy } : {}),
      ...(httpsProxy ? { httpsProxy } : {}),
      ...(noProxy !== undefined ? { noProxy } : {}),
    });
  }
  return new Agent({ connect });
}

function parseError(status: number, text: string, contentType: string | undefined): ApiError {
  try {
    const fromJson = errorFromJson(status, JSON.parse(text));
    if (fromJson) return fromJson;
  } catch {
    // not JSON: described from the text below
  }
  return errorFromText(status, text, contentType);
}

function parseSuccess<T>(status: number, text: string, endpoint: Endpoint): T {
  if (!text.trim()) return {} as T;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const message = `the service answered HTTP ${status} with a body that is not JSON`;
    if (endpoint.movesMoney) throw new UncertainOutcomeError(message);
    throw new NetworkError(message);
  }
  // Some provider errors arrive with HTTP 200.
  const error = errorFromJson(status, body);
  if (error) throw error;
  return body as T;
}

function parseRetryAfter(value: string | undefined): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown }; name?: string };
  if (typeof e?.code === 'string') return e.code;
  if (typeof e?.cause?.code === 'string') return e.cause.code;
  return undefined;
}

function describeNetworkError(err: unknown, timeoutMs: number): string {
  const code = errorCode(err);
  if (code && TIMEOUT_CODES.has(code)) return `no answer within ${Math.round(timeoutMs / 1000)} s (timeout)`;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused: is the service running and the base_url right?';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'could not resolve the host name of the base_url';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'the connection was closed before an answer arrived';
    default:
      return `network error: ${(err as Error)?.message ?? String(err)}`;
  }
}

function hostOf(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

/** Plain http:// is only for loopback (the sandbox, local tests) unless explicitly allowed. */
export function checkTransportSecurity(baseUrl: string, insecureHttp: boolean): void {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(`base_url "${baseUrl}" is not a valid URL`);
  }
  if (url.protocol === 'https:') return;
  if (url.protocol !== 'http:') throw new UsageError(`base_url "${baseUrl}" must use https://`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!isLoopbackHost(host) && !insecureHttp) {
    throw new UsageError(`refusing plain http:// to ${host}: the API key would travel unencrypted (use https://, or --insecure-http if you really mean it)`);
  }
}
