import { findEvent, listEvents } from './events.js';
import { changing, creating, idOf, reading } from './handlers.js';
import type { RouteTable } from './route.js';
import { findWebhook, listWebhooks, planCreateWebhook, removeWebhook, replayEvent } from './webhooks.js';

// Routes of webhooks and events. The provider publishes no paths for webhooks; ours follow its
// conventions. Events follow its `…/events`, `…/events/{id}` and `…/events/{id}/actions/replay`.

export const eventRoutes: RouteTable = {
  'GET webhooks': reading((state, c) => listWebhooks(state, c.query, c.path)),
  'POST webhooks': creating(planCreateWebhook),
  'GET webhooks/:id': reading((state, c) => findWebhook(state, idOf(c)).webhook),
  'DELETE webhooks/:id': changing((state, c) => removeWebhook(state, idOf(c))),
  'GET events': reading((state, c) => listEvents(state, c.query, c.path)),
  'GET events/:id': reading((state, c) => findEvent(state, idOf(c))),
  'POST events/:id/actions/replay': changing((state, c) => replayEvent(state, idOf(c), c.now())),
};
