import type { Command } from 'commander';
import type { ActionFactory } from '../verb.js';
import { collect } from '../shared/input.js';
import { examples } from '../shared/help.js';

export function registerApi(program: Command, action: ActionFactory, withVerbs = true): void {
  const command = program
    .command('api')
    .description("Call any endpoint with the profile's key and prefix, retries, --dry-run and --debug; prints JSON")
    .argument('[method]', 'GET, POST, PUT or DELETE')
    .argument('[path]', 'relative to /v1, e.g. /transactions or transactions/<id> (the marketplace prefix is added)')
    .option('-f, --raw-field <key=value>', 'a string field (repeatable; a[b]=c nests, a[]=c appends): the body, or the query of a GET', collect)
    .option('-F, --field <key=value>', 'a typed field: true, false, null, numbers, JSON, @file (repeatable)', collect)
    .option('--input <file|->', 'the request body from a JSON file or stdin (fields then go in the query)')
    .option('-H, --header <name:value>', 'an extra request header (repeatable)', collect)
    .option('--paginate', 'GET every page of a list and stream its items')
    .addHelpText(
      'after',
      examples(
        'payctl api GET /transactions -f status=succeeded -F limit=5',
        'payctl api GET /transactions --paginate -o ndjson | jq -r .id',
        'payctl api POST transactions/<id>/void -f on_behalf_of=<seller-id> -F amount=500',
        'payctl api POST /buyers --input buyer.json --dry-run',
      ),
    );
  if (!withVerbs) return;
  command.action(action(() => import('./run.js')));
}
