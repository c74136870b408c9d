import { bindGroup, runs } from '../verb.js';
import * as verb from './flags.js';

// The group: its verbs, each bound to its implementation, loaded only when it runs.

export const receipts = bindGroup(verb.receipts, verb, {
  get: () => import('./get.js'),
  ...runs(() => import('./send.js'), { email: 'runEmail', sms: 'runSms' }),
  render: () => import('./render.js'),
});
