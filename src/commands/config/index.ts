import type { Command } from 'commander';
import type { ActionFactory } from '../verb.js';
import { examples } from '../shared/help.js';

export function registerConfig(program: Command, action: ActionFactory, withVerbs = true): void {
  const group = program
    .command('config')
    .description('Read and change the settings of a profile (base_url, marketplace_id, seller_id, currency, output, timeout)')
    .addHelpText('after', examples('payctl config list', 'payctl config set output json'));
  // Only the group the command line names needs its verbs (see buildProgram).
  if (!withVerbs) return;
  group
    .command('get <key>')
    .description("Print one setting of the profile (the API key is shown masked)")
    .addHelpText('after', examples('payctl config get base_url', 'payctl --profile live config get seller_id'))
    .action(action(() => import('./config.js').then((m) => ({ run: m.runGet }))));
  group
    .command('set <key> <value>')
    .description('Change one setting of the profile (creates the profile if needed)')
    .addHelpText('after', examples('payctl config set output json', 'payctl --profile live config set timeout 60'))
    .action(action(() => import('./config.js').then((m) => ({ run: m.runSet }))));
  group
    .command('unset <key>')
    .description('Remove one setting of the profile')
    .addHelpText('after', examples('payctl config unset output', 'payctl config unset timeout --profile live'))
    .action(action(() => import('./config.js').then((m) => ({ run: m.runUnset }))));
  group
    .command('list')
    .description('Show every setting of the profile')
    .addHelpText('after', examples('payctl config list', 'payctl --profile live config list -o json'))
    .action(action(() => import('./config.js').then((m) => ({ run: m.runList }))));
}
