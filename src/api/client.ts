import type { Dispatcher } from 'undici';
import { GcPacer } from '../platform/runtime.js';
import { ApiError, NetworkError, OutcomeUnknownError, UsageError, ValidationError } from '../errors.js';
import { endpointOf, type Endpoint, type Operation, type Target } from '../provider/endpoints.js';
import type { AnswerOf } from '../provider/answer-types.js';
import { buildUrl } from './url.js';
import { errorFromText } from './error-body.js';
import { AnswerTooLargeError, DEFAULT_MAX_ANSWER_MB, DEFAULT_MAX_LIST_ITEMS, MAX_ANSWER_DEPTH, nestsDeeperThan, readBoundedText } from './answer-limits.js';
import { ReadBound, readLimitsOf, type ReadLimits } from './read-bound.js';
import { isLoopbackHost } from '../platform/loopback.js';
import { controlCharacterIn } from './control-text.js';
import { maskBody, maskHeader, maskHeaders, maskText } from './mask.js';
import { withoutControls } from '../platform/control-chars.js';
import { answerNoun, answerOf, describeAnswer, kindOf, LIST_PAGE, withArticle } from '../provider/schemas/answers.js';
import type { ListPage } from '../provider/schemas/index.js';

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
  /**
   * The largest answer read, in bytes (PAYCTL_MAX_ANSWER_MB; default 32 MB): a longer one is
   * stopped once past it, or refused at once when its Content-Length says so, and is unusable.
   */
  maxAnswerBytes?: number;
  /**
   * The bound every list and item-by-item read of this client shares (read-bound.ts): items
   * (PAYCTL_MAX_LIST_ITEMS; default ten million), and pages, time and memory held, which follow
   * from it and from the runtime unless given.
   */
  readLimits?: Partial<ReadLimits>;
  sleep?: (ms: number) => Promise<void>;
  /**
   * --dry-run: called with each request, masked, instead of sending it. It throws (DryRunStop),
   * so nothing at all leaves the machine, reads included.
   */
  instead?: ((shown: PreparedRequest) => Promise<never>) | undefined;
}

export interface RequestInput {
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Extra headers (`payctl api -H`); masked like the rest when shown. */
  headers?: Record<string, string>;
  /**
   * A read the command can do without (a name shown in place of an id): sent once, never retried
   * or waited for after a 429, and given at most this long (--timeout when that is shorter), so a
   * slow service cannot hold up what the command prints.
   */
  optionalWithinMs?: number;
  /**
   * A request that does much work (a part of a generated volume): given this long to answer when
   * it is longer than --timeout, so that a slow or busy machine does not fail it. The caller bounds it.
   */
  workMs?: number;
}

export interface PreparedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/**
 * A money-moving request that was (or may have been) sent and got no usable answer: the server
 * may or may not have applied it. Money-moving commands catch this and reconcile through the
 * ledger; one that reaches the top is exit 9, never a plain network error.
 */
export class UncertainOutcomeError extends OutcomeUnknownError {
  /**
   * Whether the service answered at all (a 5xx, a redirect, an answer of the wrong shape): then it
   * has finished with the request, which cannot land later. False for a timeout or a dropped
   * connection, where the request may still sit in a queue on the service's side.
   */
  readonly answered: boolean;
  constructor(message: string, options: { cause?: unknown; answered: boolean }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.answered = options.answered;
  }
}

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
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'PAYCTL_DEADLINE']);

/**
 * How many recent pages of a list are remembered to notice a service answering the same items
 * again (see pages()). Ten pages of 100 ids: enough to catch a service stuck on one page or
 * cycling through a few, while memory stays flat however long the list.
 */
const RECENT_PAGES = 10;

/**
 * Pages of a list between two full garbage collections (see platform/runtime.ts): 5,000 items of 100 a
 * page. A page's answer (~245 KB of text for transactions) waits while the page before it is
 * written, so it outlives young-generation collections; once read, it is garbage that only a full
 * collection frees: 100 pages are 24 MB of it. Measured on the
 * embedded sandbox, 100,000 transactions against 10,000: `list --all` 1.25× without pacing, 1.03×
 * every 100 pages; `export` to NDJSON 1.14× every 100 pages, 1.05× every 50, in the same time;
 * every 20 or 30 pages costs 10–25 % more time.
 */
const GC_EVERY_PAGES = 50;

/** The longest a timer may be armed for (setTimeout's limit); --timeout allows at most 600 s. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * --timeout reached: the whole exchange (connect, headers and the full body) took too long. Told
 * apart from undici's own timeouts, which are idle timers that a server trickling a byte now and
 * then never trips.
 */
class DeadlineError extends Error {
  readonly code = 'PAYCTL_DEADLINE';
  constructor(timeoutMs: number) {
    super(`no answer within ${formatSeconds(timeoutMs)} s`);
  }
}

type Schemas = typeof import('../provider/schemas/index.js');
let schemas: Promise<Schemas> | undefined;

/** zod costs start-up time, so the schemas load with the first answer that has one to meet. */
function loadSchemas(): Promise<Schemas> {
  schemas ??= import('../provider/schemas/index.js');
  return schemas;
}

/** How long a list is, as its last page read says: its total when the service gives one, and whether more follow. */
export interface ListExtent {
  total: number | undefined;
  more: boolean;
}

export class ApiClient {
  /** Told of every 429 (with the pause it asks for) before the request is retried: a batch slows all its workers. */
  onRateLimited?: (retryAfterMs: number) => void;
  /**
   * Told before every wait between attempts (a 429's Retry-After, a backoff after a 5xx or a
   * connection that never opened): a batch counts them against its --max-wait, and throws to
   * stop waiting. Thrown before a retry, never while a request is out: nothing is left in doubt.
   */
  beforeRetryWait?: (ms: number) => void;
  /** What this client's reads (one command's) have read, against their bound: lists count here, and transfers explain's items. */
  readonly readBound: ReadBound;
  private readonly options: Required<Pick<ClientOptions, 'maxAttempts' | 'retryBaseMs' | 'maxRetryAfterMs' | 'maxAnswerBytes'>> & ClientOptions;
  private dispatcher?: Promise<Dispatcher>;

  constructor(options: ClientOptions) {
    this.options = { maxAttempts: 3, retryBaseMs: 250, maxRetryAfterMs: 60_000, maxAnswerBytes: DEFAULT_MAX_ANSWER_MB * 1024 * 1024, ...options };
    this.readBound = new ReadBound({ ...readLimitsOf(options.readLimits?.items ?? DEFAULT_MAX_LIST_ITEMS), ...options.readLimits });
  }

  /**
   * undici, loaded with the first request (undici.ts): a dry run, or a bulk file refused before
   * anything is sent, never pays for it.
   */
  private dispatch(): Promise<Dispatcher> {
    this.dispatcher ??= import('./undici.js').then(({ default: undici }) => createDispatcher(undici, this.options));
    return this.dispatcher;
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
    const shown: PreparedRequest = { method: prepared.method, url: prepared.url, headers: maskHeaders(prepared.headers, this.headerSecrets()) };
    if (prepared.body !== undefined) shown.body = maskBody(prepared.body);
    return shown;
  }

  /**
   * The answer to an operation, parsed. An answer that is not what the operation gives (see
   * schemas/) is refused: for a money-moving operation its outcome is then unknown
   * (UncertainOutcomeError, for the command to reconcile), for anything else it is exit 8.
   */
  call<O extends Operation>(operation: O, input?: RequestInput): Promise<AnswerOf<O>>;
  /** An endpoint made up on the spot (`payctl api`), or a caller that names the type it reads. */
  call<T = unknown>(operation: Target, input?: RequestInput): Promise<T>;
  async call(operation: Target, input: RequestInput = {}): Promise<unknown> {
    if (input.body !== undefined) await checkRequest(operation, input.body);
    const answer = await this.exchange(operation, input);
    return readAnswer(operation, answer);
  }

  /**
   * For the few operations whose answer is not JSON (a rendered HTML receipt), and `payctl api`.
   * An answer that is JSON (by its type, or its first character) and nests too deep is refused
   * as call() refuses it, since it is parsed next.
   */
  async callText(operation: Target, input: RequestInput = {}): Promise<{ text: string; contentType?: string | undefined }> {
    const answer = await this.exchange(operation, input, { accept: 'text/html, application/json' });
    const { text, contentType } = answer;
    if ((/json/i.test(contentType ?? '') || /^\s*[[{]/.test(text)) && nestsDeeperThan(text, MAX_ANSWER_DEPTH)) throw tooDeep(endpointOf(operation), answer);
    return { text, contentType };
  }

  /**
   * Sends with retries and turns error answers into errors; returns a successful (2xx) answer.
   * `expected` names what the answer should be, for messages ("not the list page").
   */
  private async exchange(operation: Target, input: RequestInput, options: { accept?: string; expected?: string } = {}): Promise<Answer> {
    const endpoint = endpointOf(operation);
    if (this.options.instead) await this.options.instead(this.describe(operation, input));
    const prepared = this.prepare(operation, input);
    if (options.accept) prepared.headers.accept = options.accept;
    const request = `${prepared.method} ${hostOf(prepared.url)}`;
    // GET, PUT and DELETE are safe to repeat; a POST only when it provably never arrived or got 429.
    // A request that moves money is never sent twice on a guess, whatever its method (an invoice
    // refund is a DELETE): after a lost answer the command looks before anything is sent again.
    const repeatable = endpoint.method !== 'POST' && !endpoint.movesMoney;
    const { maxRetryAfterMs } = this.options;
    const optional = input.optionalWithinMs;
    const maxAttempts = optional === undefined ? this.options.maxAttempts : 1;
    const timeoutMs = optional === undefined ? Math.max(this.options.timeoutMs, input.workMs ?? 0) : Math.min(optional, this.options.timeoutMs);
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= maxAttempts;
      let response: Awaited<ReturnType<typeof this.send>>;
      try {
        response = await this.send(prepared, timeoutMs);
      } catch (err) {
        // An answer too large to read is not asked for again: it would be as large the next time.
        if (err instanceof AnswerTooLargeError) throw unusable(endpoint, `the service's answer to ${request} ${err.message}`);
        const code = errorCode(err);
        const neverSent = code !== undefined && NEVER_SENT_CODES.has(code);
        if (!last && (repeatable || neverSent)) {
          await this.wait(this.backoff(attempt), `${describeNetworkError(err, timeoutMs)}; retrying`);
          continue;
        }
        const message = `${describeNetworkError(err, timeoutMs)} (${request})`;
        if (!neverSent && endpoint.movesMoney) throw new UncertainOutcomeError(message, { cause: err, answered: false });
        throw new NetworkError(message, { cause: err });
      }
      const { status, text, contentType, retryAfter } = response;
      if (!isSuccess(status) && !isError(status)) {
        const expected = options.expected ?? expectedAnswer(operation);
        const what = expected ? `the ${expected}` : `the answer to ${request}`;
        throw unusable(endpoint, describeOddStatus(status, response.location, prepared.url, what, (t) => this.scrub(t)));
      }
      // A pause longer than payctl waits is not waited for: the request fails now, as it would
      // after its last attempt, rather than sit silent for minutes (or hours) on the service's word.
      const waitRefused = retryAfter !== undefined && retryAfter > maxRetryAfterMs;
      const refusal = () =>
        `the service asked to wait ${formatSeconds(retryAfter ?? 0)} s before retrying, more than payctl waits (${formatSeconds(maxRetryAfterMs)} s)`;
      if (status === 429) {
        const delay = retryAfter ?? this.backoff(attempt);
        this.onRateLimited?.(Math.min(delay, maxRetryAfterMs));
        if (!last) {
          if (!waitRefused) {
            await this.wait(delay, 'rate limited (HTTP 429); retrying');
            continue;
          }
          throw withNote(await parseError(status, text, contentType), refusal());
        }
      }
      if (status >= 500) {
        const wouldRetry = repeatable && !last;
        if (wouldRetry && !waitRefused) {
          await this.wait(retryAfter ?? this.backoff(attempt), `HTTP ${status}; retrying`);
          continue;
        }
        let error = await parseError(status, text, contentType);
        if (wouldRetry) error = withNote(error, refusal());
        if (endpoint.movesMoney) throw new UncertainOutcomeError(`${error.message} (HTTP ${status})`, { cause: error, answered: true });
        throw error;
      }
      if (status >= 400) throw await parseError(status, text, contentType);
      return { status, text, contentType, request };
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
   *
   * A list must end. Reading stops with a NetworkError (exit 8) when the service
   *   - answers an empty page yet says there is more (has_more true; or, when it gives no
   *     has_more, a total above what was read): asking again would get the same empty page forever;
   *   - answers a non-empty page whose every item (of those with an `id`) was already handed over
   *     in the last RECENT_PAGES pages: a service answering the same page again, whatever the offset;
   *   - takes the command's reads past their bound (readBound: items, pages, time, memory held),
   *     shared with its other lists: a list with no end, whose every page is new.
   * Items repeated only in part (a new item at the head of the list shifts it while it is read, so
   * the last items of one page come again at the start of the next) are dropped, not written twice.
   * Only the ids of the last RECENT_PAGES pages are remembered, so memory stays flat; items without
   * an `id` cannot be recognised and are always handed over.
   */
  async *pages(
    operation: Target,
    input: RequestInput,
    opts: { limit: number; all: boolean; offset?: number; onPage?: (items: number, total: number | undefined) => void; onExtent?: (extent: ListExtent) => void },
  ): AsyncGenerator<unknown[]> {
    const wanted = opts.all ? Number.POSITIVE_INFINITY : opts.limit;
    // Where reading starts: a page of the list further in (a tool's cursor), its items before unread.
    const start = opts.offset ?? 0;
    let pageSize = opts.all ? 100 : Math.min(Math.max(opts.limit, 1), 100);
    let depth = READ_AHEAD;
    let end = Number.POSITIVE_INFINITY; // the list's length, once a page has shown it
    let cursor = start; // offset of the next item to read
    let requested = start; // offset the next request starts at
    let handed = 0; // items handed over
    let dropped = 0; // items skipped as already handed over: read past `wanted` by as many
    const recent = new RecentIds(RECENT_PAGES);
    const pacer = new GcPacer(GC_EVERY_PAGES);
    let ahead: Array<{ offset: number; limit: number; answer: Promise<Answer> }> = [];
    // How long the last page said the list is, when that page was a full one: the next page can
    // then be asked for before this one is parsed (see below).
    let foretold = Number.NEGATIVE_INFINITY;
    const fill = (upTo = end, inFlight = depth) => {
      const goal = start + wanted + dropped;
      while (ahead.length < inFlight && requested < Math.min(goal, upTo)) {
        const offset = requested;
        const limit = Math.min(pageSize, goal - offset);
        // Held as the answer's text and parsed only when its turn comes: a parsed page waiting
        // in memory outlives young-generation collections and piles up in the old one.
        const answer = this.exchange(operation, { ...input, query: { ...input.query, limit, offset } }, { expected: LIST_PAGE });
        // Awaited in turn below; until then a failure must not count as unhandled (the reader may stop early).
        answer.catch(() => undefined);
        ahead.push({ offset, limit, answer });
        requested += limit;
      }
    };
    fill();
    while (ahead.length > 0) {
      const { offset, limit, answer } = ahead.shift() as (typeof ahead)[number];
      const reply = await answer;
      depth = reply.text.length > LARGE_PAGE_BYTES ? READ_AHEAD_LARGE : READ_AHEAD;
      // With nothing else on its way (small pages), the next page is asked for now, while this one
      // is parsed and checked, when the page before it was full and told the list's length: the
      // service prepares it meanwhile instead of waiting for the request. Never past that length;
      // if this page turns out short or last, the request is dropped with the others ahead, as
      // below. Large pages already have one on its way; a third would only hold more memory.
      fill(Math.min(end, foretold), 1);
      const page = await readListPage(operation, reply);
      const items = page.items;
      const total = Number(page.total ?? page.query_count);
      const knownTotal = Number.isFinite(total);
      const more = typeof page.has_more === 'boolean' ? page.has_more : knownTotal && cursor + items.length < total;
      if (items.length === 0 && more) {
        const claim = page.has_more === true ? 'has_more true' : `total ${total}, ${cursor} read`;
        throw new NetworkError(
          `the service answered an empty page of ${reply.request} at offset ${offset} yet says there are more items (${claim}); ${this.readBound.stoppedAfter()}, the list is incomplete`,
        );
      }
      const fresh = items.filter((item) => !recent.has(idOf(item)));
      if (items.length > 0 && fresh.length === 0) {
        const same = items.length === 1 ? 'the same item' : `the same ${items.length} items`;
        throw new NetworkError(
          `the service answered a repeated page: ${reply.request} at offset ${offset} gave ${same} it had already sent; ${this.readBound.stoppedAfter()} rather than read the list forever, the list is incomplete`,
        );
      }
      // Every page checked on its own may be fine and the list still have no end (new items,
      // and more, forever): the command's reads together are bounded.
      this.readBound.count(reply.request, items.length);
      recent.add(items.map(idOf));
      foretold = knownTotal && items.length === limit ? total : Number.NEGATIVE_INFINITY;
      dropped += items.length - fresh.length;
      const taken = fresh.slice(0, Math.max(0, wanted - handed));
      cursor += items.length;
      handed += taken.length;
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
      opts.onPage?.(taken.length, knownTotal ? Math.min(total, wanted) : undefined);
      opts.onExtent?.({ total: knownTotal ? total : undefined, more: more && items.length > 0 });
      pacer.page();
      // One turn of the event loop, so the request just made is on the wire before the reader's
      // synchronous work on this page (CSV, JSON) holds the loop.
      await new Promise((resolve) => setImmediate(resolve));
      if (taken.length > 0) yield taken;
      if (handed >= wanted) break;
    }
  }

  async close(): Promise<void> {
    if (this.dispatcher) await (await this.dispatcher).close();
  }

  private async send(prepared: PreparedRequest, timeoutMs: number) {
    const started = Date.now();
    this.logRequest(prepared);
    const url = new URL(prepared.url);
    // headersTimeout and bodyTimeout restart with every byte; the deadline bounds the whole
    // exchange, so a server trickling its answer is cut off at --timeout like a silent one.
    const deadline = new AbortController();
    // Made only when the deadline passes: an error records its stack when it is made, which at
    // thousands of requests a second showed in profiles.
    let expired: DeadlineError | undefined;
    const expire = () => {
      expired = new DeadlineError(timeoutMs);
      deadline.abort(expired);
    };
    const timer = Number.isFinite(timeoutMs) && timeoutMs > 0 ? setTimeout(expire, Math.min(timeoutMs, MAX_TIMER_MS)) : undefined;
    let response: Dispatcher.ResponseData | undefined;
    try {
      const dispatcher = await this.dispatch();
      response = await dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: prepared.method as Dispatcher.HttpMethod,
        headers: prepared.headers,
        ...(prepared.body !== undefined ? { body: JSON.stringify(prepared.body) } : {}),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: deadline.signal,
      });
      const header = (name: string) => {
        const value = response?.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      // Read as it arrives and stopped past the limit (undici does not decompress: payctl sends no
      // Accept-Encoding, so the bytes counted are the body as it came).
      let text: string;
      try {
        text = await readBoundedText(response.body, header('content-length'), this.options.maxAnswerBytes);
      } catch (err) {
        if (err instanceof AnswerTooLargeError) this.logResponse(response.statusCode, response.headers, '', Date.now() - started);
        throw err;
      }
      const result = {
        status: response.statusCode,
        text,
        contentType: header('content-type'),
        retryAfter: parseRetryAfter(header('retry-after')),
        location: header('location'),
      };
      this.logResponse(result.status, response.headers, text, Date.now() - started);
      return result;
    } catch (err) {
      // Whatever cut the exchange short, the socket goes with it: nothing is left reading.
      response?.body.destroy();
      // undici rejects with the abort's reason itself; a connect that was still pending at the
      // deadline fails with its own (never-sent) connect timeout instead, and keeps it.
      if (expired && (err === expired || (deadline.signal.aborted && (err as { cause?: unknown })?.cause === expired))) throw expired;
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  private backoff(attempt: number): number {
    // Exponential with jitter, so many clients retrying at once do not stay in step.
    const base = this.options.retryBaseMs * 2 ** (attempt - 1);
    return Math.round(base / 2 + Math.random() * (base / 2));
  }

  private async wait(ms: number, why: string): Promise<void> {
    this.beforeRetryWait?.(ms);
    this.options.debug?.(`* ${why} in ${ms} ms`);
    await (this.options.sleep ?? ((t: number) => new Promise((resolve) => setTimeout(resolve, t))))(ms);
  }

  private logRequest(prepared: PreparedRequest): void {
    const debug = this.options.debug;
    if (!debug) return;
    debug(`> ${prepared.method} ${prepared.url}`);
    for (const [name, value] of Object.entries(maskHeaders(prepared.headers, this.headerSecrets()))) debug(`> ${name}: ${value}`);
    if (prepared.body !== undefined) debug(`> ${this.scrub(JSON.stringify(maskBody(prepared.body)))}`);
  }

  private logResponse(status: number, headers: Dispatcher.ResponseData['headers'], text: string, ms: number): void {
    const debug = this.options.debug;
    if (!debug) return;
    debug(`< HTTP ${status} (${ms} ms)`);
    // A service may answer with a credential too (Set-Cookie, a fresh token, a signature): masked
    // as the request's are. A repeated header (Set-Cookie) is a line each.
    const secrets = this.headerSecrets();
    for (const [name, value] of Object.entries(headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) debug(`< ${name}: ${this.scrub(maskHeader(name, one, secrets))}`);
    }
    if (!text) return;
    let shown = text;
    // Parsed to mask it only when it is not nested past the limit (parseJson refuses those).
    if (!nestsDeeperThan(text, MAX_ANSWER_DEPTH)) {
      try {
        shown = JSON.stringify(maskBody(JSON.parse(text)));
      } catch {
        // not JSON: shown as it came
      }
    }
    debug(`< ${this.scrub(shown.length > 4000 ? `${shown.slice(0, 4000)}… (${shown.length} chars)` : shown)}`);
  }

  /** A logged line: secrets masked, and nothing a terminal would act on (a hostile answer's escapes). */
  private scrub(text: string): string {
    return withoutControls(maskText(text, [...(this.options.apiKey ? [this.options.apiKey] : []), ...(this.options.secrets?.() ?? [])]));
  }

  /** What a header value must not show: the key as it is, as it goes in Basic auth, and card data. */
  private headerSecrets(): string[] {
    const key = this.options.apiKey;
    return [...(key ? [key, Buffer.from(`${key}:`).toString('base64')] : []), ...(this.options.secrets?.() ?? [])];
  }
}

/** A successful (2xx) answer as it arrived, with the request it answers ("GET https://…/v1/x"). */
interface Answer {
  status: number;
  text: string;
  contentType?: string | undefined;
  request: string;
}

/** The ids of the items handed over in the last few pages of a list. */
class RecentIds {
  private readonly pages: Array<Set<string>> = [];
  constructor(private readonly keep: number) {}

  has(id: string | undefined): boolean {
    return id !== undefined && this.pages.some((page) => page.has(id));
  }

  add(ids: Array<string | undefined>): void {
    this.pages.push(new Set(ids.filter((id): id is string => id !== undefined)));
    if (this.pages.length > this.keep) this.pages.shift();
  }
}

function idOf(item: unknown): string | undefined {
  if (item === null || typeof item !== 'object') return undefined;
  const id = (item as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

function createDispatcher({ Agent, EnvHttpProxyAgent }: typeof import('./undici.js').default, options: ClientOptions): Dispatcher {
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

async function parseError(status: number, text: string, contentType: string | undefined): Promise<ApiError> {
  // An error body nested past the limit is not parsed: the status says what happened.
  if (nestsDeeperThan(text, MAX_ANSWER_DEPTH)) return errorFromText(status, text, contentType);
  try {
    const body: unknown = JSON.parse(text);
    const { errorFromJson } = await import('./error-json.js');
    const fromJson = errorFromJson(status, body);
    if (fromJson) return fromJson;
  } catch {
    // not JSON: described from the text below
  }
  return errorFromText(status, text, contentType);
}

/**
 * A successful answer as the operation's result, checked against the schema of what the
 * operation gives (schemas/answers.ts). Error bodies that arrive under 2xx become their errors; an
 * answer that does not fit is refused (see unusable()). `payctl api`'s own endpoints still need JSON.
 */
async function readAnswer(operation: Target, answer: Answer): Promise<unknown> {
  const endpoint = endpointOf(operation);
  const expected = answerOf(operation);
  const refuse = (why: string) => unusable(endpoint, `the service's answer to ${answer.request} is not ${why}`);
  if (!answer.text.trim()) {
    // Removals may answer 204 with nothing: that is their whole answer.
    if (expected && expected.shape !== 'removal') throw refuse(`${describeAnswer(expected)} (empty body, HTTP ${answer.status})`);
    return {};
  }
  const body = await parseJson(answer, endpoint);
  if (expected) {
    const { findAnswerMismatch } = await loadSchemas();
    const mismatch = findAnswerMismatch(expected, body);
    if (mismatch) throw refuse(`${describeAnswer(expected)} (${mismatch})`);
  } else if (typeof operation === 'string' && !isJsonObject(body)) {
    throw refuse(`a JSON object (got ${kindOf(body)})`);
  }
  return body;
}

/**
 * A page of a list, checked like any answer, items included: a page that is not one, or an item
 * that is not the resource, ends the list with exit 8 rather than print half-understood rows.
 */
async function readListPage(operation: Target, answer: Answer): Promise<ListPage> {
  const endpoint = endpointOf(operation);
  const expected = answerOf(operation);
  const what = expected?.shape === 'list' ? describeAnswer(expected) : withArticle(LIST_PAGE);
  const refuse = (why: string) => new NetworkError(`the service's answer to ${answer.request} is not ${what} (${why})`);
  if (!answer.text.trim()) throw refuse(`empty body, HTTP ${answer.status}`);
  const body = await parseJson(answer, endpoint);
  const { findAnswerMismatch, findMismatch, listPageSchema } = await loadSchemas();
  const mismatch = expected?.shape === 'list' ? findAnswerMismatch(expected, body) : findMismatch(listPageSchema, body);
  if (mismatch) throw refuse(mismatch);
  return body as ListPage;
}

/**
 * The last look at a body before it is sent (schemas/requests.ts): one that the service would
 * refuse, or that carries a mistake, is exit 2 naming the flag. Loaded only for a request with a
 * body, so a read never pays for it.
 */
async function checkRequest(operation: Target, body: unknown): Promise<void> {
  const control = controlCharacterIn(body);
  if (control) {
    const { flagFor } = await import('../provider/schemas/requests.js');
    throw new ValidationError(flagFor(control.path), `holds a control character, ${control.character}, which the service would store; write it without one. Nothing was sent`);
  }
  const { checkRequestBody, hasRequestSchema } = await import('../provider/schemas/requests.js');
  if (!hasRequestSchema(operation)) return;
  const problem = checkRequestBody(operation, body);
  if (problem) throw new ValidationError(problem.flag, problem.message);
}

/** The answer's JSON; an error body that arrived with HTTP 2xx is thrown as that error. */
async function parseJson(answer: Answer, endpoint: Endpoint): Promise<unknown> {
  // JSON.parse would build every level: 5 million nested arrays (10 MB of text) took 577 MB.
  if (nestsDeeperThan(answer.text, MAX_ANSWER_DEPTH)) throw tooDeep(endpoint, answer);
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    throw unusable(endpoint, `the service answered HTTP ${answer.status} with a body that is not JSON (${answer.request})`);
  }
  // Some provider errors arrive with HTTP 200.
  const { errorFromJson } = await import('./error-json.js');
  const error = errorFromJson(answer.status, body);
  if (error) throw error;
  return body;
}

/** An answer nested deeper than MAX_ANSWER_DEPTH, refused before it is parsed. */
function tooDeep(endpoint: Endpoint, answer: Answer): NetworkError {
  return unusable(endpoint, `the service's answer to ${answer.request} nests deeper than ${MAX_ANSWER_DEPTH} levels; not parsed`);
}

/** An answer that cannot be used: for a money-moving request, whether it was applied is unknown. */
function unusable(endpoint: Endpoint, message: string): NetworkError {
  return endpoint.movesMoney ? new UncertainOutcomeError(message, { answered: true }) : new NetworkError(message);
}

/** What an operation's answer is called ("transaction", "transaction list"), for messages. */
function expectedAnswer(operation: Target): string | undefined {
  const expected = answerOf(operation);
  return expected && answerNoun(expected);
}

function isJsonObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

function isError(status: number): boolean {
  return status >= 400 && status < 600;
}

/**
 * A status that is neither a success nor an error: a redirect (never followed: the API key would
 * go wherever the service points, and a repeated POST could move money twice), 304, or a code
 * outside HTTP's classes. The Location is shown without credentials, query or fragment.
 */
function describeOddStatus(status: number, location: string | undefined, requestUrl: string, expected: string, scrub: (text: string) => string): string {
  if (status >= 300 && status < 400 && location) {
    return `the service answered HTTP ${status} (redirect to ${scrub(describeLocation(location, requestUrl))}), not ${expected}; redirects are not followed`;
  }
  return `the service answered HTTP ${status} (neither a success nor an error), not ${expected}`;
}

function describeLocation(location: string, requestUrl: string): string {
  let target: URL;
  try {
    target = new URL(location, requestUrl);
  } catch {
    return 'an address that is not a URL';
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return `a ${target.protocol.replace(/:$/, '').slice(0, 20)} address`;
  const shown = `${target.protocol}//${target.host}${target.pathname}`;
  return shown.length > 200 ? `${shown.slice(0, 200)}…` : shown;
}

/** The error with a sentence added to its message; the rest (status, category) unchanged. */
function withNote(error: ApiError, note: string): ApiError {
  return new ApiError(`${error.message}; ${note}`, error.details);
}

/** "0.3", "30", "1.5": seconds as a person would write them. */
function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return String(seconds >= 10 ? Math.round(seconds) : Math.round(seconds * 10) / 10 || Math.round(seconds * 1000) / 1000);
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
  if (code && TIMEOUT_CODES.has(code)) return `no answer within ${formatSeconds(timeoutMs)} s (timeout)`;
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
