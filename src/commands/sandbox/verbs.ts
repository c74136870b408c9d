import { defineGroup, lazy } from '../verb.js';
import { advance, clock, generate, pay, reset, serve } from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const sandbox = defineGroup({
  name: 'sandbox',
  description: 'The embedded emulation of the payment service: serve it, reset it, pay boletos and PIX',
  examples: ['payctl sandbox serve --port 4010', 'payctl sandbox pay <transaction-id>'],
  verbs: [
    lazy(serve, () => import('./serve.js')),
    lazy(reset, () => import('./reset.js')),
    lazy(pay, () => import('./pay.js')),
    lazy(clock, () => import('./clock.js').then((m) => ({ run: m.runClock }))),
    lazy(advance, () => import('./clock.js').then((m) => ({ run: m.runAdvance }))),
    lazy(generate, () => import('./clock.js').then((m) => ({ run: m.runGenerate }))),
  ],
});
