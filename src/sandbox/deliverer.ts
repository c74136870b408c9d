import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { eventMatches } from '../provider/event-types.js';
import { signDelivery } from '../provider/webhook-signature.js';
import { tryLock, type HeldLock } from '../platform/lock.js';
import { VERSION } from '../version.js';
import { sandboxClock } from './clock.js';
import { findBy, nextMatchingEvent } from './db/queries.js';
import { servedEvent } from './events.js';
import { mutateState, readState, statePaths } from './store.js';
import type { SandboxEvent, SandboxState, StoredEvent, StoredWebhook } from './types.js';

// Sends the sandbox's events to its webhooks: at least once, in order per webhook (the next event
// waits until the one before it was accepted or given up on), each signed with the webhook's
// secret, retried with growing pauses while the receiver fails or does not answer, for a bounded
// time. Runs in `sandbox serve` and in `webhooks listen`; one process per state directory
// delivers (a lock decides which), the others stand by, so no event goes out twice because two
// processes both thought it was theirs.

export interface DeliveryOptions {
  /** How often the state is looked at for new events (ms). */
  pollMs?: number;
  /** How long one attempt may take before it counts as failed (ms). */
  timeoutMs?: number;
  /** The first pause after a failure; each next one doubles, up to retryMaxMs (ms). */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** An event still failing this long after its first failure is given up on (ms). */
  giveUpAfterMs?: number;
}

export interface Deliverer {
  stop(): Promise<void>;
}

const DEFAULTS: Required<DeliveryOptions> = { pollMs: 200, timeoutMs: 5_000, retryBaseMs: 500, retryMaxMs: 30_000, giveUpAfterMs: 10 * 60_000 };

/** One POST; resolves with the status, or rejects on a network error or timeout. */
function post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? https.request : http.request;
    const req = send(target, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

interface Retry {
  attempts: number;
  firstFailure: number;
  nextAt: number;
}

export function startDeliverer(stateDir: string, now: () => Date, given: DeliveryOptions = {}): Deliverer {
  const options = { ...DEFAULTS, ...given };
  const lockTarget = path.join(statePaths(stateDir).dir, 'deliverer');
  let held: HeldLock | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const inFlight = new Map<string, Promise<void>>();
  const retries = new Map<string, Retry>();
  // Per webhook: events before this index were looked at and do not match, so are not looked at again.
  const scanned = new Map<string, number>();
  // `<replay key>:<webhook>` once a replay was sent to the webhook or given up on, until it leaves the queue.
  const replayed = new Set<string>();

  /** One attempt; an event is done with once delivered or failed (given up on), or tried again later. */
  const attempt = async (key: string, stored: StoredWebhook, event: SandboxEvent): Promise<'delivered' | 'failed' | 'retry'> => {
    const body = JSON.stringify(event);
    const retry = retries.get(key);
    const attempts = (retry?.attempts ?? 0) + 1;
    const headers = {
      'content-type': 'application/json',
      'user-agent': `payctl-sandbox/${VERSION}`,
      // Signed at each attempt with the wall clock (not the sandbox's, which `sandbox advance`
      // moves), so a retry is as fresh as a first attempt to a receiver that checks the time.
      'x-payctl-signature': signDelivery(stored.secret, body, Math.floor(Date.now() / 1000)),
      'x-payctl-event': event.type,
      'x-payctl-delivery': event.id,
      'x-payctl-webhook': stored.webhook.id,
      'x-payctl-attempt': String(attempts),
    };
    const answered = post(stored.webhook.url, body, headers, options.timeoutMs);
    const ok = await answered.then((status) => status >= 200 && status < 300, () => false);
    const at = Date.now();
    const firstFailure = retry?.firstFailure ?? at;
    if (ok || at - firstFailure >= options.giveUpAfterMs) {
      retries.delete(key);
      return ok ? 'delivered' : 'failed';
    }
    // Doubling pauses, with jitter so many failing webhooks do not retry in step.
    const pause = Math.min(options.retryMaxMs, options.retryBaseMs * 2 ** (attempts - 1));
    retries.set(key, { attempts, firstFailure, nextAt: at + pause / 2 + Math.random() * (pause / 2) });
    return 'retry';
  };

  const due = (key: string) => (retries.get(key)?.nextAt ?? 0) <= Date.now();

  /** Runs `work` as the one job under `key`; one that fails is run again on a later tick. */
  const run = (key: string, work: () => Promise<void>): void => {
    inFlight.set(key, work().catch(() => undefined).finally(() => inFlight.delete(key)));
  };

  /** The next event for this webhook, in order; runs one attempt at it. */
  const deliverNext = (state: SandboxState, stored: StoredWebhook): void => {
    const id = stored.webhook.id;
    const found = nextMatchingEvent<StoredEvent>(state, Math.max(stored.cursor, scanned.get(id) ?? 0), (type) => eventMatches(stored.webhook.events, type));
    scanned.set(id, found.index);
    if (!found.event) return;
    const index = found.index;
    const event = servedEvent(state, found.event);
    const key = `${id}:${event.id}`;
    if (inFlight.has(id) || !due(key)) return;
    run(id, async () => {
      const outcome = await attempt(key, stored, event);
      if (outcome === 'retry') return;
      // Moving the cursor is what makes the next event go: written under the lock, so a
      // deliverer that takes over later starts after this one.
      await mutateState(stateDir, sandboxClock(now), (s) => {
        const current = s.webhooks.get(id);
        if (!current || current.cursor > index) return;
        current.cursor = index + 1;
        current[outcome] += 1;
      });
    });
  };

  /** Replays: each to every webhook it names, at least once, then off the queue. */
  const deliverReplays = (state: SandboxState): void => {
    for (const replay of state.replays.all()) {
      const key = `replay:${replay.id}`;
      if (inFlight.has(key)) continue;
      const stored = findBy<StoredEvent>(state, 'events', 'id', replay.event);
      const event = stored && servedEvent(state, stored);
      run(key, async () => {
        for (const webhookId of replay.webhooks) {
          const webhook = state.webhooks.get(webhookId);
          const jobKey = `${key}:${webhookId}`;
          if (!webhook || !event || replayed.has(jobKey) || !due(jobKey)) continue;
          if ((await attempt(jobKey, webhook, event)) !== 'retry') replayed.add(jobKey);
        }
        const finished = replay.webhooks.every((w) => !state.webhooks.get(w) || replayed.has(`${key}:${w}`));
        if (finished || !event) {
          await mutateState(stateDir, sandboxClock(now), (s) => s.replays.remove(replay.id));
          for (const w of replay.webhooks) replayed.delete(`${key}:${w}`);
        }
      });
    }
  };

  const tick = async (): Promise<void> => {
    if (stopped) return;
    try {
      if (!held) {
        try {
          held = tryLock(lockTarget, { leaseMs: 10_000, renewMs: 2_000, onLost: () => (held = undefined) });
        } catch {
          // Another process delivers; this one stands by.
        }
      }
      if (held) {
        const state = await readState(stateDir, sandboxClock(now));
        for (const stored of state.webhooks.all()) deliverNext(state, stored);
        deliverReplays(state);
      }
    } catch {
      // A state being replaced or a lock lost: the next tick tries again.
    }
    if (!stopped) timer = setTimeout(() => void tick(), held ? options.pollMs : Math.max(options.pollMs, 1_000));
  };
  timer = setTimeout(() => void tick(), 0);

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      // Attempts under way get a moment to finish (a receiver answering now is not sent it again);
      // one that hangs is left to its timeout rather than holding up the stop.
      await Promise.race([Promise.all(inFlight.values()), new Promise((r) => setTimeout(r, 1_000).unref())]);
      held?.release();
      held = undefined;
    },
  };
}
