import type { Command } from 'commander';
import type { ActionFactory } from '../verb.js';
import { examples, requiredFirst } from '../shared/help.js';

export function registerSandbox(program: Command, action: ActionFactory, withVerbs = true): void {
  const group = program
    .command('sandbox')
    .description('The embedded emulation of the payment service: serve it, reset it, pay boletos and PIX')
    .addHelpText('after', examples('payctl sandbox serve --port 4010', 'payctl sandbox pay <transaction-id>'));
  // Only the group the command line names needs its verbs (see buildProgram).
  if (!withVerbs) return;
  group
    .command('serve')
    .description('Run the sandbox as an HTTP server for other programs; each test key is a marketplace of its own')
    .option('--port <port>', 'port to listen on', '4010')
    .option('--host <host>', 'address to listen on; one that is not loopback needs --expose', '127.0.0.1')
    .option('--expose', 'allow a --host that other machines can reach (plain HTTP)')
    .option('--faults <spec>', 'fail a share of requests on purpose: 500-before=0.05,500-after=0.05,reset-before=0.05,reset-after=0.05,429=0.05,slow=0.02,late-apply=0.05 (plus retry-after=<s>, slow-ms=<ms>, late-ms=<ms>)')
    .addHelpText(
      'after',
      examples(
        'payctl sandbox serve --port 4010',
        'PAYCTL_BASE_URL=http://127.0.0.1:4010 PAYCTL_API_KEY=zpk_test_my_own_marketplace payctl transactions list',
        'payctl sandbox serve --faults 500-after=0.05,reset-before=0.05,429=0.05,retry-after=1',
        'payctl sandbox serve --faults late-apply=1,late-ms=5000   # every change lands 5 s after its connection is dropped',
      ),
    )
    .action(action(() => import('./serve.js')));
  group
    .command('reset')
    .description('Wipe the sandbox state (transactions, tokens); the seeded seller, buyer and card come back')
    .addHelpText('after', examples('payctl sandbox reset --yes', 'payctl sandbox reset                # asks first'))
    .action(action(() => import('./reset.js')));
  group
    .command('pay <transaction-id>')
    .description('Mark a pending boleto or PIX as paid (the sandbox-only approve operation)')
    .addHelpText('after', examples('payctl sandbox pay <transaction-id>', 'payctl sandbox pay $(payctl transactions create --payment-type pix --amount 30 -o json | jq -r .id)'))
    .action(action(() => import('./pay.js')));
  group
    .command('clock')
    .description("Show the sandbox's clock (it only moves forward with 'sandbox advance')")
    .addHelpText('after', examples('payctl sandbox clock', 'payctl sandbox clock -o json | jq -r .now'))
    .action(action(() => import('./clock.js').then((m) => ({ run: m.runClock }))));
  group
    .command('advance')
    .description('Move the sandbox clock forward and run every billing that fell due, in order, exactly once')
    .option('--days <n>', 'how many days to move forward')
    .addHelpText('after', examples('payctl sandbox advance --days 30', 'payctl sandbox advance --days 365 -o json | jq ".billed | length"'))
    .action(action(() => import('./clock.js').then((m) => ({ run: m.runAdvance }))));
  group
    .command('generate')
    .description('Trade for some days on the sandbox clock: sales (cards, PIX, boletos) spread over them, payouts as they fall due')
    .option('--sales <n>', 'how many sales (up to 1000000)')
    .option('--days <n>', 'over how many days (default 30); the clock ends that many days later')
    .addHelpText(
      'after',
      `${examples('payctl sandbox generate --sales 1000 --days 30', 'payctl sandbox generate --sales 100000 --days 400 && payctl transactions list --all -o csv > all.csv')}\n` +
        'It trades in parts of 20,000 sales, each reported on stderr; Ctrl-C (exit 3) keeps the parts\nalready traded.\n',
    )
    .action(action(() => import('./clock.js').then((m) => ({ run: m.runGenerate }))));
  requiredFirst(group, { advance: ['--days'], generate: ['--sales'] });
}
