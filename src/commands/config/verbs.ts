import { defineGroup, lazy } from '../verb.js';
import { get, list, set, unset } from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const config = defineGroup({
  name: 'config',
  description: 'Read and change the settings of a profile (base_url, marketplace_id, seller_id, currency, output, timeout)',
  examples: ['payctl config list', 'payctl config set output json'],
  verbs: [
    lazy(get, () => import('./config.js').then((m) => ({ run: m.runGet }))),
    lazy(set, () => import('./config.js').then((m) => ({ run: m.runSet }))),
    lazy(unset, () => import('./config.js').then((m) => ({ run: m.runUnset }))),
    lazy(list, () => import('./config.js').then((m) => ({ run: m.runList }))),
  ],
});
