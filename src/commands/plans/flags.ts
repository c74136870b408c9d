import { CURRENCY_FLAG } from '../shared/common-flags.js';
import { collect } from '../shared/input.js';
import { resourceGroup } from '../shared/resource-group.js';
import { defineVerb, flag, type FlagValues } from '../verb.js';

/** What create and update share; `creating` adds the defaults create fills in. */
function planFlags(creating: boolean) {
  return {
    name: flag('--name <name>', 'plan name'),
    description: flag('--description <text>', 'description'),
    amount: flag('--amount <amount>', 'price per cycle in major units, e.g. 29.90', { alternative: 'amountCents' }),
    amountCents: flag('--amount-cents <cents>', 'price per cycle in cents'),
    setupAmount: flag('--setup-amount <amount>', 'one-off setup price in major units'),
    setupAmountCents: flag('--setup-amount-cents <cents>', 'one-off setup price in cents'),
    currency: CURRENCY_FLAG,
    frequency: flag('--frequency <frequency>', 'billing frequency', { choices: ['daily', 'weekly', 'monthly', 'annually'] }),
    interval: flag('--interval <n>', `cycles between charges${creating ? ' (default 1)' : ''}`),
    paymentMethod: flag('--payment-method <method>', 'accepted payment method, credit or boleto (repeatable; default credit)', { parse: collect }),
    duration: flag('--duration <n>', 'number of cycles before subscriptions end'),
    graceDays: flag('--grace-days <n>', 'days of grace before charging a new subscription'),
    toleranceDays: flag('--tolerance-days <n>', 'days an unpaid invoice is tolerated'),
  };
}

export type PlanFlagValues = FlagValues<ReturnType<typeof planFlags>>;

export const plans = resourceGroup('plans', 'plan', 'Recurrence plans: what is charged, how often', ['payctl plans create --name Mensal --amount 29.90 --frequency monthly', 'payctl plans list']);

export const create = defineVerb({
  name: 'create',
  description: 'Create a plan',
  flags: planFlags(true),
  required: ['name', 'amount', 'frequency'],
  examples: [
    'payctl plans create --name "Plano Mensal" --amount 29.90 --frequency monthly',
    'payctl plans create --name Anual --amount 299 --setup-amount 50 --frequency annually --duration 2 --tolerance-days 5',
    'payctl plans create --name "Mensal boleto" --amount 29.90 --frequency monthly --payment-method credit --payment-method boleto',
  ],
});

export const list = plans.list('List plans', {}, ['payctl plans list', 'payctl plans list --all -o csv']);

export const get = plans.get('Show a plan', '-o json | jq .amount');

export const update = plans.update('Change a plan (only the flags given change; payctl reads the plan and sends it whole, as the provider requires)', planFlags(false), ['--amount 34.90', '--description "Novo preço"']);

export const remove = plans.remove('Cancel a plan (it takes no new subscriptions); asks for confirmation', { yesFirst: true });
