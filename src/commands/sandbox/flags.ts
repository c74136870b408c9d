import { defineVerb, flag, groupHelp, requiring } from '../verb.js';

export const sandbox = groupHelp('sandbox', 'The embedded emulation of the payment service: serve it, reset it, pay boletos and PIX', ['payctl sandbox serve --port 4010', 'payctl sandbox pay <transaction-id>']);

export const serve = defineVerb({
  name: 'serve',
  description: 'Run the sandbox as an HTTP server for other programs; each test key is a marketplace of its own',
  flags: {
    port: flag('--port <port>', 'port to listen on', { default: '4010' }),
    host: flag('--host <host>', 'address to listen on; one that is not loopback needs --expose', { default: '127.0.0.1' }),
    expose: flag('--expose', 'allow a --host that other machines can reach (plain HTTP)'),
    faults: flag(
      '--faults <spec>',
      'fail a share of requests on purpose: kind=share, comma-separated, of the kinds 500-before, 500-after, reset-before, reset-after, 429, slow and late-apply (e.g. 429=0.05,late-apply=0.05); plus retry-after=<s>, slow-ms=<ms>, late-ms=<ms>',
    ),
  },
  examples: [
    'payctl sandbox serve --port 4010',
    'PAYCTL_BASE_URL=http://127.0.0.1:4010 PAYCTL_API_KEY=zpk_test_my_own_marketplace payctl transactions list',
    'payctl sandbox serve --faults 500-after=0.05,429=0.05,retry-after=1',
    'payctl sandbox serve --faults late-apply=1,late-ms=5000   # every change lands 5 s after its connection is dropped',
  ],
});

export const reset = defineVerb({
  name: 'reset',
  description: 'Wipe the sandbox state (transactions, tokens); the seeded seller, buyer and card come back',
  examples: ['payctl sandbox reset --yes', 'payctl sandbox reset                # asks first'],
});

export const pay = defineVerb({
  name: 'pay <transaction-id>',
  description: 'Mark a pending boleto or PIX as paid (the sandbox-only approve operation)',
  examples: ['payctl sandbox pay <transaction-id>', 'payctl sandbox pay $(payctl transactions create --payment-type pix --amount 30 -o json | jq -r .id)'],
});

export const clock = defineVerb({
  name: 'clock',
  description: "Show the sandbox's clock (it only moves forward with 'sandbox advance')",
  examples: ['payctl sandbox clock', 'payctl sandbox clock -o json | jq -r .now'],
});

export const advance = defineVerb({
  name: 'advance',
  description: 'Move the sandbox clock forward and run every billing that fell due, in order, exactly once',
  ...requiring({ days: flag('--days <n>', 'how many days to move forward') }),
  examples: ['payctl sandbox advance --days 30', 'payctl sandbox advance --days 365 -o json | jq ".billed | length"'],
});

export const generate = defineVerb({
  name: 'generate',
  description:
    "Trade for some days on the sandbox clock as a shop does: buyers with CPFs and cards on file, card sales (some in instalments), PIX and boletos, refunds, disputes and chargebacks, payouts as they fall due",
  flags: {
    sales: flag('--sales <n>', 'how many sales (up to 1000000)'),
    days: flag('--days <n>', 'over how many days (default 90); the clock ends that many days later'),
    seed: flag('--seed <n>', 'which shop: the same seed makes the same buyers, amounts and fates (default 1)'),
  },
  required: ['sales'],
  examples: [
    'payctl sandbox generate --sales 20000          # three months of a shop, the clock at their end',
    "payctl buyers find 027.370.422-24              # seed 1's most frequent buyer; buyers list shows the others",
    'payctl transactions list --status dispute,charged_back --from 2000-01-01',
    'payctl sandbox generate --sales 1000 --days 30 --seed 7',
    'payctl sandbox generate --sales 100000 --days 400 && payctl transactions list --all -o csv > all.csv',
  ],
  notes:
    'Two sales in three are by card, on cards of Visa, Mastercard, Elo, Hipercard and American Express\n' +
    '(some in 2 to 12 instalments), one in five by PIX, one in ten by boleto; most boletos and PIX are\n' +
    'paid, some left pending. A few sales are refunded in whole or in part days later, and now and then\n' +
    'a card sale is disputed days or weeks later: charged back, kept by the seller, or still open.\n' +
    'Generating again with the same seed sells to the same buyers again. It trades in parts of 10,000\n' +
    'sales, each reported on stderr; Ctrl-C (exit 3) keeps the parts already traded.\n',
});
