import { defineGroup, lazy } from '../verb.js';
import { create, get, list, remove, update } from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const sellers = defineGroup({
  name: 'sellers',
  description: "The marketplace's sellers: people (CPF) and companies (CNPJ) that sales are made on behalf of",
  examples: ['payctl sellers list', 'payctl transactions list --seller <seller-id>'],
  verbs: [
    lazy(create, () => import('./create.js')),
    lazy(list, () => import('./list.js')),
    lazy(get, () => import('./get.js')),
    lazy(update, () => import('./update.js')),
    lazy(remove, () => import('./remove.js')),
  ],
});
