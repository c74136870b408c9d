import { collect } from '../shared/input.js';
import { resourceGroup } from '../shared/resource-group.js';
import { flag } from '../verb.js';

export const events = resourceGroup('events', 'event', 'What happened: every change of transactions, buyers, plans, subscriptions and invoices', ['payctl events list --type transaction.succeeded', 'payctl events replay <event-id>']);

export const list = events.list(
  'List events, newest first',
  { type: flag('--type <type>', 'only this event type (repeatable, or comma-separated)', { parse: collect }) },
  ['payctl events list --type transaction.succeeded,transaction.failed --from 2026-11-01', 'payctl events list --all -o ndjson | jq -r .type | sort | uniq -c'],
);

export const get = events.get('Show an event, with the object it is about', '-o json | jq .payload.object.status');

export const replay = events.byId('replay', 'Send an event again to every webhook that wants it', ['-o json']);
