import { findEvent, listEvents } from './events.js';
import { changing, creating, idOf, reading } from './handlers.js';
import type { RouteTable } from './route.js';
import { findWebhook, listWebhooks, planCreateWebhook, removeWebhook, replayEvent } from './webhooks.js';

// Routes of webhooks and events. The provider publishes no paths for webhooks; ours follow its
// conventions. Events follow its paths.

export const eventRoutes = {
  'webhooks.list': reading((state, c) => listWebhooks(state, c.query, c.path)),
  'webhooks.create': creating(planCreateWebhook),
  'webhooks.get': reading((state, c) => findWebhook(state, idOf(c)).webhook),
  'webhooks.remove': changing((state, c) => removeWebhook(state, idOf(c))),
  'events.list': reading((state, c) => listEvents(state, c.query, c.path)),
  'events.get': reading((state, c) => findEvent(state, idOf(c))),
  'events.replay': changing((state, c) => replayEvent(state, idOf(c), c.now())),
} satisfies RouteTable;
