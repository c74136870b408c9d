import type { Command } from 'commander';
import type { ActionFactory } from '../verb.js';
import { examples } from '../shared/help.js';

export function registerAuth(program: Command, action: ActionFactory): void {
  program
    .command('login')
    .description('Save an API key (checked with one read-only request) in the OS keyring and a profile, and make it current')
    .option('--base-url <url>', 'the API base URL, e.g. https://api.example.com')
    .option('--marketplace-id <id>', 'marketplace id: requests go under /v1/marketplaces/<id>/')
    .option('--seller-id <id>', 'default seller (on_behalf_of) for new transactions')
    .option('--api-key-stdin', 'read the API key from standard input instead of a hidden prompt')
    .option('--insecure-storage', 'save the API key in plain text in the config file (mode 0600) instead of the OS keyring: for machines without one')
    .addHelpText(
      'after',
      examples(
        'payctl login --profile live --base-url https://api.example.com --marketplace-id <id> --seller-id <id>',
        'payctl login --profile live --api-key-stdin < ~/.secrets/payctl-key',
        'payctl login --profile ci --insecure-storage --api-key-stdin < key   # a server with no keyring',
      ),
    )
    .action(action(() => import('./login.js')));

  program
    .command('logout')
    .description("Remove a profile's API key, from the OS keyring or the config file (the profile's other settings stay)")
    .addHelpText('after', examples('payctl logout --profile live', 'payctl logout --dry-run                # says which profile it would remove'))
    .action(action(() => import('./logout.js')));

  program
    .command('whoami')
    .description('Show the profile in use, where it points, its masked API key and where that key is kept')
    .addHelpText('after', examples('payctl whoami', 'payctl whoami -o json --fields profile,base_url'))
    .action(action(() => import('./whoami.js')));

  const profiles = program
    .command('profiles')
    .description('List, switch and remove profiles')
    .addHelpText('after', examples('payctl profiles list', 'payctl profiles use live'));
  profiles
    .command('list')
    .description('List profiles (the current one is marked)')
    .addHelpText('after', examples('payctl profiles list', 'payctl profiles list -o json | jq -r \'.[] | select(.current) | .name\''))
    .action(action(() => import('./profiles-list.js')));
  profiles
    .command('use <name>')
    .description('Make a profile the current one')
    .addHelpText('after', examples('payctl profiles use live', 'payctl profiles use sandbox'))
    .action(action(() => import('./profiles-use.js')));
  profiles
    .command('remove <name>')
    .description('Remove a profile and its API key; asks for confirmation')
    .addHelpText('after', examples('payctl profiles remove staging --yes', 'payctl profiles remove staging --dry-run'))
    .action(action(() => import('./profiles-remove.js')));
}
