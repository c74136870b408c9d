import { defineVerb, flag, groupHelp, requiring } from '../verb.js';

export const receipts = groupHelp('receipts', 'Sales receipts: look them up, send them by e-mail or SMS, render the HTML', ['payctl receipts get <receipt-id>', 'payctl receipts email <receipt-id> --to maria@example.com']);

export const get = defineVerb({
  name: 'get <id>',
  noun: 'receipt',
  description: "Show a receipt (a transaction's sales_receipt)",
  examples: ['payctl receipts get <receipt-id>', 'payctl receipts get $(payctl transactions get <id> --fields sales_receipt -o json | jq -r .sales_receipt)'],
});

export const email = defineVerb({
  name: 'email <id>',
  noun: 'receipt',
  description: 'E-mail a receipt',
  ...requiring({ to: flag('--to <email>', 'e-mail address') }),
  examples: ['payctl receipts email <receipt-id> --to maria@example.com', 'payctl receipts email $(payctl transactions get <id> -o json | jq -r .sales_receipt) --to maria@example.com'],
});

export const sms = defineVerb({
  name: 'sms <id>',
  noun: 'receipt',
  description: 'Send a receipt by SMS to a Brazilian mobile (+55 and area code)',
  ...requiring({ to: flag('--to <phone>', 'mobile number, e.g. "+55 21 99909-9999" or "(21) 99909-9999"', { ask: 'Mobile number (+55 and area code)' }) }),
  examples: ['payctl receipts sms <receipt-id> --to "(21) 99909-9999"', 'payctl receipts sms <receipt-id> --to +5521999099999'],
});

export const render = defineVerb({
  name: 'render <id>',
  noun: 'receipt',
  description: 'The receipt as HTML: to --save <file>, to stdout when piped, to a file (path printed) on a terminal',
  flags: { save: flag('--save <file>', 'write the HTML to this file') },
  examples: ['payctl receipts render <receipt-id> --save receipt.html', 'payctl receipts render <receipt-id> > receipt.html'],
});
