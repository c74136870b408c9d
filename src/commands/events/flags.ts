import { collect } from '../shared/input.js';
import { listFlags } from '../shared/list-flags.js';
import { defineVerb, flag } from '../verb.js';

export const list = defineVerb({
  name: 'list',
  description: 'List events, newest first',
  flags: { type: flag('--type <type>', 'only this event type (repeatable, or comma-separated)', { parse: collect }), ...listFlags() },
  examples: ['payctl events list --type transaction.succeeded,transaction.failed --from 2026-11-01', 'payctl events list --all -o ndjson | jq -r .type | sort | uniq -c'],
});

export const get = defineVerb({
  name: 'get <id>',
  description: 'Show an event, with the object it is about',
  examples: ['payctl events get <event-id>', 'payctl events get <event-id> -o json | jq .payload.object.status'],
});

export const replay = defineVerb({
  name: 'replay <id>',
  description: 'Send an event again to every webhook that wants it',
  examples: ['payctl events replay <event-id>', 'payctl events replay <event-id> -o json'],
});
