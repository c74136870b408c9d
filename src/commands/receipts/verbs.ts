import { bind, defineGroup, runs } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const receipts = defineGroup({
  name: 'receipts',
  description: 'Sales receipts: look them up, send them by e-mail or SMS, render the HTML',
  examples: ['payctl receipts get <receipt-id>', 'payctl receipts email <receipt-id> --to maria@example.com'],
  verbs: bind(verb, {
    get: () => import('./get.js'),
    ...runs(() => import('./send.js'), { email: 'runEmail', sms: 'runSms' }),
    render: () => import('./render.js'),
  }),
});
