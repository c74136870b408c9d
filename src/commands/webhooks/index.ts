import type { Command } from 'commander';
import type { ActionFactory } from '../verb.js';
import { collect } from '../shared/input.js';
import { examples, requiredFirst } from '../shared/help.js';
import { addListFlags } from '../shared/list-flags.js';

export function registerWebhooks(program: Command, action: ActionFactory, withVerbs = true): void {
  const group = program
    .command('webhooks')
    .description('Where events are delivered: register, list and remove webhooks, and watch events arrive')
    .addHelpText('after', examples('payctl webhooks listen', 'payctl webhooks create --url https://shop.example.com/hooks --event transaction.succeeded --event invoice.paid'));
  // Only the group the command line names needs its verbs (see buildProgram).
  if (!withVerbs) return;
  group
    .command('create')
    .description('Register a webhook; the answer carries its signing secret, shown only this once')
    .option('--url <https-url>', 'where to POST deliveries (https; http only to localhost)')
    .option('--event <type>', "event type to receive (repeatable, or comma-separated; '*' for all)", collect)
    .option('--description <text>', 'what it is for')
    .addHelpText(
      'after',
      examples(
        'payctl webhooks create --url https://shop.example.com/hooks --event transaction.succeeded --event transaction.failed',
        "payctl webhooks create --url https://shop.example.com/hooks --event '*' --description 'all events' -o json | jq -r .secret",
      ),
    )
    .action(action(() => import('./create.js')));
  addListFlags(group.command('list').description('List webhooks'))
    .addHelpText('after', examples('payctl webhooks list', 'payctl webhooks list -o json | jq -r ".[].url"'))
    .action(action(() => import('./list.js')));
  group
    .command('get <id>')
    .description('Show a webhook')
    .addHelpText('after', examples('payctl webhooks get <webhook-id>', 'payctl webhooks get <webhook-id> -o json | jq .events'))
    .action(action(() => import('../shared/show.js').then((m) => ({ run: m.showById('webhooks.get', 'webhook id') }))));
  group
    .command('remove <id>')
    .description('Remove a webhook; asks for confirmation')
    .addHelpText('after', examples('payctl webhooks remove <webhook-id>', 'payctl webhooks remove <webhook-id> --yes'))
    .action(action(() => import('./remove.js')));
  group
    .command('listen')
    .description('Receive deliveries here and print each event as it arrives (against a sandbox, registers itself until stopped)')
    .option('--port <n>', 'port to listen on (default: any free port)')
    .option('--event <type>', "only this event type (repeatable, or comma-separated; default '*')", collect)
    .option('--forward-to <url>', 'also POST each delivery, as it came, to this local app and show its answer')
    .option('--secret <whsec>', "verify signatures with this secret (required against a live account; a sandbox's is known without it)")
    .option('--max-events <n>', 'stop after this many events')
    .option('--tolerance <seconds>', 'refuse a delivery signed longer ago (or ahead) than this (default 300)')
    .addHelpText(
      'after',
      examples(
        'payctl webhooks listen',
        'payctl webhooks listen --event transaction.succeeded --forward-to http://localhost:3000/webhooks',
        "payctl webhooks listen --max-events 1 | jq -r .type      # wait for the next event in a script",
      ),
    )
    .action(action(() => import('./listen.js')));
  requiredFirst(group, { create: ['--url', '--event'] });
}
