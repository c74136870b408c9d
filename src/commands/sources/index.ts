import { Option, type Command } from 'commander';
import type { ActionFactory } from '../verb.js';
import { examples } from '../shared/help.js';
import { collect } from '../shared/input.js';

export function registerSources(program: Command, action: ActionFactory, withVerbs = true): void {
  const group = program
    .command('sources')
    .description('Payment sources: a card, a card token or a buyer, prepared for use in a transaction')
    .addHelpText('after', examples('payctl sources create --card <card-id> --usage reusable', 'payctl sources get <source-id>'));
  // Only the group the command line names needs its verbs (see buildProgram).
  if (!withVerbs) return;
  group
    .command('create')
    .description('Create a source from a stored card (--card), card details, a token (--token) or a buyer (--customer)')
    .addOption(new Option('--usage <usage>', 'single_use or reusable').choices(['single_use', 'reusable']).default('single_use'))
    .option('--card <card-id>', 'a stored card')
    .option('--token <token-id>', 'a card token (a single-use source uses it up)')
    .option('--customer <buyer-id>', "a buyer (charged on their default card)")
    .option('--card-number <digits>', 'card number (visible in ps/history: prefer --card-file)')
    .option('--holder-name <name>', 'cardholder name')
    .option('--exp-month <MM>', 'card expiry month')
    .option('--exp-year <YYYY>', 'card expiry year')
    .option('--cvv <digits>', 'card security code')
    .option('--card-file <path|->', 'JSON file (or - for stdin) with the card details')
    .option('--amount <amount>', 'amount to charge, in major units (optional)')
    .option('--amount-cents <cents>', 'amount to charge, in cents (optional)')
    .option('--currency <code>', 'three-letter currency (default: the profile currency)')
    .option('--description <text>', 'description of the sale')
    .option('--reference-id <id>', 'your reference')
    .option('--on-behalf-of <seller-id>', "seller (default: the profile's seller_id)")
    .option('--installments <n>', 'number of installments, 1-12')
    .option('--no-capture', 'pre-authorize only when charged')
    .option('--metadata <key=value>', 'metadata entry (repeatable)', collect)
    .addHelpText(
      'after',
      examples(
        'payctl sources create --card <card-id> --usage reusable',
        'payctl sources create --token <token-id> --amount 49.90',
        'payctl sources create --customer <buyer-id> --amount 10',
        'payctl sources create --card-file card.json --usage single_use',
      ),
    )
    .action(action(() => import('./create.js')));
  group
    .command('get <id>')
    .description('Show a source')
    .addHelpText('after', examples('payctl sources get <source-id>', 'payctl sources get <source-id> -o json | jq .usage'))
    .action(action(() => import('./get.js')));
  group
    .command('remove <id>')
    .description('Remove a source; asks for confirmation')
    .addHelpText('after', examples('payctl sources remove <source-id> --yes', 'payctl sources remove <source-id>                # asks first'))
    .action(action(() => import('./remove.js')));
}
