import { bind, defineGroup, runs } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const config = defineGroup({
  name: 'config',
  description: 'Read and change the settings of a profile (base_url, marketplace_id, seller_id, currency, output, timeout)',
  examples: ['payctl config list', 'payctl config set output json'],
  verbs: bind(verb, {
    ...runs(() => import('./config.js'), { get: 'runGet', set: 'runSet', unset: 'runUnset', list: 'runList' }),
  }),
});
