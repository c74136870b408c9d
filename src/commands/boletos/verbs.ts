import { bind, defineGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const boletos = defineGroup({
  name: 'boletos',
  description: 'Look up boletos, e-mail them to the payer, cancel pending ones',
  examples: ['payctl boletos get <boleto-id>', 'payctl boletos cancel <transaction-id>'],
  verbs: bind(verb, { get: () => import('./get.js'), send: () => import('./send.js'), cancel: () => import('./cancel.js') }),
});
