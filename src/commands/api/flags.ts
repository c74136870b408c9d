import { collect } from '../shared/input.js';
import { arg, defineVerb, flag } from '../verb.js';

export const apiVerb = defineVerb({
  name: 'api',
  description: "Call any endpoint with the profile's key and prefix, retries, --dry-run and --debug; prints JSON",
  args: [arg('[method]', 'GET, POST, PUT or DELETE'), arg('[path]', 'relative to /v1, e.g. /transactions or transactions/<id> (the marketplace prefix is added)')],
  flags: {
    rawField: flag('-f, --raw-field <key=value>', 'a string field (repeatable; a[b]=c nests, a[]=c appends): the body, or the query of a GET', { parse: collect }),
    field: flag('-F, --field <key=value>', 'a typed field: true, false, null, numbers, JSON, @file (repeatable)', { parse: collect }),
    input: flag('--input <file|->', 'the request body from a JSON file or stdin (fields then go in the query)'),
    header: flag('-H, --header <name:value>', 'an extra request header (repeatable)', { parse: collect }),
    paginate: flag('--paginate', 'GET every page of a list and stream its items'),
  },
  examples: [
    'payctl api GET /transactions -f status=succeeded -F limit=5',
    'payctl api GET /transactions --paginate -o ndjson | jq -r .id',
    'payctl api POST transactions/<id>/void -f on_behalf_of=<seller-id> -F amount=500',
    'payctl api POST /buyers --input buyer.json --dry-run',
  ],
});
