import * as z from 'zod/mini';
import { anyString, resourceId, shown, stringList } from './shared.js';
import { readAs, tolerant } from './tolerant.js';

// Webhooks and the events they deliver, each described once and strictly: the sandbox's records
// are these types and are stored in this order (sandbox/db/schema.ts); payctl reads the service
// through their tolerant versions (tolerant.ts). The provider's file leaves webhooks out; an event
// is its README's `{id, type, resource: "event", payload: {object: {...}}, created_at}`.

/** A registered webhook, as get and list serve it. */
export const webhookStrict = z.strictObject({
  id: resourceId,
  resource: z.literal('webhook'),
  method: z.literal('POST'),
  url: anyString,
  description: z.nullable(anyString),
  /** Event types (`transaction.succeeded`), or `*` for every one. */
  events: readAs(z.array(anyString), stringList),
  status: z.literal('enabled'),
  uri: anyString,
  created_at: anyString,
  updated_at: anyString,
});

/** A webhook as its creation answers: once, with the secret every delivery is signed with. */
export const createdWebhookStrict = z.strictObject({ ...webhookStrict.shape, secret: anyString });

export const webhookSchema = tolerant(createdWebhookStrict, ['id']);

/** An event type, read strictly: payctl filters and dispatches on it. */
const eventType = z.string({ error: 'an event type (a string)' }).check(z.minLength(1, 'an event type'));

/**
 * `{id, type, resource: "event", payload: {object: {...}}, created_at}`. The object is the record
 * the event was raised for, as its own schema describes it (a transaction, plan, …), or null once
 * the sandbox no longer keeps that version of it.
 */
export const eventStrict = z.strictObject({
  id: resourceId,
  type: eventType,
  resource: z.literal('event'),
  payload: z.strictObject({ object: z.unknown() }),
  created_at: anyString,
});

export const eventSchema = tolerant(eventStrict, ['id', 'type']);

/** What replaying an event answers: which webhooks it is sent to again. */
export const replayStrict = z.strictObject({
  id: resourceId,
  event: anyString,
  webhooks: readAs(z.array(anyString), stringList),
  at: readAs(anyString, shown),
});

export const replaySchema = tolerant(replayStrict);
