import { MONEY_MOVE_FLAGS } from '../shared/again.js';
import { resourceGroup } from '../shared/resource-group.js';
import { defineVerb, flag } from '../verb.js';

export const boletos = resourceGroup('boletos', 'boleto', 'Look up boletos, e-mail them to the payer, cancel pending ones', ['payctl boletos get <boleto-id>', 'payctl boletos cancel <transaction-id>']);

export const get = boletos.get('Show a boleto: due date, barcode, link, status', '--fields barcode,url -o json');

export const send = boletos.byId('send', "E-mail the boleto (to the buyer's address, or --to)", ['--to financeiro@example.com'], {
  to: flag('--to <email>', "check first that the buyer's address on file is this one (the service sends only there)"),
});

export const cancel = defineVerb({
  name: 'cancel <transaction-id>',
  description: 'Request the cancellation of a pending boleto (by its transaction id); asks for confirmation',
  flags: MONEY_MOVE_FLAGS,
  examples: ['payctl boletos cancel <transaction-id>', 'payctl boletos cancel <transaction-id> --yes'],
});
