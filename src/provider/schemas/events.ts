import * as z from 'zod/mini';
import { looseObject, resourceId, shown, stringList, text } from './shared.js';

// Webhooks and the events they deliver.

export const webhookSchema = looseObject({
  id: resourceId,
  resource: text,
  method: text,
  url: text,
  description: text,
  events: stringList,
  status: text,
  secret: text,
  uri: text,
  created_at: text,
  updated_at: text,
});

/** `{id, type, resource: "event", payload: {object: {...}}, created_at}`. */
export const eventSchema = looseObject({
  id: resourceId,
  type: z.string({ error: 'an event type (a string)' }).check(z.minLength(1, 'an event type')),
  resource: text,
  payload: z.optional(z.nullable(looseObject({ object: z.optional(z.unknown()) }))),
  created_at: text,
});

/** What replaying an event answers. */
export const replaySchema = looseObject({
  id: z.optional(resourceId),
  event: text,
  webhooks: stringList,
  at: shown,
});
