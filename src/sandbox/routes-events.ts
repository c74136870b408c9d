import { findEvent, listEvents } from './events.js';
import { changing, creating, idOf, reading } from './handlers.js';
import type { Route } from './route.js';
import { findWebhook, listWebhooks, planCreateWebhook, removeWebhook, replayEvent } from './webhooks.js';

// Routes of webhooks and events. The provider publishes no paths for webhooks; ours follow its
// conventions. Events follow its `…/events`, `…/events/{id}` and `…/events/{id}/actions/replay`.

export const eventRoutes: Route[] = [
  { pattern: ['webhooks'], handlers: { GET: reading((state, c) => listWebhooks(state, c.query, c.path)), POST: creating(planCreateWebhook) } },
  {
    pattern: ['webhooks', ':id'],
    handlers: { GET: reading((state, c) => findWebhook(state, idOf(c)).webhook), DELETE: changing((state, c) => removeWebhook(state, idOf(c))) },
  },
  { pattern: ['events'], handlers: { GET: reading((state, c) => listEvents(state, c.query, c.path)) } },
  { pattern: ['events', ':id'], handlers: { GET: reading((state, c) => findEvent(state, idOf(c))) } },
  { pattern: ['events', ':id', 'actions', 'replay'], handlers: { POST: changing((state, c) => replayEvent(state, idOf(c), c.now())) } },
];
