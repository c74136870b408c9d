// `webhooks get` and what `webhooks create` prints, on a terminal: where deliveries go and which
// events; after a create, its signing secret, which the service shows only then. See
// src/output/object-view.ts.
import { CREATED, DESCRIPTION, resourceView } from '../../output/resource-view.js';

export const WEBHOOK_VIEW = resourceView(
  'Webhook',
  'id',
  [
    { label: 'URL', at: 'url' },
    { label: 'Events', at: 'events' },
    { label: 'Method', at: 'method' },
    { label: 'Secret', at: 'secret' },
    DESCRIPTION,
    CREATED,
  ],
  [],
);
