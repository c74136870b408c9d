import type { Command } from 'commander';
import type { ActionFactory } from '../verb.js';
import { examples, requiredFirst } from '../shared/help.js';
import { addAddressFlags } from '../shared/party-flags.js';
import { addListFlags } from '../shared/list-flags.js';

function addBuyerFlags(command: Command): Command {
  return addAddressFlags(
    command
      .option('--first-name <name>', 'first name')
      .option('--last-name <name>', 'last name')
      .option('--email <email>', 'e-mail address')
      .option('--phone <phone>', 'phone number with area code')
      .option('--taxpayer-id <cpf|cnpj>', 'CPF or CNPJ, with or without punctuation (check digits verified)')
      .option('--birthdate <YYYY-MM-DD>', 'date of birth'),
  );
}

export function registerBuyers(program: Command, action: ActionFactory, withVerbs = true): void {
  const group = program
    .command('buyers')
    .description('Create, find, change and remove buyers (customers)')
    .addHelpText('after', examples('payctl buyers find maria@example.com', 'payctl buyers search --taxpayer-id 529.982.247-25', 'payctl buyers list --limit 10'));
  // Only the group the command line names needs its verbs (see buildProgram).
  if (!withVerbs) return;

  addBuyerFlags(group.command('create').description('Register a buyer (first name and CPF/CNPJ required)'))
    .addHelpText(
      'after',
      examples(
        'payctl buyers create --first-name Maria --last-name Silva --taxpayer-id 529.982.247-25 --email maria@example.com --phone "(11) 98765-4321"',
        'payctl buyers create --first-name Loja --taxpayer-id 11.222.333/0001-81 --city "São Paulo" --state SP --postal-code 01310-100',
      ),
    )
    .action(action(() => import('./create.js')));

  const list = group.command('list').description('List buyers, newest first');
  addListFlags(list)
    .addHelpText('after', examples('payctl buyers list --limit 10', 'payctl buyers list --all -o csv > buyers.csv'))
    .action(action(() => import('./list.js')));

  group
    .command('find <query>')
    .description('Find buyers by e-mail, CPF/CNPJ (punctuation ignored) or a part of their name (any case, accents ignored)')
    .addHelpText('after', examples('payctl buyers find maria@example.com', 'payctl buyers find 529.982.247-25', 'payctl buyers find "joao silva"'))
    .action(action(() => import('./find.js')));

  group
    .command('get <id>')
    .description('Show one buyer')
    .addHelpText('after', examples('payctl buyers get <buyer-id>', 'payctl buyers get <buyer-id> -o json | jq .default_credit'))
    .action(action(() => import('./get.js')));

  addBuyerFlags(group.command('update <id>').description("Change a buyer's details (only the flags given change)"))
    .addHelpText('after', examples('payctl buyers update <buyer-id> --email novo@example.com --phone "(21) 99909-9999"', 'payctl buyers update <buyer-id> --address-line1 "Rua Nova, 10" --city Niterói --state RJ --postal-code 24020-000'))
    .action(action(() => import('./update.js')));

  group
    .command('remove <id>')
    .description('Remove a buyer; asks for confirmation (refused while they own cards or pending boletos)')
    .addHelpText('after', examples('payctl buyers remove <buyer-id>', 'payctl buyers remove <buyer-id> --yes'))
    .action(action(() => import('./remove.js')));

  group
    .command('search')
    .description('Find the buyer with a CPF or CNPJ')
    .option('--taxpayer-id <cpf|cnpj>', 'CPF or CNPJ, with or without punctuation')
    .addHelpText('after', examples('payctl buyers search --taxpayer-id 529.982.247-25', 'payctl buyers search --taxpayer-id 52998224725 -o json --fields id,email'))
    .action(action(() => import('./search.js')));
  requiredFirst(group, { create: ['--first-name', '--taxpayer-id'], search: ['--taxpayer-id'] });
}
