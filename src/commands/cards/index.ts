import type { Command } from 'commander';
import type { ActionFactory } from '../verb.js';
import { examples, requiredFirst } from '../shared/help.js';

export function registerCards(program: Command, action: ActionFactory, withVerbs = true): void {
  const group = program
    .command('cards')
    .description('Tokenize cards, attach them to buyers, look them up and remove them')
    .addHelpText('after', examples('payctl cards tokenize --card-file card.json', 'payctl cards associate --token <token-id> --customer <buyer-id>'));
  // Only the group the command line names needs its verbs (see buildProgram).
  if (!withVerbs) return;
  group
    .command('tokenize')
    .description('Turn card data into a single-use card token (card data from flags, --card-file or hidden prompts)')
    .option('--card-number <digits>', 'card number (visible in ps/history: prefer --card-file or the prompt)')
    .option('--holder-name <name>', 'cardholder name')
    .option('--exp-month <MM>', 'expiry month')
    .option('--exp-year <YYYY>', 'expiry year')
    .option('--cvv <digits>', 'security code (visible in ps/history: prefer --card-file or the prompt)')
    .option('--card-file <path|->', 'JSON file (or - for stdin) with card_number, holder_name, expiration_month, expiration_year, security_code')
    .addHelpText(
      'after',
      examples(
        'payctl cards tokenize --card-file card.json',
        'echo \'{"card_number":"4111111111111111","holder_name":"Maria Silva","expiration_month":"12","expiration_year":"2030","security_code":"123"}\' | payctl cards tokenize --card-file -',
        'payctl cards tokenize          # on a terminal: asks, with hidden input for the number and CVV',
      ),
    )
    .action(action(() => import('./tokenize.js')));

  group
    .command('associate')
    .description("Attach a card token to a buyer (a token can be used once)")
    .option('--token <token-id>', 'the card token, from "cards tokenize"')
    .option('--customer <buyer-id>', 'the buyer who will own the card')
    .addHelpText('after', examples('payctl cards associate --token <token-id> --customer <buyer-id>', 'payctl cards associate --token $(payctl cards tokenize --card-file card.json -o json | jq -r .id) --customer <buyer-id>'))
    .action(action(() => import('./associate.js')));
  group
    .command('get <id>')
    .description('Show a stored card (first and last four digits only)')
    .addHelpText('after', examples('payctl cards get <card-id>', 'payctl cards get <card-id> -o json | jq .is_active'))
    .action(action(() => import('./get.js')));
  group
    .command('remove <id>')
    .description('Remove a stored card; asks for confirmation')
    .addHelpText('after', examples('payctl cards remove <card-id> --yes', 'payctl cards remove <card-id>                # asks first'))
    .action(action(() => import('./remove.js')));
  requiredFirst(group, { associate: ['--token', '--customer'] });
}
