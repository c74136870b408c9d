import { Option, type Command } from 'commander';
import type { ActionFactory } from '../verb.js';
import { examples, requiredFirst } from '../shared/help.js';
import { collect } from '../shared/input.js';
import { addListFlags } from '../shared/list-flags.js';

function addPlanFlags(command: Command, creating: boolean): Command {
  return command
    .option('--name <name>', 'plan name')
    .option('--description <text>', 'description')
    .option('--amount <amount>', 'price per cycle in major units, e.g. 29.90')
    .option('--amount-cents <cents>', 'price per cycle in cents')
    .option('--setup-amount <amount>', 'one-off setup price in major units')
    .option('--setup-amount-cents <cents>', 'one-off setup price in cents')
    .option('--currency <code>', 'three-letter currency (default: the profile currency)')
    .addOption(new Option('--frequency <frequency>', 'billing frequency').choices(['daily', 'weekly', 'monthly', 'annually']))
    .option('--interval <n>', `cycles between charges${creating ? ' (default 1)' : ''}`)
    .option('--payment-method <method>', 'accepted payment method, credit or boleto (repeatable; default credit)', collect)
    .option('--duration <n>', 'number of cycles before subscriptions end')
    .option('--grace-days <n>', 'days of grace before charging a new subscription')
    .option('--tolerance-days <n>', 'days an unpaid invoice is tolerated');
}

export function registerPlans(program: Command, action: ActionFactory, withVerbs = true): void {
  const group = program
    .command('plans')
    .description('Recurrence plans: what is charged, how often')
    .addHelpText('after', examples('payctl plans create --name Mensal --amount 29.90 --frequency monthly', 'payctl plans list'));
  // Only the group the command line names needs its verbs (see buildProgram).
  if (!withVerbs) return;
  addPlanFlags(group.command('create').description('Create a plan'), true)
    .addHelpText(
      'after',
      examples(
        'payctl plans create --name "Plano Mensal" --amount 29.90 --frequency monthly',
        'payctl plans create --name Anual --amount 299 --setup-amount 50 --frequency annually --duration 2 --tolerance-days 5',
        'payctl plans create --name "Mensal boleto" --amount 29.90 --frequency monthly --payment-method credit --payment-method boleto',
      ),
    )
    .action(action(() => import('./create.js')));
  addListFlags(group.command('list').description('List plans'))
    .addHelpText('after', examples('payctl plans list', 'payctl plans list --all -o csv'))
    .action(action(() => import('./list.js')));
  group
    .command('get <id>')
    .description('Show a plan')
    .addHelpText('after', examples('payctl plans get <plan-id>', 'payctl plans get <plan-id> -o json | jq .amount'))
    .action(action(() => import('./get.js')));
  addPlanFlags(group.command('update <id>').description("Change a plan (only the flags given change; payctl reads the plan and sends it whole, as the provider requires)"), false)
    .addHelpText('after', examples('payctl plans update <plan-id> --amount 34.90', 'payctl plans update <plan-id> --description "Novo preço"'))
    .action(action(() => import('./update.js')));
  group
    .command('remove <id>')
    .description('Cancel a plan (it takes no new subscriptions); asks for confirmation')
    .addHelpText('after', examples('payctl plans remove <plan-id> --yes', 'payctl plans remove <plan-id>                # asks first'))
    .action(action(() => import('./remove.js')));
  requiredFirst(group, { create: ['--name', '--amount', '--frequency'] });
}
