import { cardFlags } from '../shared/card-flags.js';
import { resourceGroup } from '../shared/resource-group.js';
import { defineVerb, flag, requiring } from '../verb.js';

export const cards = resourceGroup('cards', 'card', 'Tokenize cards, attach them to buyers, look them up and remove them', ['payctl cards tokenize --card-file card.json', 'payctl cards associate --token <token-id> --customer <buyer-id>']);

export const tokenize = defineVerb({
  name: 'tokenize',
  description: 'Turn card data into a single-use card token (card data from flags, --card-file or hidden prompts)',
  flags: cardFlags('tokenize'),
  examples: [
    'payctl cards tokenize --card-file card.json',
    'payctl cards tokenize --card-file - < card.json   # the same JSON on stdin',
    'payctl cards tokenize          # on a terminal: asks, with hidden input for the number and CVV',
  ],
});

export const associate = defineVerb({
  name: 'associate',
  description: 'Attach a card token to a buyer (a token can be used once)',
  ...requiring({
    token: flag('--token <token-id>', 'the card token, from "cards tokenize"'),
    customer: flag('--customer <buyer-id>', 'the buyer who will own the card'),
  }),
  examples: ['payctl cards associate --token <token-id> --customer <buyer-id>', 'payctl cards associate --token $(payctl cards tokenize --card-file card.json -o json | jq -r .id) --customer <buyer-id>'],
});

export const get = cards.get('Show a stored card (first and last four digits only)', '-o json | jq .is_active');

export const remove = cards.remove('Remove a stored card; asks for confirmation', { yesFirst: true });
