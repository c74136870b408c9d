import { cardFlags } from '../shared/card-flags.js';
import { CURRENCY_FLAG, METADATA_FLAG, ON_BEHALF_OF_FLAG } from '../shared/common-flags.js';
import { resourceGroup } from '../shared/resource-group.js';
import { defineVerb, flag } from '../verb.js';

export const sources = resourceGroup('sources', 'source', 'Payment sources: a card, a card token or a buyer, prepared for use in a transaction', ['payctl sources create --card <card-id> --usage reusable', 'payctl sources get <source-id>']);

export const create = defineVerb({
  name: 'create',
  description: 'Create a source from a stored card (--card), card details, a token (--token) or a buyer (--customer)',
  flags: {
    usage: flag('--usage <usage>', 'single_use or reusable', { choices: ['single_use', 'reusable'], default: 'single_use' }),
    card: flag('--card <card-id>', 'a stored card'),
    token: flag('--token <token-id>', 'a card token (a single-use source uses it up)'),
    customer: flag('--customer <buyer-id>', 'a buyer (charged on their default card)'),
    ...cardFlags('source'),
    amount: flag('--amount <amount>', 'amount to charge, in major units (optional)'),
    amountCents: flag('--amount-cents <cents>', 'amount to charge, in cents (optional)'),
    currency: CURRENCY_FLAG,
    description: flag('--description <text>', 'description of the sale'),
    referenceId: flag('--reference-id <id>', 'your reference'),
    onBehalfOf: ON_BEHALF_OF_FLAG,
    installments: flag('--installments <n>', 'number of installments, 1-12'),
    capture: flag('--no-capture', 'pre-authorize only when charged'),
    metadata: METADATA_FLAG,
  },
  examples: [
    'payctl sources create --card <card-id> --usage reusable',
    'payctl sources create --token <token-id> --amount 49.90',
    'payctl sources create --customer <buyer-id> --amount 10',
    'payctl sources create --card-file card.json --usage single_use',
  ],
});

export const get = sources.get('Show a source', '-o json | jq .usage');

export const remove = sources.remove('Remove a source; asks for confirmation', { yesFirst: true });
