import type { Command } from 'commander';
import type { ActionFactory } from '../verb.js';
import { collect } from '../shared/input.js';
import { examples } from '../shared/help.js';
import { addListFlags } from '../shared/list-flags.js';

export function registerEvents(program: Command, action: ActionFactory, withVerbs = true): void {
  const group = program
    .command('events')
    .description('What happened: every change of transactions, buyers, plans, subscriptions and invoices')
    .addHelpText('after', examples('payctl events list --type transaction.succeeded', 'payctl events replay <event-id>'));
  // Only the group the command line names needs its verbs (see buildProgram).
  if (!withVerbs) return;
  const list = group
    .command('list')
    .description('List events, newest first')
    .option('--type <type>', 'only this event type (repeatable, or comma-separated)', collect);
  addListFlags(list)
    .addHelpText('after', examples('payctl events list --type transaction.succeeded,transaction.failed --from 2026-11-01', 'payctl events list --all -o ndjson | jq -r .type | sort | uniq -c'))
    .action(action(() => import('./list.js')));
  group
    .command('get <id>')
    .description('Show an event, with the object it is about')
    .addHelpText('after', examples('payctl events get <event-id>', 'payctl events get <event-id> -o json | jq .payload.object.status'))
    .action(action(() => import('../shared/show.js').then((m) => ({ run: m.showById('events.get', 'event id') }))));
  group
    .command('replay <id>')
    .description('Send an event again to every webhook that wants it')
    .addHelpText('after', examples('payctl events replay <event-id>', 'payctl events replay <event-id> -o json'))
    .action(action(() => import('./replay.js')));
}
