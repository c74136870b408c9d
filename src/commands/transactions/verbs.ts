import { bindGroup } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

const splits = bindGroup(verb.splits, verb, {
  splitsList: () => import('./splits/list.js'),
  splitsGet: () => import('./splits/get.js'),
  splitsAdd: () => import('./splits/add.js'),
  splitsRemove: () => import('./splits/remove.js'),
});

export const transactions = bindGroup(
  verb.transactions,
  verb,
  {
    create: () => import('./create.js'),
    list: () => import('./list.js'),
    get: () => import('./get.js'),
    update: () => import('./update.js'),
    refund: () => import('./refund.js'),
    capture: () => import('./capture.js'),
    cancellationLetter: () => import('./cancellation-letter.js'),
  },
  [splits],
);
