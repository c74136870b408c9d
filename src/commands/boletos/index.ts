import type { Command } from 'commander';
import type { ActionFactory } from '../verb.js';
import { addMoneyMoveFlags } from '../shared/again.js';
import { examples } from '../shared/help.js';

export function registerBoletos(program: Command, action: ActionFactory, withVerbs = true): void {
  const group = program
    .command('boletos')
    .description('Look up boletos, e-mail them to the payer, cancel pending ones')
    .addHelpText('after', examples('payctl boletos get <boleto-id>', 'payctl boletos cancel <transaction-id>'));
  // Only the group the command line names needs its verbs (see buildProgram).
  if (!withVerbs) return;
  group
    .command('get <id>')
    .description('Show a boleto: due date, barcode, link, status')
    .addHelpText('after', examples('payctl boletos get <boleto-id>', 'payctl boletos get <boleto-id> --fields barcode,url -o json'))
    .action(action(() => import('./get.js')));
  group
    .command('send <id>')
    .description("E-mail the boleto (to the buyer's address, or --to)")
    .option('--to <email>', "check first that the buyer's address on file is this one (the service sends only there)")
    .addHelpText('after', examples('payctl boletos send <boleto-id>', 'payctl boletos send <boleto-id> --to financeiro@example.com'))
    .action(action(() => import('./send.js')));
  const cancel = group.command('cancel <transaction-id>').description('Request the cancellation of a pending boleto (by its transaction id); asks for confirmation');
  addMoneyMoveFlags(cancel)
    .addHelpText('after', examples('payctl boletos cancel <transaction-id>', 'payctl boletos cancel <transaction-id> --yes'))
    .action(action(() => import('./cancel.js')));
}
