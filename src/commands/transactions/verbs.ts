import { bind, defineGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

const splits = defineGroup({
  name: 'splits',
  description: "Other sellers' parts of a sale (split rules): list, show, add and remove",
  examples: ['payctl transactions splits list <transaction-id>', 'payctl transactions splits add <transaction-id> --split <seller-id>:30%,net'],
  verbs: bind(verb, {
    splitsList: () => import('./splits/list.js'),
    splitsGet: () => import('./splits/get.js'),
    splitsAdd: () => import('./splits/add.js'),
    splitsRemove: () => import('./splits/remove.js'),
  }),
});

export const transactions = defineGroup({
  name: 'transactions',
  aliases: ['tx'],
  description: 'Create, look up, refund and capture card, boleto and PIX transactions',
  examples: ['payctl transactions list --status succeeded', 'payctl transactions refund <id> --amount 5.00'],
  verbs: [
    ...bind(verb, {
      create: () => import('./create.js'),
      list: () => import('./list.js'),
      get: () => import('./get.js'),
      update: () => import('./update.js'),
      refund: () => import('./refund.js'),
      capture: () => import('./capture.js'),
      cancellationLetter: () => import('./cancellation-letter.js'),
    }),
    splits,
  ],
});
