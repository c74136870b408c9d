import { Command, Option } from 'commander';
import type { ActionFactory } from '../verb.js';
import { collect } from '../shared/input.js';
import { addMoneyMoveFlags } from '../shared/again.js';
import { addListFlags } from '../shared/list-flags.js';
import { addSellerFlag } from '../shared/seller-flag.js';
import { addGroupBy } from '../shared/group-by-flag.js';
import { addFindFlags } from './find-flags.js';
import { examples, requiredFirst } from '../shared/help.js';

// Flags and help are registered eagerly (cheap); each verb's code loads only when it runs.
export function registerTransactions(program: Command, action: ActionFactory, withVerbs = true): void {
  const group = program
    .command('transactions')
    .alias('tx')
    .description('Create, look up, refund and capture card, boleto and PIX transactions')
    .addHelpText('after', examples('payctl transactions list --status succeeded', 'payctl transactions refund <id> --amount 5.00'));
  // Only the group the command line names needs its verbs (see buildProgram).
  if (!withVerbs) return;

  const create = group
    .command('create')
    .description('Create a transaction: card (new card, card on file, or customer), boleto, boleto with PIX, or PIX')
    .addOption(new Option('--payment-type <type>', 'payment type').choices(['credit', 'boleto', 'bolepix', 'pix']))
    .option('--amount <amount>', 'amount in major units, e.g. 10.50 or 10,50')
    .option('--amount-cents <cents>', 'amount in cents, e.g. 1050')
    .option('--currency <code>', 'three-letter currency (default: the profile currency, BRL)')
    .option('--description <text>', 'description shown on the transaction')
    .option('--reference-id <id>', 'your unique reference: a rerun with the same one never charges twice (scripts: always pass one)')
    .option('--allow-duplicate-reference', 'with --reference-id: create even when a transaction with that reference exists')
    .option('--on-behalf-of <seller-id>', "seller responsible for the sale (default: the profile's seller_id)")
    .option('--metadata <key=value>', 'metadata entry (repeatable)', collect)
    .option('--split <seller-id:part>', "another seller's part: <seller-id>:<amount|percent%>[,liable][,net] (repeatable; the sale's seller gets the rest)", collect)
    .option('--card-number <digits>', 'card number (visible in ps/history: prefer --card-file or the prompt)')
    .option('--holder-name <name>', 'cardholder name')
    .option('--exp-month <MM>', 'card expiry month')
    .option('--exp-year <YYYY>', 'card expiry year')
    .option('--cvv <digits>', 'card security code (visible in ps/history: prefer --card-file or the prompt)')
    .option('--card-file <path|->', 'JSON file (or - for stdin) with card_number, holder_name, expiration_month, expiration_year, security_code')
    .option('--installments <n>', 'number of installments, 1-12')
    .option('--no-capture', 'only pre-authorize the card; capture later with "transactions capture"')
    .option('--card <card-id>', 'charge a card on file')
    .option('--customer <buyer-id>', "the buyer: charge their default card (credit) or bill them (boleto, bolepix, pix)")
    .option('--due-date <YYYY-MM-DD>', 'boleto due date')
    .option('--payment-limit-date <YYYY-MM-DD>', 'last day the boleto can be paid')
    .option('--instruction <text>', 'instruction printed on the boleto (repeatable, up to 5)', collect)
    .option('--late-fee <value>', 'late fee: a percentage like 2% or a fixed amount like 5.00')
    .option('--interest <value>', 'interest: 1% (monthly), 0.1%/day (daily) or a fixed daily amount like 0.50')
    .option('--discount <value@date>', 'discount until a date: 5%@2026-12-01 or 2.00@2026-12-01 (repeatable)', collect)
    .option('--payer-first-name <name>', 'boleto payer first name (payer not registered as a buyer)')
    .option('--payer-last-name <name>', 'boleto payer last name')
    .option('--payer-email <email>', 'boleto payer e-mail')
    .option('--payer-phone <phone>', 'boleto payer phone')
    .option('--payer-taxpayer-id <cpf|cnpj>', 'boleto payer CPF or CNPJ')
    .option('--payer-birthdate <YYYY-MM-DD>', 'boleto payer birth date')
    .option('--payer-address-line1 <text>', 'boleto payer street')
    .option('--payer-address-line2 <text>', 'boleto payer number')
    .option('--payer-neighborhood <text>', 'boleto payer neighborhood')
    .option('--payer-city <text>', 'boleto payer city')
    .option('--payer-state <UF>', 'boleto payer state (two letters)')
    .option('--payer-postal-code <CEP>', 'boleto payer postal code (8 digits)')
    .option('--pix-expires-at <date-time>', 'PIX expiry, ISO date-time')
    .addHelpText(
      'after',
      examples(
        'payctl transactions create --amount 10.50 --card-number 4111111111111111 --holder-name "Maria Silva" --exp-month 12 --exp-year 2030 --cvv 123',
        'payctl transactions create --amount 99.90 --card-file card.json --installments 3 --no-capture',
        'payctl transactions create --amount 25 --card <card-id>',
        'payctl transactions create --payment-type boleto --amount 150 --customer <buyer-id>',
        'payctl transactions create --payment-type boleto --amount 150 --customer <buyer-id> --due-date 2026-12-10 --late-fee 2% --interest 1% --instruction "Não receber após o vencimento"',
        'payctl transactions create --payment-type pix --amount 30',
        'payctl transactions create --amount 100 --card <card-id> --split <seller-id>:30%,net --split <seller-id>:10.00,liable',
        'payctl transactions create        # on a terminal: asks for everything, step by step',
      ),
    );
  addMoneyMoveFlags(create, false);
  create.action(action(() => import('./create.js')));

  const list = group
    .command('list')
    .description('List transactions, newest first')
    .option('--status <status>', 'only these statuses (comma-separated), e.g. succeeded,pre_authorized')
    .option('--payment-type <type>', 'only these payment types (comma-separated): credit, boleto, pix')
    .option('--reference-id <id>', 'only the transaction with this reference_id');
  addSellerFlag(list, "only this seller's sales (the provider's …/sellers/{id}/transactions)");
  addListFlags(list);
  addFindFlags(list);
  addGroupBy(list, ['seller', 'payment-type', 'card-brand', 'status']);
  list.addHelpText(
    'after',
    examples(
      'payctl transactions list --status succeeded --limit 5',
      'payctl transactions list --customer maria@example.com          # a customer says "I was charged twice"',
      'payctl transactions list --card-last4 4444 --amount 149,90',
      'payctl transactions list --holder "joao silva" --from 2026-09-01   # the last 30 days unless --from/--to',
      'payctl transactions list --from 2026-12-01 --to 2026-12-31 --group-by day     # a bar per day',
      'payctl transactions list --from 2026-12-01 --to 2026-12-31 --group-by card-brand -o csv',
      'payctl transactions list --from 2026-11-01 --to 2026-11-30 --all -o csv > november.csv',
      'payctl transactions list --reference-id order-1234 -o json | jq ".[0].id"',
      'payctl transactions list --seller <seller-id> --status succeeded',
    ),
  );
  list.action(action(() => import('./list.js')));

  group
    .command('get <id>')
    .description('Show one transaction')
    .addHelpText('after', examples('payctl transactions get 3f0c55e1a6b24c1b9b64b1e3a0c7d1f2', 'payctl transactions get <id> --fields id,status,amount,history -o json'))
    .action(action(() => import('./get.js')));

  group
    .command('update <id>')
    .description("Change a transaction's description or metadata")
    .option('--description <text>', 'new description')
    // The service merges metadata: keys not given keep their values.
    .option('--metadata <key=value>', 'metadata entry (repeatable; merged into the existing metadata)', collect)
    .addHelpText('after', examples('payctl transactions update <id> --description "Pedido 1234" --metadata order=1234', 'payctl transactions update <id> --description "Pedido 1234 (reenviado)"'))
    .action(action(() => import('./update.js')));

  const refund = group
    .command('refund [id]')
    .description('Refund (void) a transaction, in full or in part, or a batch from a file; asks for confirmation')
    .option('--amount <amount>', 'amount to refund in major units (default: all that remains)')
    .option('--amount-cents <cents>', 'amount to refund in cents')
    .option('--file <path|->', 'refund every row of a CSV (id, and amount, amount_cents, valor or valor_centavos; , or ; between cells) or NDJSON file, at most 1.000.000 rows; - reads stdin')
    .option('--full', 'with --file: refund all that remains of every row (the file then has no amount column)')
    .option('--concurrency <n>', 'with --file: refunds in flight at once (default 4; fewer while the service answers 429)')
    .option('--allow-duplicates', 'with --file: allow the same transaction on several rows (each row is a refund of its own)')
    .option('--failed-out <file>', 'with --file: where rows that were not refunded are written, for a retry (default: <input>.failed.csv beside the input)')
    .option('--max-wait <seconds>', 'with --file: the longest the batch waits in all on rate limits and an unavailable service (default 300); past it, it stops (a rerun resumes)');
  addMoneyMoveFlags(refund)
    .addHelpText(
      'after',
      examples(
        'payctl transactions refund <id>                 # all that remains, after a [y/N] confirmation',
        'payctl transactions refund <id> --amount 5.00 --yes',
        'payctl transactions refund <id> --amount 5.00 --yes --again   # payctl refunded it before: refund 5.00 more',
        'payctl transactions refund --file refunds.csv --concurrency 8',
        'payctl transactions refund --file estornos.csv --yes                # a pt-BR spreadsheet: id;valor, decimal commas',
        'payctl transactions refund --file ids.csv --full --yes              # only an id column: all that remains of each',
        'payctl transactions refund --file refunds.failed.csv --yes     # only the rows the last run could not refund',
        'payctl transactions list --status succeeded --from 2026-11-20 -o ndjson | payctl transactions refund --file - --yes > results.ndjson',
      ),
    )
    .action(action(() => import('./refund.js')));

  const capture = group
    .command('capture [id]')
    .description('Capture a pre-authorized card transaction, in full or in part; asks for confirmation')
    .option('--amount <amount>', 'amount to capture in major units (default: the authorized amount)')
    .option('--amount-cents <cents>', 'amount to capture in cents');
  addMoneyMoveFlags(capture)
    .addHelpText('after', examples('payctl transactions capture <id> --yes', 'payctl transactions capture <id> --amount 8.00'))
    .action(action(() => import('./capture.js')));

  group
    .command('cancellation-letter <id>')
    .description('Get the link to the cancellation letter of a canceled transaction')
    .option('--save <path>', 'download the letter to this file')
    .addHelpText('after', examples('payctl transactions cancellation-letter <id>', 'payctl transactions cancellation-letter <id> --save letter.pdf'))
    .action(action(() => import('./cancellation-letter.js')));
  const splits = group
    .command('splits')
    .description("Other sellers' parts of a sale (split rules): list, show, add and remove")
    .addHelpText('after', examples('payctl transactions splits list <transaction-id>', 'payctl transactions splits add <transaction-id> --split <seller-id>:30%,net'));
  splits
    .command('list <transaction-id>')
    .description("List a transaction's split rules: each recipient, its part, who pays its fees and what it gets")
    .addHelpText('after', examples('payctl transactions splits list <transaction-id>', 'payctl transactions splits list <transaction-id> -o json'))
    .action(action(() => import('./splits/list.js')));
  splits
    .command('get <transaction-id> <rule-id>')
    .description('Show one split rule')
    .addHelpText('after', examples('payctl transactions splits get <transaction-id> <rule-id>', 'payctl transactions splits get <transaction-id> <rule-id> --fields recipient,percentage,receivable_amount -o json'))
    .action(action(() => import('./splits/get.js')));
  splits
    .command('add <transaction-id>')
    .description("Give another seller a part of a sale, taken from the sale's seller; asks for confirmation")
    .option('--split <seller-id:part>', '<seller-id>:<amount|percent%>[,liable][,net], as for transactions create')
    .addHelpText(
      'after',
      examples('payctl transactions splits add <transaction-id> --split <seller-id>:30%,net', 'payctl transactions splits add <transaction-id> --split <seller-id>:7.50,liable --yes'),
    )
    .action(action(() => import('./splits/add.js')));
  splits
    .command('remove <transaction-id> <rule-id>')
    .description("Take a seller's part of a sale back to the sale's seller; asks for confirmation")
    .addHelpText('after', examples('payctl transactions splits remove <transaction-id> <rule-id>        # after a [y/N] confirmation', 'payctl transactions splits remove <transaction-id> <rule-id> --yes'))
    .action(action(() => import('./splits/remove.js')));
  requiredFirst(splits, { add: ['--split'] });
  requiredFirst(group, { create: ['--amount'] });
}
