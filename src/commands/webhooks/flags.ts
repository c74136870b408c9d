import { collect } from '../shared/input.js';
import { resourceGroup } from '../shared/resource-group.js';
import { defineVerb, flag } from '../verb.js';

export const webhooks = resourceGroup('webhooks', 'webhook', 'Where events are delivered: register, list and remove webhooks, and watch events arrive', ['payctl webhooks listen', 'payctl webhooks create --url https://shop.example.com/hooks --event transaction.succeeded --event invoice.paid']);

export const create = defineVerb({
  name: 'create',
  description: 'Register a webhook; the answer carries its signing secret, shown only this once',
  flags: {
    url: flag('--url <https-url>', 'where to POST deliveries (https; http only to localhost)', { ask: 'Webhook URL (https)' }),
    event: flag('--event <type>', "event type to receive (repeatable, or comma-separated; '*' for all)", { parse: collect, ask: "Event types to receive (comma-separated; '*' for all)" }),
    description: flag('--description <text>', 'what it is for'),
  },
  required: ['url', 'event'],
  examples: [
    'payctl webhooks create --url https://shop.example.com/hooks --event transaction.succeeded --event transaction.failed',
    "payctl webhooks create --url https://shop.example.com/hooks --event '*' --description 'all events' -o json | jq -r .secret",
  ],
});

export const list = webhooks.list('List webhooks', {}, ['payctl webhooks list', 'payctl webhooks list -o json | jq -r ".[].url"']);

export const get = webhooks.get('Show a webhook', '-o json | jq .events');

export const remove = webhooks.remove('Remove a webhook; asks for confirmation');

export const listen = defineVerb({
  name: 'listen',
  description: 'Receive deliveries here and print each event as it arrives (against a sandbox, registers itself until stopped)',
  flags: {
    port: flag('--port <n>', 'port to listen on (default: any free port)'),
    event: flag('--event <type>', "only this event type (repeatable, or comma-separated; default '*')", { parse: collect }),
    forwardTo: flag('--forward-to <url>', 'also POST each delivery, as it came, to this local app and show its answer'),
    secret: flag('--secret <whsec>', "verify signatures with this secret (required against a live account; a sandbox's is known without it)"),
    maxEvents: flag('--max-events <n>', 'stop after this many events'),
    tolerance: flag('--tolerance <seconds>', 'refuse a delivery signed longer ago (or ahead) than this (default 300)'),
  },
  examples: [
    'payctl webhooks listen',
    'payctl webhooks listen --event transaction.succeeded --forward-to http://localhost:3000/webhooks',
    'payctl webhooks listen --max-events 1 | jq -r .type      # wait for the next event in a script',
  ],
});
