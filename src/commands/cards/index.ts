import type { Command } from 'commander';
import type { ActionFactory } from '../../cli.js';
import { examples } from '../shared/help.js';

export function registerCards(program: Command, action: ActionFactory): void {
  const group = program
    .command('cards')
    .description('Tokenize cards')
    .addHelpText('after', examples('payctl cards tokenize --card-file card.json'));
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
}
