import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { ALL_EVENTS, eventMatches } from '../../provider/event-types.js';
import { checkDeliverySignature, DEFAULT_TOLERANCE_SECONDS, type SignatureCheck } from '../../provider/webhook-signature.js';
import type { Factory } from '../../factory.js';
import { UsageError, ValidationError } from '../../errors.js';
import { handleInterruptsHere } from '../../platform/interrupt.js';
import { optionalString, stringList } from '../shared/input.js';
import { capConnections, declaredTooLarge, MAX_CONNECTIONS, readBounded, refuseAndClose, SERVER_LIMITS } from './listen-limits.js';
import { seenEvents } from './seen-events.js';
import { checkEventTypes, checkWebhookUrl, listenColumns, listenRow } from './shared.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { listen } from './flags.js';

// A local receiver for webhook deliveries, for watching events arrive from a terminal: each one
// printed as it comes (a table row on a terminal, NDJSON when piped), answered 200, and optionally
// forwarded to a local app. What is printed may drive a script (`--max-events 1 | jq …`), so only
// a delivery signed with the secret, recently, and not seen before is printed: until the secret is
// known every request is answered 503, and a forged, stale or repeated one is never printed.
// Against a sandbox it registers itself as a webhook for its run and removes it when it stops.
// Anything that reaches the port can send to it, so what a sender gets is bounded (see
// listen-limits.ts): a body is read only once its signature header could be right, and only up to
// 1 MB; connections are capped and timed out.

export interface ListenOptions {
  port: number;
  events: string[];
  forwardTo?: string;
  secret?: string;
  maxEvents?: number;
  toleranceSeconds: number;
}

export function buildListenOptions(options: OptionsOf<typeof listen>): ListenOptions {
  const rawPort = optionalString(options.port) ?? '0';
  if (!/^\d+$/.test(rawPort) || Number(rawPort) > 65535) throw new ValidationError('--port', 'give a port number from 0 to 65535 (0: any free port)');
  const types = stringList(options.event);
  const listen: ListenOptions = { port: Number(rawPort), events: types.length > 0 ? checkEventTypes(types) : [ALL_EVENTS], toleranceSeconds: DEFAULT_TOLERANCE_SECONDS };
  const forwardTo = optionalString(options.forwardTo);
  if (forwardTo !== undefined) listen.forwardTo = checkWebhookUrl(forwardTo, '--forward-to');
  const secret = optionalString(options.secret);
  if (secret !== undefined) listen.secret = secret;
  const max = optionalString(options.maxEvents);
  if (max !== undefined) {
    if (!/^\d+$/.test(max) || Number(max) < 1) throw new ValidationError('--max-events', 'give a whole number of 1 or more');
    listen.maxEvents = Number(max);
  }
  const tolerance = optionalString(options.tolerance);
  if (tolerance !== undefined) {
    if (!/^\d+$/.test(tolerance) || Number(tolerance) < 1 || Number(tolerance) > 86_400) throw new ValidationError('--tolerance', 'give a whole number of seconds from 1 to 86400');
    listen.toleranceSeconds = Number(tolerance);
  }
  return listen;
}

/** One header's value; a header sent more than once is not taken as any one of them. */
function headerValue(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The event id a request claims, when it looks like one (it is not signed), for stderr. */
function claimedEvent(req: IncomingMessage): string {
  const claimed = req.headers['x-payctl-delivery'];
  return typeof claimed === 'string' && /^[\w-]{1,64}$/.test(claimed) ? claimed : '?';
}

/** Why a delivery was refused, for stderr. */
function refusal(check: Exclude<SignatureCheck, { ok: true }>, req: IncomingMessage, toleranceSeconds: number): string {
  const event = claimedEvent(req);
  const why = {
    missing: 'has no X-Payctl-Signature',
    malformed: 'has an X-Payctl-Signature that is not t=<unix seconds>,v1=<hex>',
    mismatch: 'has an X-Payctl-Signature that does not match its body',
    stale: `is signed more than ${toleranceSeconds} s from this machine's clock (a replay, or a clock that is off)`,
  }[check.why];
  return `rejected a delivery that ${why} (event ${event}); not printed`;
}

const tooLarge = (req: IncomingMessage) => `rejected a delivery larger than 1 MB (event ${claimedEvent(req)}); not printed`;

const NO_BODY = Buffer.alloc(0);

/** Sends the delivery on to the local app as it came: same body, same signature headers. */
function forward(url: string, body: Buffer, headers: IncomingMessage['headers']): Promise<string> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const passOn = Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith('x-payctl-') || name === 'content-type'));
    const req = send(target, { method: 'POST', headers: { ...passOn, 'content-length': String(body.length) }, timeout: 10_000 }, (res) => {
      res.resume();
      resolve(String(res.statusCode ?? '?'));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolve(`failed (${(err as NodeJS.ErrnoException).code ?? err.message})`));
    req.end(body);
  });
}

/** A queue the HTTP handler pushes printed events into and the renderer pulls pages from. */
function eventChannel() {
  const waiting: Array<Record<string, unknown>> = [];
  let wake: (() => void) | undefined;
  let closed = false;
  return {
    push(item: Record<string, unknown>) {
      waiting.push(item);
      wake?.();
    },
    close() {
      closed = true;
      wake?.();
    },
    async *pages(): AsyncGenerator<unknown[]> {
      for (;;) {
        if (waiting.length > 0) yield waiting.splice(0);
        else if (closed) return;
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}

export async function run(ctx: Factory, _args: ArgsOf<typeof listen>, options: OptionsOf<typeof listen>): Promise<void> {
  const listen = buildListenOptions(options);
  await ctx.service.requireApiKey();
  // payctl's sandbox takes a webhook to this machine and tells its secret; any other service (a
  // live account, the provider's own test keys) could not reach this machine.
  const sandbox = await ctx.service.isPayctlSandbox();
  // Nothing unverified is ever printed, so without the secret any other receiver could print nothing.
  if (!sandbox && !listen.secret) throw new ValidationError('--secret', "give the webhook's signing secret: only payctl's sandbox registers this listener itself, and deliveries from any other service are verified with it");
  // Events arrive as a stream: a table on a terminal, otherwise one JSON object a line.
  const format = (await ctx.out.outputFormat()) === 'table' ? 'table' : 'ndjson';
  const channel = eventChannel();
  let printed = 0;
  let secret = listen.secret;
  const seen = seenEvents();
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (stop = resolve));

  const server: Server = createServer(SERVER_LIMITS, (req, res) => {
    void (async () => {
      if (secret === undefined) {
        // Registered but not yet told the secret: nothing can be verified, so nothing is taken
        // (nor read); the sender retries.
        refuseAndClose(res, 503, { 'retry-after': '1' });
        return;
      }
      const signature = headerValue(req.headers['x-payctl-signature']);
      // Before reading: a header missing or not of the form t=…,v1=… is refused whatever the body
      // (its form is checked before any body is looked at, so an empty one stands in), and so is
      // a body that says it is over 1 MB.
      const form = checkDeliverySignature(secret, NO_BODY, signature, 0, listen.toleranceSeconds);
      if (!form.ok && (form.why === 'missing' || form.why === 'malformed')) {
        ctx.log.warn(refusal(form, req, listen.toleranceSeconds));
        refuseAndClose(res, form.status);
        return;
      }
      if (declaredTooLarge(req)) {
        ctx.log.warn(tooLarge(req));
        refuseAndClose(res, 413);
        return;
      }
      const body = await readBounded(req);
      if (body === 'aborted') return;
      if (body === 'too-large') {
        // Read as far as 1 MB (chunked, no length said), the rest not kept: answered and closed.
        ctx.log.warn(tooLarge(req));
        refuseAndClose(res, 413);
        return;
      }
      answering(req, res);
      const check = checkDeliverySignature(secret, body, signature, Math.floor(Date.now() / 1000), listen.toleranceSeconds);
      if (!check.ok) {
        ctx.log.warn(refusal(check, req, listen.toleranceSeconds));
        res.writeHead(check.status).end();
        return;
      }
      let event: Record<string, unknown>;
      try {
        event = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      } catch {
        res.writeHead(400).end();
        return;
      }
      // A delivery is checked like any answer before it is printed or forwarded.
      const { findMismatch, resourceSchemas } = await import('../../provider/schemas/index.js');
      const mismatch = findMismatch(resourceSchemas.event, event);
      if (mismatch) {
        ctx.log.warn(`rejected a delivery that is not an event (${mismatch})`);
        res.writeHead(400).end();
        return;
      }
      // Taken once: a repeat is acknowledged so the sender stops, and not acted on again.
      if (!seen.firstTime(String(event.id))) {
        ctx.log.status(`acknowledged ${String(event.id)} again; already taken, not printed or forwarded again`);
        res.writeHead(200).end();
        return;
      }
      if (!eventMatches(listen.events, String(event.type)) || (listen.maxEvents !== undefined && printed >= listen.maxEvents)) {
        res.writeHead(200).end();
        return;
      }
      printed += 1;
      const forwarded = listen.forwardTo ? await forward(listen.forwardTo, body, req.headers) : undefined;
      res.writeHead(200).end();
      if (format === 'table') channel.push(listenRow(event, forwarded));
      else {
        channel.push(event);
        if (forwarded !== undefined) ctx.log.status(`forwarded ${String(event.id)} (${String(event.type)}) to ${listen.forwardTo}: ${forwarded}`);
      }
      if (listen.maxEvents !== undefined && printed >= listen.maxEvents) stop();
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  const answering = capConnections(server, () =>
    ctx.log.warn(`closing idle connections: more than ${MAX_CONNECTIONS} were open at once (a sender holding connections without sending?); the oldest idle one makes room for each new one (said once)`),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(err.code === 'EADDRINUSE' ? new UsageError(`--port: ${listen.port} is already in use`) : err));
    server.listen(listen.port, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;

  let webhookId: string | undefined;
  const onSignal = () => stop();
  const release = handleInterruptsHere();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    if (sandbox) {
      // The embedded sandbox has no server of its own between commands: this process delivers.
      ctx.service.deliverWebhooksFromEmbeddedSandbox();
      const api = await ctx.api();
      const created = await api.call<{ id: string; secret: string }>('webhooks.create', {
        body: { method: 'POST', url, description: `payctl webhooks listen (pid ${process.pid})`, event: listen.events },
      });
      webhookId = created.id;
      secret ??= created.secret;
      ctx.log.status(`Listening on ${url} for ${listen.events.join(', ')}; registered as webhook ${webhookId} until you stop (Ctrl-C).`);
    } else {
      ctx.log.status(`Listening on ${url}; not registered (this service is not payctl's sandbox): make it reachable and add it with 'payctl webhooks create --url … --event …'. Ctrl-C stops.`);
    }
    // Only signed deliveries are printed: no column says so of each.
    const columns = listenColumns(listen.events, listen.forwardTo !== undefined);
    const { renderList } = await import('../../output/render.js');
    const rendering = renderList(channel.pages(), { format, out: ctx.io.stdout, color: ctx.out.color, columns, ...(ctx.globals.fields ? { fields: ctx.globals.fields } : {}) });
    await stopped;
    channel.close();
    await rendering;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    release();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (webhookId) {
      await (await ctx.api()).call('webhooks.remove', { params: { id: webhookId } }).catch(() => undefined);
      ctx.log.status(`Stopped; removed webhook ${webhookId}`);
    }
  }
}
