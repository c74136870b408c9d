import { findEvent, listEvents } from './events.js';
import type { RequestContext, Route } from './route.js';
import { mutateState, readState } from './store.js';
import { findWebhook, listWebhooks, planCreateWebhook, removeWebhook, replayEvent } from './webhooks.js';

// Routes of webhooks and events. The provider publishes no paths for webhooks; ours follow its
// conventions. Events follow its `…/events`, `…/events/{id}` and `…/events/{id}/actions/replay`.

const id = (c: RequestContext): string => c.params.id ?? '';

export const eventRoutes: Route[] = [
  {
    pattern: ['webhooks'],
    handlers: {
      GET: async (c) => ({ status: 200, body: listWebhooks(await readState(c.stateDir, c.now), c.query, c.path) }),
      POST: async (c) => {
        const plan = planCreateWebhook(c.body);
        return { status: 201, body: await mutateState(c.stateDir, c.now, (state) => plan(state, c.now())) };
      },
    },
  },
  {
    pattern: ['webhooks', ':id'],
    handlers: {
      GET: async (c) => ({ status: 200, body: findWebhook(await readState(c.stateDir, c.now), id(c)).webhook }),
      DELETE: async (c) => ({ status: 200, body: await mutateState(c.stateDir, c.now, (state) => removeWebhook(state, id(c))) }),
    },
  },
  { pattern: ['events'], handlers: { GET: async (c) => ({ status: 200, body: listEvents(await readState(c.stateDir, c.now), c.query, c.path) }) } },
  { pattern: ['events', ':id'], handlers: { GET: async (c) => ({ status: 200, body: findEvent(await readState(c.stateDir, c.now), id(c)) }) } },
  {
    pattern: ['events', ':id', 'actions', 'replay'],
    handlers: { POST: async (c) => ({ status: 200, body: await mutateState(c.stateDir, c.now, (state) => replayEvent(state, id(c), c.now())) }) },
  },
];
