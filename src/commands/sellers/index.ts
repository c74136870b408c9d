import type { Command } from 'commander';
import type { ActionFactory } from '../verb.js';
import { examples } from '../shared/help.js';
import { addAddressFlags } from '../shared/party-flags.js';
import { addListFlags } from '../shared/list-flags.js';

function addSellerFlags(command: Command): Command {
  return addAddressFlags(
    command
      .option('--first-name <name>', 'a person: first name')
      .option('--last-name <name>', 'a person: last name')
      .option('--taxpayer-id <cpf>', 'a person: CPF, with or without punctuation (check digits verified)')
      .option('--birthdate <YYYY-MM-DD>', 'a person: date of birth')
      .option('--business-name <name>', 'a company: its business name')
      .option('--ein <cnpj>', 'a company: CNPJ, numeric or alphanumeric (12.ABC.345/01DE-35), with or without punctuation (check digits verified)')
      .option('--opening-date <YYYY-MM-DD>', 'a company: the date it opened')
      .option('--owner-first-name <name>', "a company: its owner's first name")
      .option('--owner-last-name <name>', "a company: its owner's last name")
      .option('--owner-taxpayer-id <cpf>', "a company: its owner's CPF")
      .option('--owner-email <email>', "a company: its owner's e-mail address")
      .option('--email <email>', "e-mail address (a company's business e-mail)")
      .option('--phone <phone>', 'phone number with area code')
      .option('--statement-descriptor <text>', "name on the buyer's card statement, at most 22 characters"),
  );
}

export function registerSellers(program: Command, action: ActionFactory, withVerbs = true): void {
  const group = program
    .command('sellers')
    .description("The marketplace's sellers: people (CPF) and companies (CNPJ) that sales are made on behalf of")
    .addHelpText('after', examples('payctl sellers list', 'payctl transactions list --seller <seller-id>'));
  // Only the group the command line names needs its verbs (see buildProgram).
  if (!withVerbs) return;

  addSellerFlags(
    group
      .command('create')
      .description('Register a seller: a person (--first-name --last-name --taxpayer-id <CPF> --email) or a company (--business-name --ein <CNPJ> --email)'),
  )
    .addHelpText(
      'after',
      examples(
        'payctl sellers create --first-name João --last-name Souza --taxpayer-id 529.982.247-25 --email joao@example.com --phone "(11) 98765-4321"',
        'payctl sellers create --business-name "Loja Azul Ltda" --ein 12.ABC.345/01DE-35 --email contato@lojaazul.com.br --owner-first-name Ana --owner-taxpayer-id 111.444.777-35',
      ),
    )
    .action(action(() => import('./create.js')));

  const list = group.command('list').description('List sellers, newest first');
  addListFlags(list)
    .addHelpText('after', examples('payctl sellers list --limit 10', 'payctl sellers list --all -o csv > sellers.csv'))
    .action(action(() => import('./list.js')));

  group
    .command('get <id>')
    .description('Show one seller')
    .addHelpText('after', examples('payctl sellers get <seller-id>', 'payctl sellers get <seller-id> -o json | jq .type'))
    .action(action(() => import('./get.js')));

  addSellerFlags(group.command('update <id>').description("Change a seller's details (only the flags given change; a person's flags for a person, a company's for a company)"))
    .addHelpText('after', examples('payctl sellers update <seller-id> --email novo@example.com', 'payctl sellers update <seller-id> --statement-descriptor "LOJA AZUL"'))
    .action(action(() => import('./update.js')));

  group
    .command('remove <id>')
    .description('Remove a seller; asks for confirmation (refused while it has a balance, receivables to come or running subscriptions)')
    .addHelpText('after', examples('payctl sellers remove <seller-id>', 'payctl sellers remove <seller-id> --yes'))
    .action(action(() => import('./remove.js')));
}
