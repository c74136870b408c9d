import { ADDRESS_FLAGS } from '../shared/party-flags.js';
import { resourceGroup } from '../shared/resource-group.js';
import { defineVerb, flag, type FlagValues } from '../verb.js';

const SELLER_FLAGS = {
  firstName: flag('--first-name <name>', 'a person: first name'),
  lastName: flag('--last-name <name>', 'a person: last name'),
  taxpayerId: flag('--taxpayer-id <cpf>', 'a person: CPF, with or without punctuation (check digits verified)'),
  birthdate: flag('--birthdate <YYYY-MM-DD>', 'a person: date of birth'),
  businessName: flag('--business-name <name>', 'a company: its business name'),
  ein: flag('--ein <cnpj>', 'a company: CNPJ, numeric or alphanumeric (12.ABC.345/01DE-35), with or without punctuation (check digits verified)'),
  openingDate: flag('--opening-date <YYYY-MM-DD>', 'a company: the date it opened'),
  ownerFirstName: flag('--owner-first-name <name>', "a company: its owner's first name"),
  ownerLastName: flag('--owner-last-name <name>', "a company: its owner's last name"),
  ownerTaxpayerId: flag('--owner-taxpayer-id <cpf>', "a company: its owner's CPF"),
  ownerEmail: flag('--owner-email <email>', "a company: its owner's e-mail address"),
  email: flag('--email <email>', "e-mail address (a company's business e-mail)"),
  phone: flag('--phone <phone>', 'phone number with area code'),
  statementDescriptor: flag('--statement-descriptor <text>', "name on the buyer's card statement, at most 22 characters"),
  ...ADDRESS_FLAGS,
};

export type SellerFlagValues = FlagValues<typeof SELLER_FLAGS>;

export const sellers = resourceGroup('sellers', 'seller', "The marketplace's sellers: people (CPF) and companies (CNPJ) that sales are made on behalf of", ['payctl sellers list', 'payctl transactions list --seller <seller-id>']);

export const create = defineVerb({
  name: 'create',
  description: 'Register a seller: a person (--first-name --last-name --taxpayer-id <CPF> --email) or a company (--business-name --ein <CNPJ> --email)',
  flags: SELLER_FLAGS,
  examples: [
    'payctl sellers create --first-name João --last-name Souza --taxpayer-id 529.982.247-25 --email joao@example.com --phone "(11) 98765-4321"',
    'payctl sellers create --business-name "Loja Azul Ltda" --ein 12.ABC.345/01DE-35 --email contato@lojaazul.com.br --owner-first-name Ana --owner-taxpayer-id 111.444.777-35',
  ],
});

export const list = sellers.list('List sellers, newest first', {}, ['payctl sellers list --limit 10', 'payctl sellers list --all -o csv > sellers.csv']);

export const get = sellers.get('Show one seller', '-o json | jq .type');

export const update = sellers.update("Change a seller's details (only the flags given change; a person's flags for a person, a company's for a company)", SELLER_FLAGS, ['--email novo@example.com', '--statement-descriptor "LOJA AZUL"']);

export const remove = sellers.remove('Remove a seller; asks for confirmation (refused while it has a balance, receivables to come or running subscriptions)');
