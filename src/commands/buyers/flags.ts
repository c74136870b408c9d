import { ADDRESS_FLAGS } from '../shared/party-flags.js';
import { resourceGroup } from '../shared/resource-group.js';
import { defineVerb, flag, requiring, type FlagValues } from '../verb.js';

const BUYER_FLAGS = {
  firstName: flag('--first-name <name>', 'first name'),
  lastName: flag('--last-name <name>', 'last name'),
  email: flag('--email <email>', 'e-mail address'),
  phone: flag('--phone <phone>', 'phone number with area code'),
  taxpayerId: flag('--taxpayer-id <cpf|cnpj>', 'CPF or CNPJ, with or without punctuation (check digits verified)', { ask: 'CPF or CNPJ' }),
  birthdate: flag('--birthdate <YYYY-MM-DD>', 'date of birth'),
  ...ADDRESS_FLAGS,
};

export type BuyerFlagValues = FlagValues<typeof BUYER_FLAGS>;

export const buyers = resourceGroup('buyers', 'buyer', 'Create, find, change and remove buyers (customers)', ['payctl buyers find maria@example.com', 'payctl buyers search --taxpayer-id 529.982.247-25', 'payctl buyers list --limit 10']);

export const create = defineVerb({
  name: 'create',
  description: 'Register a buyer (first name and CPF/CNPJ required)',
  flags: BUYER_FLAGS,
  required: ['firstName', 'taxpayerId'],
  examples: [
    'payctl buyers create --first-name Maria --last-name Silva --taxpayer-id 529.982.247-25 --email maria@example.com --phone "(11) 98765-4321"',
    'payctl buyers create --first-name Loja --taxpayer-id 11.222.333/0001-81 --city "São Paulo" --state SP --postal-code 01310-100',
  ],
});

export const list = buyers.list('List buyers, newest first', {}, ['payctl buyers list --limit 10', 'payctl buyers list --all -o csv > buyers.csv']);

export const find = defineVerb({
  name: 'find <query>',
  asks: { query: { label: 'E-mail, CPF/CNPJ or a part of the name' } },
  description: 'Find buyers by e-mail, CPF/CNPJ (punctuation ignored) or a part of their name (any case, accents ignored)',
  examples: ['payctl buyers find maria@example.com', 'payctl buyers find 529.982.247-25', 'payctl buyers find "joao silva"'],
});

export const get = buyers.get('Show one buyer', '-o json | jq .default_credit');

export const update = buyers.update("Change a buyer's details (only the flags given change)", BUYER_FLAGS, ['--email novo@example.com --phone "(21) 99909-9999"', '--address-line1 "Rua Nova, 10" --city Niterói --state RJ --postal-code 24020-000']);

export const remove = buyers.remove('Remove a buyer; asks for confirmation (refused while they own cards or pending boletos)');

export const search = defineVerb({
  name: 'search',
  description: 'Find the buyer with a CPF or CNPJ',
  ...requiring({ taxpayerId: flag('--taxpayer-id <cpf|cnpj>', 'CPF or CNPJ, with or without punctuation', { ask: 'CPF or CNPJ' }) }),
  examples: ['payctl buyers search --taxpayer-id 529.982.247-25', 'payctl buyers search --taxpayer-id 52998224725 -o json --fields id,email'],
});
