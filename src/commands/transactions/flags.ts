import { MONEY_MOVE_FLAGS, WAIT_FLAGS } from '../shared/again.js';
import { cardFlags } from '../shared/card-flags.js';
import { amountFlags, METADATA_FLAG } from '../shared/common-flags.js';
import { groupByFlags } from '../shared/group-by-flag.js';
import { collect } from '../shared/input.js';
import { listFlags } from '../shared/list-flags.js';
import { sellerFlags } from '../shared/seller-flag.js';
import { defineVerb, flag, groupHelp } from '../verb.js';
import { FIND_FLAGS } from './find-flags.js';

// Flags and help are registered eagerly (cheap); each verb's code loads only when it runs.

export const transactions = groupHelp('transactions', 'Create, look up, refund and capture card, boleto and PIX transactions', ['payctl transactions list --status succeeded', 'payctl transactions refund <id> --amount 5.00'], ['tx']);

export const create = defineVerb({
  name: 'create',
  description: 'Create a transaction: card (new card, card on file, or customer), boleto, boleto with PIX, or PIX',
  flags: {
    paymentType: flag('--payment-type <type>', 'payment type', { choices: ['credit', 'boleto', 'bolepix', 'pix'] }),
    amount: flag('--amount <amount>', 'amount in major units, e.g. 10.50 or 10,50'),
    amountCents: flag('--amount-cents <cents>', 'amount in cents, e.g. 1050'),
    currency: flag('--currency <code>', 'three-letter currency (default: the profile currency, BRL)'),
    description: flag('--description <text>', 'description shown on the transaction'),
    referenceId: flag('--reference-id <id>', 'your unique reference: a rerun with the same one never charges twice (scripts: always pass one)'),
    allowDuplicateReference: flag('--allow-duplicate-reference', 'with --reference-id: create even when a transaction with that reference exists'),
    onBehalfOf: flag('--on-behalf-of <seller-id>', "seller responsible for the sale (default: the profile's seller_id)"),
    metadata: METADATA_FLAG,
    split: flag('--split <seller-id:part>', "another seller's part: <seller-id>:<amount|percent%>[,liable][,net] (repeatable; the sale's seller gets the rest)", { parse: collect }),
    ...cardFlags('charge'),
    installments: flag('--installments <n>', 'number of installments, 1-12'),
    capture: flag('--no-capture', 'only pre-authorize the card; capture later with "transactions capture"'),
    card: flag('--card <card-id>', 'charge a card on file'),
    customer: flag('--customer <buyer-id>', "the buyer: charge their default card (credit), or with a new card's details save it to them and charge it, or bill them (boleto, bolepix, pix)"),
    dueDate: flag('--due-date <YYYY-MM-DD>', 'boleto due date'),
    paymentLimitDate: flag('--payment-limit-date <YYYY-MM-DD>', 'last day the boleto can be paid'),
    instruction: flag('--instruction <text>', 'instruction printed on the boleto (repeatable, up to 5)', { parse: collect }),
    lateFee: flag('--late-fee <value>', 'late fee: a percentage like 2% or a fixed amount like 5.00'),
    interest: flag('--interest <value>', 'interest: 1% (monthly), 0.1%/day (daily) or a fixed daily amount like 0.50'),
    discount: flag('--discount <value@date>', 'discount until a date: 5%@2026-12-01 or 2.00@2026-12-01 (repeatable)', { parse: collect }),
    payerFirstName: flag('--payer-first-name <name>', 'boleto payer first name (payer not registered as a buyer)'),
    payerLastName: flag('--payer-last-name <name>', 'boleto payer last name'),
    payerEmail: flag('--payer-email <email>', 'boleto payer e-mail'),
    payerPhone: flag('--payer-phone <phone>', 'boleto payer phone'),
    payerTaxpayerId: flag('--payer-taxpayer-id <cpf|cnpj>', 'boleto payer CPF or CNPJ'),
    payerBirthdate: flag('--payer-birthdate <YYYY-MM-DD>', 'boleto payer birth date'),
    payerAddressLine1: flag('--payer-address-line1 <text>', 'boleto payer street'),
    payerAddressLine2: flag('--payer-address-line2 <text>', 'boleto payer number'),
    payerNeighborhood: flag('--payer-neighborhood <text>', 'boleto payer neighborhood'),
    payerCity: flag('--payer-city <text>', 'boleto payer city'),
    payerState: flag('--payer-state <UF>', 'boleto payer state (two letters)'),
    payerPostalCode: flag('--payer-postal-code <CEP>', 'boleto payer postal code (8 digits)'),
    pixExpiresAt: flag('--pix-expires-at <date-time>', 'PIX expiry, ISO date-time'),
    ...WAIT_FLAGS,
  },
  required: ['amount'],
  walkThrough: true,
  examples: [
    'payctl transactions create --amount 10.50 --card-number 4111111111111111 --holder-name "Maria Silva" --exp-month 12 --exp-year 2030 --cvv 123',
    'payctl transactions create --amount 99.90 --card-file card.json --installments 3 --no-capture',
    'payctl transactions create --amount 25 --card <card-id>',
    'payctl transactions create --amount 149.90 --customer <buyer-id> --card-file card.json    # a new card: saved to the buyer, then charged',
    'payctl transactions create --payment-type boleto --amount 150 --customer <buyer-id>',
    'payctl transactions create --payment-type boleto --amount 150 --customer <buyer-id> --due-date 2026-12-10 --late-fee 2% --interest 1% --instruction "Não receber após o vencimento"',
    'payctl transactions create --payment-type pix --amount 30',
    'payctl transactions create --amount 100 --card <card-id> --split <seller-id>:30%,net --split <seller-id>:10.00,liable',
    'payctl transactions create        # on a terminal: asks for everything, step by step',
  ],
});

export const list = defineVerb({
  name: 'list',
  description: 'List transactions, newest first',
  flags: {
    status: flag('--status <status>', 'only these statuses (comma-separated), e.g. succeeded,pre_authorized'),
    paymentType: flag('--payment-type <type>', 'only these payment types (comma-separated): credit, boleto, pix'),
    referenceId: flag('--reference-id <id>', 'only the transaction with this reference_id'),
    ...sellerFlags("only this seller's sales (the provider's …/sellers/{id}/transactions)"),
    ...listFlags(),
    ...FIND_FLAGS,
    ...groupByFlags(['seller', 'payment-type', 'card-brand', 'status']),
  },
  examples: [
    'payctl transactions list --status succeeded --limit 5',
    'payctl transactions list --customer maria@example.com          # a customer says "I was charged twice"',
    'payctl transactions list --card-last4 4444 --amount 149,90',
    'payctl transactions list --holder "joao silva" --from 2026-09-01   # the last 30 days unless --from/--to',
    'payctl transactions list --from 2026-12-01 --to 2026-12-31 --group-by day     # a bar per day',
    'payctl transactions list --from 2026-12-01 --to 2026-12-31 --group-by card-brand -o csv',
    'payctl transactions list --from 2026-11-01 --to 2026-11-30 --all -o csv > november.csv',
    'payctl transactions list --reference-id order-1234 -o json | jq ".[0].id"',
    'payctl transactions list --seller <seller-id> --status succeeded',
  ],
});

export const get = defineVerb({
  name: 'get <id>',
  noun: 'transaction',
  description: 'Show one transaction',
  examples: ['payctl transactions get 3f0c55e1a6b24c1b9b64b1e3a0c7d1f2', 'payctl transactions get <id> --fields id,status,amount,history -o json'],
});

export const update = defineVerb({
  name: 'update <id>',
  noun: 'transaction',
  description: "Change a transaction's description or metadata",
  flags: {
    description: flag('--description <text>', 'new description'),
    // The service merges metadata: keys not given keep their values.
    metadata: flag('--metadata <key=value>', 'metadata entry (repeatable; merged into the existing metadata)', { parse: collect }),
  },
  examples: ['payctl transactions update <id> --description "Pedido 1234" --metadata order=1234', 'payctl transactions update <id> --description "Pedido 1234 (reenviado)"'],
});

export const refund = defineVerb({
  name: 'refund [id]',
  noun: 'transaction',
  description: 'Refund (void) a transaction, in full or in part, or a batch from a file; asks for confirmation',
  flags: {
    ...amountFlags('amount to refund', 'default: all that remains'),
    file: flag('--file <path|->', 'refund every row of a CSV (id, and amount, amount_cents, valor or valor_centavos; , or ; between cells) or NDJSON file, at most 1.000.000 rows; - reads stdin'),
    full: flag('--full', 'with --file: refund all that remains of every row (the file then has no amount column)'),
    concurrency: flag('--concurrency <n>', 'with --file: refunds in flight at once (default 4; fewer while the service answers 429)'),
    allowDuplicates: flag('--allow-duplicates', 'with --file: allow the same transaction on several rows (each row is a refund of its own)'),
    failedOut: flag('--failed-out <file>', 'with --file: where rows that were not refunded are written, for a retry (default: <input>.failed.csv beside the input)'),
    maxWait: flag('--max-wait <seconds>', 'with --file: the longest the batch waits in all on rate limits and an unavailable service (default 300); past it, it stops (a rerun resumes)'),
    ...MONEY_MOVE_FLAGS,
  },
  examples: [
    'payctl transactions refund <id>                 # all that remains, after a partial refund too; asks [y/N]',
    'payctl transactions refund <id> --amount 5.00 --yes',
    'payctl transactions refund <id> --amount 5.00 --yes --again   # payctl refunded it before: refund 5.00 more',
    "payctl transactions refund <id> --amount 600 --wait   # above a rule of the team's policy: exit 13 naming the request, or with --wait the decision",
    'payctl transactions refund --file refunds.csv --concurrency 8',
    'payctl transactions refund --file estornos.csv --yes                # a pt-BR spreadsheet: id;valor, decimal commas',
    'payctl transactions refund --file ids.csv --full --yes              # only an id column: all that remains of each',
    'payctl transactions refund --file refunds.failed.csv --yes     # only the rows the last run could not refund',
    'payctl transactions list --status succeeded --from 2026-11-20 -o ndjson | payctl transactions refund --file - --yes > results.ndjson',
  ],
});

export const capture = defineVerb({
  name: 'capture [id]',
  noun: 'transaction',
  description: 'Capture a pre-authorized card transaction, in full or in part; asks for confirmation',
  flags: {
    ...amountFlags('amount to capture', 'default: the authorized amount'),
    ...MONEY_MOVE_FLAGS,
  },
  examples: ['payctl transactions capture <id> --yes', 'payctl transactions capture <id> --amount 8.00', 'payctl transactions capture <id> --yes --wait   # a capture a rule sends for approval: wait for the decision'],
});

export const cancellationLetter = defineVerb({
  name: 'cancellation-letter <id>',
  noun: 'transaction',
  description: 'Get the link to the cancellation letter of a canceled transaction',
  flags: { save: flag('--save <path>', 'download the letter to this file') },
  examples: ['payctl transactions cancellation-letter <id>', 'payctl transactions cancellation-letter <id> --save letter.pdf'],
});

export const splits = groupHelp('splits', "Other sellers' parts of a sale (split rules): list, show, add and remove", ['payctl transactions splits list <transaction-id>', 'payctl transactions splits add <transaction-id> --split <seller-id>:30%,net']);

export const splitsList = defineVerb({
  name: 'list <transaction-id>',
  description: "List a transaction's split rules: each recipient, its part, who pays its fees and what it gets",
  examples: ['payctl transactions splits list <transaction-id>', 'payctl transactions splits list <transaction-id> -o json'],
});

export const splitsGet = defineVerb({
  name: 'get <transaction-id> <rule-id>',
  asks: { 'rule-id': { noun: 'split rule' } },
  description: 'Show one split rule',
  examples: ['payctl transactions splits get <transaction-id> <rule-id>', 'payctl transactions splits get <transaction-id> <rule-id> --fields recipient,percentage,receivable_amount -o json'],
});

export const splitsAdd = defineVerb({
  name: 'add <transaction-id>',
  description: "Give another seller a part of a sale, taken from the sale's seller; asks for confirmation",
  flags: { split: flag('--split <seller-id:part>', '<seller-id>:<amount|percent%>[,liable][,net], as for transactions create', { ask: 'Split (<seller-id>:<amount|percent%>[,liable][,net])' }), ...WAIT_FLAGS },
  required: ['split'],
  examples: ['payctl transactions splits add <transaction-id> --split <seller-id>:30%,net', 'payctl transactions splits add <transaction-id> --split <seller-id>:7.50,liable --yes'],
});

export const splitsRemove = defineVerb({
  name: 'remove <transaction-id> <rule-id>',
  asks: { 'rule-id': { noun: 'split rule' } },
  description: "Take a seller's part of a sale back to the sale's seller; asks for confirmation",
  flags: WAIT_FLAGS,
  examples: ['payctl transactions splits remove <transaction-id> <rule-id>        # after a [y/N] confirmation', 'payctl transactions splits remove <transaction-id> <rule-id> --yes'],
});
