import { defineGroup, lazy } from '../verb.js';
import { cancel, get, send } from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const boletos = defineGroup({
  name: 'boletos',
  description: 'Look up boletos, e-mail them to the payer, cancel pending ones',
  examples: ['payctl boletos get <boleto-id>', 'payctl boletos cancel <transaction-id>'],
  verbs: [lazy(get, () => import('./get.js')), lazy(send, () => import('./send.js')), lazy(cancel, () => import('./cancel.js'))],
});
