import { afterEach, describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import * as z from 'zod/mini';
import { resourceSchemas } from '../../src/provider/schemas/index.js';
import { fieldTree, findUnknown, listPaths, mergeTrees } from '../../src/provider/schemas/fields.js';
import { buildProgram } from '../../src/cli.js';
import { PRINTED } from '../../src/commands/printed-fields.js';
import { flatten } from '../../src/output/fields.js';
import { SANDBOX_BUYER_ID } from '../../src/provider/sandbox-account.js';
import { recordingServer, type RecordingServer, type Reply } from '../helpers/recording-server.js';
import { cardFlags, cardJson, day, expectJson, expectUsage, present, run } from './helpers.js';

// --fields is checked against the schema of what a verb prints, before anything is sent: a typo
// exits 2 naming it and the fields there are, and `--fields help` lists every dotted path.
const json = async <const A extends readonly string[]>(home: string, args: A, stdin?: string) => expectJson(await run(home, [...args, '-o', 'json', '--yes'], stdin === undefined ? {} : { stdin }));

describe('field paths read off a schema', () => {
  const schema = z.object({
    id: z.string(),
    amount: z.optional(z.nullable(z.string())),
    metadata: z.optional(z.record(z.string(), z.unknown())),
    history: z.optional(z.array(z.object({ amount: z.string(), status: z.string() }))),
    method: z.union([z.object({ card_brand: z.string() }), z.object({ barcode: z.string() })]),
    extra: z.looseObject({}),
  });
  const tree = fieldTree(schema);

  it('knows fields, array items (with or without an index), union options and free-form objects', () => {
    for (const path of ['id', 'amount', 'metadata', 'metadata.order', 'metadata.order.id', 'history', 'history.amount', 'history.0.amount', 'history.12', 'method.card_brand', 'method.barcode', 'extra.anything.below']) {
      expect(findUnknown(tree, path), path).toBeUndefined();
    }
  });

  it('names where a path stops being known, and what is there instead', () => {
    expect(findUnknown(tree, 'stauts')).toEqual({ path: 'stauts', parent: '', siblings: ['id', 'amount', 'metadata', 'history', 'method', 'extra'] });
    expect(findUnknown(tree, 'history.0.amont')).toEqual({ path: 'history.0.amont', parent: 'history.0', siblings: ['amount', 'status'] });
    expect(findUnknown(tree, 'amount.cents')).toEqual({ path: 'amount.cents', parent: 'amount', siblings: [] });
    expect(findUnknown(tree, 'id.')).toMatchObject({ parent: 'id' });
    expect(findUnknown(tree, 'constructor')).toMatchObject({ parent: '' });
  });

  it('lists every path, parents first, <key> for a free-form object', () => {
    expect(listPaths(tree)).toEqual(['id', 'amount', 'metadata', 'metadata.<key>', 'history', 'history.amount', 'history.status', 'method', 'method.card_brand', 'method.barcode', 'extra', 'extra.<key>']);
  });
});

describe('an unknown --fields path', () => {
  it('exits 2 naming it, with a suggestion and the top-level fields, in every format', async ({ home }) => {
    for (const format of ['table', 'json', 'ndjson', 'csv']) {
      const line = expectUsage(await run(home, ['transactions', 'list', '-o', format, '--fields', 'id,stauts']), '--fields: unknown field "stauts" (did you mean status?) for transactions');
      expect(line).toMatch(/; fields: id, resource, status, amount, .*, history, reference_id, split_rules; '--fields help' lists every path$/);
    }
  });

  it('below a known field: names what that field has, or that it has nothing below it', async ({ home }) => {
    expectUsage(
      await run(home, ['transactions', 'get', 'f'.repeat(32), '--fields', 'payment_method.card_brnd']),
      'unknown field "payment_method.card_brnd" (did you mean payment_method.card_brand?) for transactions; payment_method has: id, resource, description, card_brand,',
    );
    expectUsage(await run(home, ['transactions', 'get', 'f'.repeat(32), '--fields', 'amount.cents,nope']), 'unknown fields "amount.cents", "nope" for transactions; amount has nothing below it;');
  });

  it('is checked against the verb: a plan has uuid, a subscription list has no amount.cents', async ({ home }) => {
    expectUsage(await run(home, ['plans', 'get', 'f'.repeat(32), '--fields', 'id']), 'unknown field "id" for plans; fields: uuid,');
    expectUsage(await run(home, ['subscriptions', 'list', '--fields', 'amount.cents']), 'for subscriptions; amount has nothing below it');
    expectUsage(await run(home, ['future-entries', 'list', '--fields', 'fees']), 'unknown field "fees" (did you mean fee?) for future entries;');
    expectUsage(await run(home, ['events', 'replay', 'f'.repeat(32), '--fields', 'events']), 'unknown field "events" (did you mean event?) for event replays; fields: id, event, webhooks, at;');
  });

  it('a table-only column is accepted for a table and named as such otherwise', async ({ home }) => {
    await json(home, ['buyers', 'create', '--first-name', 'João', '--taxpayer-id', '390.533.447-05']);
    const table = await run(home, ['buyers', 'list', '--fields', 'name,document', '--no-color'], { tty: true });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^NAME\s+CPF\/CNPJ\n/);
    expect(table.stdout).toMatch(/\nJoão\s+\*\*\*\.\*\*\*\.\*47-05\n/);
    expectUsage(await run(home, ['buyers', 'list', '-o', 'json', '--fields', 'id,name']), 'unknown field "name" (shown in tables only) for buyers');
  });
});

describe('nothing is sent when --fields is wrong', () => {
  let server: RecordingServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const TX = 'e'.repeat(32);
  const transaction = { id: TX, status: 'succeeded', amount: '10.00', currency: 'BRL', on_behalf_of: 'b'.repeat(32), history: [] };

  /** A run against a live-like service that answers with `replies`: by default, none (it must be asked nothing). */
  async function against(home: string, args: string[], replies: Reply[] = []) {
    server = await recordingServer(replies);
    return run(home, args, { env: { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: 'zpk_live_abcdefgh12345678', PAYCTL_MARKETPLACE_ID: 'a'.repeat(32) } });
  }

  it('a refund, a capture and a create: exit 2 and no request at all', async ({ home }) => {
    for (const args of [
      ['transactions', 'refund', TX, '--amount', '1.00'],
      ['transactions', 'capture', TX],
      ['transactions', 'create', '--amount', '10', ...cardFlags(), '--reference-id', 'r-1'],
      ['subscriptions', 'suspend', 'f'.repeat(32)],
    ]) {
      expectUsage(await against(home, [...args, '--yes', '--fields', 'stauts']), 'unknown field "stauts"');
      expect(server!.requests, args.join(' ')).toEqual([]);
      await server!.close();
      server = undefined;
    }
  });

  it('--fields help lists the paths and sends nothing', async ({ home }) => {
    const result = await against(home, ['transactions', 'refund', TX, '--yes', '--fields', 'help']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const paths = result.stdout.trimEnd().split('\n');
    expect(paths.slice(0, 4)).toEqual(['id', 'resource', 'status', 'amount']);
    expect(paths).toEqual(expect.arrayContaining(['payment_method.card_brand', 'payment_method.qr_code.emv', 'history.amount', 'metadata.<key>']));
    expect(server!.requests).toEqual([]);
  });

  it('--fields help needs no <id>, and global options may come first', async ({ home }) => {
    for (const args of [['plans', 'get', '--fields', 'help'], ['--fields', 'help', 'plans', 'get']]) {
      const result = await run(home, args);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.split('\n').slice(0, 2)).toEqual(['uuid', 'resource']);
      expect(result.stderr).toBe('');
    }
    expectUsage(await run(home, ['--fields', 'id', 'plans', 'get', 'f'.repeat(32)]), 'unknown field "id" for plans');
  });

  it('`payctl api` prints whatever the endpoint answers: its --fields is not checked', async ({ home }) => {
    const result = await against(home, ['api', 'GET', `/transactions/${TX}`, '--fields', 'id,anything.at.all'], [{ status: 200, body: transaction }]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ id: TX });
    expect(server!.requests).toHaveLength(1);
  });

  it('--fields help where the output has no schema: exit 2 saying so, nothing sent', async ({ home }) => {
    expectUsage(await against(home, ['api', 'GET', `/transactions/${TX}`, '--fields', 'help']), '--fields help: payctl api prints no API resource with a known set of fields');
    expect(server!.requests).toEqual([]);
  });
});

describe('known paths pass', () => {
  it('nested, through arrays with or without an index, and any metadata key', async ({ home }) => {
    const tx = await json(home, ['transactions', 'create', '--amount', '10.50', ...cardFlags(), '--metadata', 'order.id=42']);
    const result = await run(home, ['transactions', 'get', tx.id, '-o', 'json', '--fields', 'id,payment_method.card_brand,history.0.operation_type,history.status,metadata.order.id']);
    expect(expectJson(result)).toEqual({
      id: tx.id,
      payment_method: { card_brand: 'Visa' },
      history: [{ operation_type: 'created', status: 'succeeded' }, { status: 'succeeded' }],
      metadata: { 'order.id': '42' },
    });
  });

  it('every field the embedded sandbox prints is one --fields accepts for that verb', async ({ home }) => {
    const printedBy = new Map<string, unknown[]>();
    const note = async <const A extends readonly string[]>(args: A, stdin?: string) => {
      const out = await json(home, args, stdin);
      const verb = args.slice(0, 2).join(' ');
      printedBy.set(verb, [...(printedBy.get(verb) ?? []), ...(Array.isArray(out) ? out : [out])]);
      return out;
    };
    const card = await note(['transactions', 'create', '--amount', '99.90', ...cardFlags(), '--installments', '3', '--metadata', 'a=b']);
    await note(['transactions', 'create', '--payment-type', 'boleto', '--amount', '150', '--customer', SANDBOX_BUYER_ID, '--due-date', day(20), '--late-fee', '2%', '--interest', '1%', '--discount', `5%@${day(10)}`]);
    const bolepix = await note(['transactions', 'create', '--payment-type', 'bolepix', '--amount', '150', '--customer', SANDBOX_BUYER_ID]);
    const pix = await note(['transactions', 'create', '--payment-type', 'pix', '--amount', '30']);
    await note(['sandbox', 'pay', pix.id]);
    await note(['transactions', 'refund', card.id, '--amount', '1']);
    await note(['transactions', 'list']);
    await note(['boletos', 'get', bolepix.payment_method.id]);
    await note(['boletos', 'send', bolepix.payment_method.id]);
    await note(['receipts', 'get', present(card.sales_receipt)]);
    await note(['receivables', 'list', '--transaction', card.id]);
    const buyer = await note(['buyers', 'create', '--first-name', 'João', '--taxpayer-id', '390.533.447-05', '--city', 'Rio']);
    const token = await note(['cards', 'tokenize', '--card-file', '-'], cardJson());
    const onFile = await note(['cards', 'associate', '--token', token.id, '--customer', buyer.id]);
    await note(['cards', 'remove', onFile.id]);
    await note(['buyers', 'remove', buyer.id]);
    const plan = await note(['plans', 'create', '--name', 'Mensal', '--amount', '20', '--frequency', 'monthly']);
    const subscription = await note(['subscriptions', 'create', '--plan', plan.uuid, '--customer', SANDBOX_BUYER_ID]);
    await note(['subscriptions', 'remove', subscription.uuid]);
    await note(['plans', 'remove', plan.uuid]);
    await note(['invoices', 'create', '--customer', SANDBOX_BUYER_ID, '--amount', '150', '--due-date', day(2)]);
    await note(['balances', 'get']);
    await note(['webhooks', 'create', '--url', 'https://example.com/hook', '--event', '*']);
    const events = await note(['events', 'list']);
    await note(['events', 'replay', present(events[0]).id]);

    const unknown: string[] = [];
    for (const [verb, items] of printedBy) {
      const printed = PRINTED[verb]!;
      const tree = (typeof printed.resource === 'string' ? [printed.resource] : printed.resource).map((r) => fieldTree(resourceSchemas[r])).reduce(mergeTrees);
      for (const item of items) {
        for (const path of Object.keys(flatten(item, { expandArrays: true }))) if (findUnknown(tree, path)) unknown.push(`${verb}: ${path}`);
      }
    }
    expect([...new Set(unknown)]).toEqual([]);
    expect(printedBy.size).toBeGreaterThanOrEqual(20);
  });

  it('every verb the table names exists', () => {
    const program = buildProgram({ io: { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, env: {} } });
    // Groups hold verbs, and may hold groups of their own (transactions splits list).
    type Named = { name(): string; commands: readonly Named[] };
    const paths = (command: Named, prefix: string): string[] => [prefix, ...command.commands.flatMap((verb) => paths(verb, `${prefix} ${verb.name()}`))];
    const verbs = program.commands.flatMap((group) => paths(group, group.name()));
    for (const verb of Object.keys(PRINTED)) expect(verbs, verb).toContain(verb);
  });
});
