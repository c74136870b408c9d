import { randomBytes } from 'node:crypto';
import { eventMatches } from '../provider/event-types.js';
import { isLoopbackHost } from '../platform/loopback.js';
import { found, invalidParameters } from './errors.js';
import { findEvent } from './events.js';
import { newId } from './ids.js';
import { listFiltered, type ListEnvelope } from './list.js';
import { isoTimestamp } from './time.js';
import type { Deleted, Replay, SandboxState, StoredWebhook, Webhook } from './types.js';
import type { RequestBody } from '../provider/schemas/requests.js';

// Webhooks: where the sandbox delivers its events (deliverer.ts sends them). The request is the
// provider's `{method: "POST", url, description, event: [...]}`; the answer shows `events` and
// `status`, and, once, the secret every delivery is signed with.

/** Absolute https; plain http only to this machine (where `payctl webhooks listen` runs). */
function webhookUrlProblem(value: string): string | undefined {
  if (!URL.canParse(value)) return 'must be an absolute URL (https://…)';
  const url = new URL(value);
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  return 'must use https:// (plain http:// only to localhost or 127.0.0.1)';
}

export function planCreateWebhook(body: RequestBody<'webhooks.create'>): (state: SandboxState, now: Date) => Webhook & { secret: string } {
  // The body has met the request schema: an http(s) url, method POST if given, a description of
  // its length, a list of known event types. What is left is whether plain http goes to this machine.
  const { url, event: events, description = null } = body;
  const problem = webhookUrlProblem(url);
  if (problem) throw invalidParameters([{ field: 'url', message: problem }]);
  return (state, now) => {
    const id = newId(state);
    const at = isoTimestamp(now);
    const webhook: Webhook = {
      id,
      resource: 'webhook',
      method: 'POST',
      url,
      description,
      events: [...new Set(events)],
      status: 'enabled',
      uri: `/v1/marketplaces/${state.marketplace_id}/webhooks/${id}`,
      created_at: at,
      updated_at: at,
    };
    const secret = `whsec_${randomBytes(24).toString('hex')}`;
    // Only what happens from now on: a new webhook is not sent the sandbox's past.
    state.webhooks.put(id, { webhook, secret, cursor: state.events.length, delivered: 0, failed: 0 });
    return { ...webhook, secret };
  };
}

export function findWebhook(state: SandboxState, id: string): StoredWebhook {
  return found(state.webhooks.get(id), 'webhook', id);
}

export function listWebhooks(state: SandboxState, params: URLSearchParams, uri: string): ListEnvelope<Webhook> {
  return listFiltered(uri, state.webhooks.all().map((s) => s.webhook), params);
}

export function removeWebhook(state: SandboxState, id: string): Deleted {
  findWebhook(state, id);
  state.webhooks.remove(id);
  return { id, resource: 'webhook', deleted: true };
}

/** Queues one event to be sent again to every webhook that wants it. */
export function replayEvent(state: SandboxState, eventId: string, now: Date): Replay {
  const event = findEvent(state, eventId);
  const webhooks = state.webhooks.all()
    .filter((s) => eventMatches(s.webhook.events, event.type))
    .map((s) => s.webhook.id);
  const replay: Replay = { id: newId(state), event: event.id, webhooks, at: isoTimestamp(now) };
  state.replays.put(replay.id, replay);
  return replay;
}
