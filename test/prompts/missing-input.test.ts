import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_BUYER_ID, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { converse, KEY } from '../helpers/interactive.js';
import { payctl, payctlJson, tempHome, type RunOptions } from '../helpers/run.js';
import { cardFlags, expectUsage } from '../commands/helpers.js';

// Every create and every verb with a required argument asks, on a terminal, for what the command
// line leaves out (read off the verb's definition: its required arguments and flags); an id as a
// choice among the resource's latest, or typed. With prompts off, exit 2 names every missing one
// and the true reason nothing was asked. The conversations run as a person at a terminal would
// (test/helpers/interactive.ts), with no agent's variables in their environment.

let shared: { home: string; cleanup: () => void };
const home = () => shared.home;
const json = <T,>(args: string[]) => payctlJson<T>(args, { home: home() });
let plan: { uuid: string; name: string };

beforeAll(async () => {
  shared = tempHome();
  plan = await json<typeof plan>(['plans', 'create', '--name', 'Mensal', '--amount', '29.90', '--frequency', 'monthly']);
});
afterAll(() => shared.cleanup());

describe('on a terminal, what the command line leaves out is asked for', () => {
  it('plans create: the name, the price (a bad one asked again) and the frequency, chosen', async () => {
    const result = await converse(['plans', 'create', '-o', 'json'], home(), [
      { prompt: /Plan name/, keys: `Trimestral${KEY.enter}` },
      { prompt: /Price per cycle/, keys: `abc${KEY.enter}` },
      { prompt: /"abc" is not an amount/, keys: `\x7f\x7f\x7f79,90${KEY.enter}` },
      { prompt: /Billing frequency/, keys: `${KEY.down}${KEY.down}${KEY.enter}` }, // monthly
    ]);
    expect(result.code, result.stderr).toBe(0);
    const created = JSON.parse(result.stdout);
    expect(created).toMatchObject({ name: 'Trimestral', amount: 7990, frequency: 'monthly' });
    expect((await json<{ name: string }>(['plans', 'get', created.uuid])).name).toBe('Trimestral');
  });

  it('subscriptions create: the plan and the buyer, each chosen among the latest by name', async () => {
    const result = await converse(['subscriptions', 'create', '-o', 'json'], home(), [
      { prompt: /Plan/, choose: 'Mensal · R$ 29,90 monthly · active' },
      { prompt: /Buyer/, choose: 'Maria Silva · maria.silva@example.com' },
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ plan: plan.uuid, customer: SANDBOX_BUYER_ID, status: 'active' });
  });

  it('subscriptions create with no seller in the profile: the seller chosen; for a buyer with no card, its id asked for', async () => {
    const result = await converse(['subscriptions', 'create', '--plan', plan.uuid, '--customer', SANDBOX_BUYER_ID, '-o', 'json'], home(), [{ prompt: /Seller/, choose: 'Loja Sandbox' }], { PAYCTL_SELLER_ID: '' });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ customer: SANDBOX_BUYER_ID, on_behalf_of: SANDBOX_SELLER_ID });
    const buyer = await json<{ id: string }>(['buyers', 'create', '--first-name', 'Ana', '--taxpayer-id', '111.444.777-35']);
    const args = ['subscriptions', 'create', '--plan', plan.uuid, '--customer', buyer.id];
    expectUsage(await payctl(args, { home: home() }), `missing required flag --card (buyer ${buyer.id} has no default card) (prompts are off: neither stdin nor stdout is a terminal)`);
    const asked = await converse(args, home(), [{ prompt: new RegExp(`Card id \\(buyer ${buyer.id} has no default card\\)`), keys: KEY.ctrlC }]);
    expect(asked.code).toBe(3);
  });

  it('webhooks create: the URL (a bad one asked again) and the event types', async () => {
    const result = await converse(['webhooks', 'create', '-o', 'json'], home(), [
      { prompt: /Webhook URL \(https\)/, keys: `http://shop.example.com/hooks${KEY.enter}` },
      { prompt: /must use https:\/\//, keys: `${'\x7f'.repeat(29)}https://shop.example.com/hooks${KEY.enter}` },
      { prompt: /Event types to receive/, keys: `transaction.succeeded,invoice.paid${KEY.enter}` },
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ url: 'https://shop.example.com/hooks', events: ['transaction.succeeded', 'invoice.paid'] });
  });

  it('invoices create and cards associate: the buyer chosen, an amount and a token typed', async () => {
    const invoice = await converse(['invoices', 'create', '-o', 'json'], home(), [
      { prompt: /Buyer/, choose: 'Maria Silva' },
      { prompt: /Amount \(e\.g\. 10,50\)/, keys: `15,00${KEY.enter}` },
    ]);
    expect(invoice.code, invoice.stderr).toBe(0);
    expect(JSON.parse(invoice.stdout)).toMatchObject({ customer: SANDBOX_BUYER_ID, amount: 1500 });

    const token = await json<{ id: string }>(['cards', 'tokenize', ...cardFlags('5555555555554444')]);
    const card = await converse(['cards', 'associate', '-o', 'json'], home(), [
      { prompt: /Token id/, keys: `${token.id}${KEY.enter}` },
      { prompt: /Buyer/, choose: 'Maria Silva' },
    ]);
    expect(card.code, card.stderr).toBe(0);
    expect(JSON.parse(card.stdout)).toMatchObject({ customer: SANDBOX_BUYER_ID, last4_digits: '4444' });
  });

  it('a verb by id: chosen among the latest, or typed when the one wanted is not there', async () => {
    const chosen = await converse(['plans', 'get', '-o', 'json'], home(), [{ prompt: /Plan/, choose: 'Mensal' }]);
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(JSON.parse(chosen.stdout).uuid).toBe(plan.uuid);
    const typed = await converse(['buyers', 'get', '-o', 'json'], home(), [
      { prompt: /Buyer/, choose: 'Another (type its id)' },
      { prompt: /Buyer id/, keys: `not an id!${KEY.enter}` },
      { prompt: /malformed buyer id/, keys: `${'\x7f'.repeat(10)}${SANDBOX_BUYER_ID}${KEY.enter}` },
    ]);
    expect(typed.code, typed.stderr).toBe(0);
    expect(JSON.parse(typed.stdout).id).toBe(SANDBOX_BUYER_ID);
  });

  it('transfers explain: a transfer chosen among the latest', async ({ onTestFinished }) => {
    const own = tempHome();
    onTestFinished(own.cleanup);
    const sale = await payctlJson<{ id: string }>(['transactions', 'create', '--amount', '100', ...cardFlags()], { home: own.home });
    await payctlJson(['sandbox', 'advance', '--days', '31'], { home: own.home });
    const result = await converse(['transfers', 'explain', '-o', 'json'], own.home, [{ prompt: /Transfer/, choose: ' · succeeded' }]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).items.map((item: { transaction: string }) => item.transaction)).toEqual([sale.id]);
  });

  it('arguments that are no ids: a setting and a profile chosen, a search typed', async () => {
    const setting = await converse(['config', 'get'], home(), [{ prompt: /Setting/, choose: 'currency' }]);
    expect(setting.code, setting.stderr).toBe(0);
    expect(setting.stdout).toBe('BRL\n');
    const found = await converse(['buyers', 'find', '-o', 'json'], home(), [{ prompt: /E-mail, CPF\/CNPJ or a part of the name/, keys: `maria${KEY.enter}` }]);
    expect(found.code, found.stderr).toBe(0);
    expect(JSON.parse(found.stdout).map((b: { id: string }) => b.id)).toEqual([SANDBOX_BUYER_ID]);
  });
});

describe('with prompts off, exit 2 names what is missing and the true reason nothing was asked', () => {
  const PIPED = 'neither stdin nor stdout is a terminal';
  const families: [string[], string][] = [
    [['plans', 'create', '--name', 'X'], 'missing required flags --amount (or --amount-cents), --frequency'],
    [['subscriptions', 'create'], 'missing required flags --plan, --customer'],
    [['webhooks', 'create', '--event', '*'], 'missing required flag --url'],
    [['invoices', 'create'], 'missing required flags --customer, --amount (or --amount-cents)'],
    [['cards', 'associate'], 'missing required flags --token, --customer'],
    [['buyers', 'create', '--first-name', 'Ana'], 'missing required flag --taxpayer-id'],
    [['sellers', 'create'], 'say who the seller is: a person with --first-name'],
    [['sellers', 'create', '--business-name', 'Loja'], 'missing required flags --ein, --email'],
    [['transfers', 'explain'], 'missing required argument <id>'],
    [['buyers', 'get'], 'missing required argument <id>'],
    [['receipts', 'email'], 'missing required input <id>, --to'],
    [['transactions', 'splits', 'get'], 'missing required arguments <transaction-id>, <rule-id>'],
    [['config', 'set'], 'missing required arguments <key>, <value>'],
    [['reconcile', '--from', '2026-11-01'], 'missing required flag --to'],
    [['sandbox', 'advance'], 'missing required flag --days'],
    [['balances', 'accounts'], 'missing required flag --buyer'],
  ];
  const reasons: [string, Omit<RunOptions, 'home'>, string][] = [
    ['piped', {}, PIPED],
    ['--no-input on a terminal', { tty: true }, '--no-input was given'],
    ["an AI agent's shell on a terminal", { tty: true, env: { CODEX_SANDBOX: 'seatbelt' } }, "this is an AI agent's shell, CODEX_SANDBOX is set"],
    ['piped into another program', { tty: true, notTty: 'stdout' }, 'stdout is not a terminal'],
  ];
  it.for(families)('%j', async ([args, missing]) => {
    for (const [name, options, why] of reasons) {
      const result = await payctl([...args, ...(name.startsWith('--no-input') ? ['--no-input'] : [])], { home: home(), ...options });
      expect(expectUsage(result, missing), name).toContain(`(prompts are off: ${why})`);
    }
  });

  it('several reasons are all said; --yes is asked for with the same reason', async () => {
    const both = await payctl(['plans', 'get', '--no-input'], { home: home(), env: { PAYCTL_ACTOR: 'agent' } });
    expectUsage(both, "missing required argument <id> (prompts are off: --no-input was given; this is an AI agent's shell, PAYCTL_ACTOR=agent; neither stdin nor stdout is a terminal)");
    const removal = await payctl(['plans', 'remove', plan.uuid], { home: home(), tty: true, env: { GEMINI_CLI: '1' } });
    expectUsage(removal, "--yes required to", "when prompts are off (this is an AI agent's shell, GEMINI_CLI is set)");
    expect((await json<{ status: string }>(['plans', 'get', plan.uuid])).status).toBe('active');
  });
});
