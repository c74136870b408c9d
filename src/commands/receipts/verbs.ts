import { defineGroup, lazy } from '../verb.js';
import { email, get, render, sms } from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const receipts = defineGroup({
  name: 'receipts',
  description: 'Sales receipts: look them up, send them by e-mail or SMS, render the HTML',
  examples: ['payctl receipts get <receipt-id>', 'payctl receipts email <receipt-id> --to maria@example.com'],
  verbs: [
    lazy(get, () => import('./get.js')),
    lazy(email, () => import('./send.js').then((m) => ({ run: m.runEmail }))),
    lazy(sms, () => import('./send.js').then((m) => ({ run: m.runSms }))),
    lazy(render, () => import('./render.js')),
  ],
});
