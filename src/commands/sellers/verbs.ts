import { bind, defineGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const sellers = defineGroup({
  name: 'sellers',
  description: "The marketplace's sellers: people (CPF) and companies (CNPJ) that sales are made on behalf of",
  examples: ['payctl sellers list', 'payctl transactions list --seller <seller-id>'],
  verbs: bind(verb, {
    create: () => import('./create.js'),
    list: () => import('./list.js'),
    get: () => import('./get.js'),
    update: () => import('./update.js'),
    remove: () => import('./remove.js'),
  }),
});
