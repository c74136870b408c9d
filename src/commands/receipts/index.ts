import type { Command } from 'commander';
import type { ActionFactory } from '../verb.js';
import { examples, requiredFirst } from '../shared/help.js';

export function registerReceipts(program: Command, action: ActionFactory, withVerbs = true): void {
  const group = program
    .command('receipts')
    .description("Sales receipts: look them up, send them by e-mail or SMS, render the HTML")
    .addHelpText('after', examples('payctl receipts get <receipt-id>', 'payctl receipts email <receipt-id> --to maria@example.com'));
  // Only the group the command line names needs its verbs (see buildProgram).
  if (!withVerbs) return;
  group
    .command('get <id>')
    .description("Show a receipt (a transaction's sales_receipt)")
    .addHelpText('after', examples('payctl receipts get <receipt-id>', 'payctl receipts get $(payctl transactions get <id> --fields sales_receipt -o json | jq -r .sales_receipt)'))
    .action(action(() => import('./get.js')));
  group
    .command('email <id>')
    .description('E-mail a receipt')
    .option('--to <email>', 'e-mail address')
    .addHelpText('after', examples('payctl receipts email <receipt-id> --to maria@example.com', 'payctl receipts email $(payctl transactions get <id> -o json | jq -r .sales_receipt) --to maria@example.com'))
    .action(action(() => import('./send.js').then((m) => ({ run: m.runEmail }))));
  group
    .command('sms <id>')
    .description('Send a receipt by SMS to a Brazilian mobile (+55 and area code)')
    .option('--to <phone>', 'mobile number, e.g. "+55 21 99909-9999" or "(21) 99909-9999"')
    .addHelpText('after', examples('payctl receipts sms <receipt-id> --to "(21) 99909-9999"', 'payctl receipts sms <receipt-id> --to +5521999099999'))
    .action(action(() => import('./send.js').then((m) => ({ run: m.runSms }))));
  group
    .command('render <id>')
    .description('The receipt as HTML: to --save <file>, to stdout when piped, to a file (path printed) on a terminal')
    .option('--save <file>', 'write the HTML to this file')
    .addHelpText('after', examples('payctl receipts render <receipt-id> --save receipt.html', 'payctl receipts render <receipt-id> > receipt.html'))
    .action(action(() => import('./render.js')));
  requiredFirst(group, { email: ['--to'], sms: ['--to'] });
}
