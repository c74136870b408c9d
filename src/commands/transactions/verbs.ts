import { defineGroup, lazy } from '../verb.js';
import { cancellationLetter, capture, create, get, list, refund, splitsAdd, splitsGet, splitsList, splitsRemove, update } from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

const splits = defineGroup({
  name: 'splits',
  description: "Other sellers' parts of a sale (split rules): list, show, add and remove",
  examples: ['payctl transactions splits list <transaction-id>', 'payctl transactions splits add <transaction-id> --split <seller-id>:30%,net'],
  verbs: [
    lazy(splitsList, () => import('./splits/list.js')),
    lazy(splitsGet, () => import('./splits/get.js')),
    lazy(splitsAdd, () => import('./splits/add.js')),
    lazy(splitsRemove, () => import('./splits/remove.js')),
  ],
});

export const transactions = defineGroup({
  name: 'transactions',
  aliases: ['tx'],
  description: 'Create, look up, refund and capture card, boleto and PIX transactions',
  examples: ['payctl transactions list --status succeeded', 'payctl transactions refund <id> --amount 5.00'],
  verbs: [
    lazy(create, () => import('./create.js')),
    lazy(list, () => import('./list.js')),
    lazy(get, () => import('./get.js')),
    lazy(update, () => import('./update.js')),
    lazy(refund, () => import('./refund.js')),
    lazy(capture, () => import('./capture.js')),
    lazy(cancellationLetter, () => import('./cancellation-letter.js')),
    splits,
  ],
});
