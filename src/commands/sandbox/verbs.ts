import { bind, defineGroup, runs } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const sandbox = defineGroup({
  name: 'sandbox',
  description: 'The embedded emulation of the payment service: serve it, reset it, pay boletos and PIX',
  examples: ['payctl sandbox serve --port 4010', 'payctl sandbox pay <transaction-id>'],
  verbs: bind(verb, {
    serve: () => import('./serve.js'),
    reset: () => import('./reset.js'),
    pay: () => import('./pay.js'),
    ...runs(() => import('./clock.js'), { clock: 'runClock', advance: 'runAdvance', generate: 'runGenerate' }),
  }),
});
