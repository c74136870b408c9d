import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/run.js';
import { ANSI, SANDBOX_LINE, cardFlags, create, expectJson, expectUsage, lastError, run } from './helpers.js';
import type { Transaction } from '../../src/sandbox/types.js';

// Output formats and colour, on one shared sandbox: a succeeded card payment, a pre-authorized
// one and a large pending PIX (created oldest first).
let shared: { home: string; cleanup: () => void };
let paid: Transaction;
let held: Transaction;
let pix: Transaction;
beforeAll(async () => {
  shared = tempHome();
  paid = await create(shared.home, ['--amount', '1234.50', ...cardFlags(), '--description', 'Pedido 1', '--reference-id', 'out-1']);
  held = await create(shared.home, ['--amount', '10', ...cardFlags(), '--no-capture', '--reference-id', 'out-2'], 'pre_authorized');
  pix = await create(shared.home, ['--payment-type', 'pix', '--amount', '1234567.89', '--reference-id', 'out-3'], 'pending');
});
afterAll(() => shared.cleanup());

type Options = { tty?: boolean; env?: Record<string, string>; stdin?: string };
const payctl = <const A extends readonly string[]>(args: A, options: Options = {}) => run(shared.home, args, options);

const GREEN = (text: string) => `\x1b[32m${text}\x1b[39m`;
const YELLOW = (text: string) => `\x1b[33m${text}\x1b[39m`;
const BOLD = (text: string) => `\x1b[1m${text}\x1b[22m`;

/** A successful table run: exit 0, nothing on stderr; returns the lines of stdout. */
function tableLines(result: { code: number; stdout: string; stderr: string }): string[] {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toBe('');
  expect(result.stdout.endsWith('\n')).toBe(true);
  return result.stdout.slice(0, -1).split('\n');
}

describe('format defaults', () => {
  it('piped: JSON', async () => {
    const result = await payctl(['transactions', 'list']);
    expect(expectJson(result).map((t) => t.id)).toEqual([pix.id, held.id, paid.id]);
    expect(result.stderr).toBe('');
  });

  it('on a terminal: a table, one row per transaction under a header', async () => {
    const lines = tableLines(await payctl(['transactions', 'list', '--no-color'], { tty: true }));
    // Header, three rows, the totals line and the zone of the times, UTC's too.
    expect(lines).toHaveLength(6);
    expect(lines[4]).toMatch(/^3 transactions {2}gross R\$ [\d.,]+ {2}fees R\$ [\d.,]+ {2}net R\$ [\d.,]+$/);
    expect(lines[5]).toBe('times in UTC');
    // One row: one transaction, not "1 transactions".
    const one = tableLines(await payctl(['transactions', 'list', '--reference-id', 'out-3', '--no-color'], { tty: true }));
    expect(one.at(-2)).toMatch(/^1 transaction {2}gross R\$ /);
    // Cut at --limit: how many there are in all, and how to see them.
    const cut = tableLines(await payctl(['transactions', 'list', '--limit', '1', '--no-color'], { tty: true }));
    expect(cut.at(-2)).toMatch(/^1 of 3 transactions \(--all for every one\) {2}gross R\$ /);
    expect(lines[0]).toMatch(/^ID\s+STATUS\s+AMOUNT\s+TYPE\s+PAYER\s+REFERENCE\s+DESCRIPTION\s+CREATED$/);
    expect(lines[1]).toMatch(new RegExp(`^${pix.id}\\s+pending\\s+R\\$ 1\\.234\\.567,89\\s+pix\\s+out-3\\s+\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}$`));
    expect(lines[3]).toMatch(new RegExp(`^${paid.id}\\s+succeeded\\s+R\\$ 1\\.234,50\\s+credit\\s+••••1111 Visa Maria Silva\\s+out-1\\s+Pedido 1\\s+\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}$`));
    // Money is right-aligned: the amounts end in the same column.
    const ends = lines.slice(1, 4).map((l) => l.indexOf(',') + 3);
    expect(new Set(ends).size).toBe(1);
  });

  it('-o json on a terminal is JSON, and never coloured', async () => {
    const result = await payctl(['transactions', 'list', '-o', 'json'], { tty: true, env: { FORCE_COLOR: '1' } });
    expect(expectJson(result)).toHaveLength(3);
    expect(result.stdout).not.toMatch(ANSI);
    expect(result.stderr).toBe('');
  });

  it('global options work before the verb too', async () => {
    const result = await payctl(['-o', 'ndjson', '--fields', 'id', 'transactions', 'list']);
    expect(result).toEqual({ code: 0, stdout: [pix, held, paid].map((t) => `{"id":"${t.id}"}\n`).join(''), stderr: '' });
  });

  it('an unknown -o format or an empty --fields: exit 2', async () => {
    expectUsage(await payctl(['transactions', 'list', '-o', 'xml']), '--output: "xml" is not an output format', 'table, json, ndjson, csv');
    expectUsage(await payctl(['transactions', 'list', '--fields', ',']), '--fields:');
  });
});

describe('colour', () => {
  it('a terminal gets coloured statuses and a bold header', async () => {
    const lines = tableLines(await payctl(['transactions', 'list'], { tty: true }));
    expect(lines[0]).toContain(BOLD('ID'));
    expect(lines[1]).toContain(YELLOW('pending'));
    expect(lines[2]).toContain(YELLOW('pre_authorized'));
    expect(lines[3]).toContain(GREEN('succeeded'));
    expect(lines[3]).toContain('R$ 1.234,50');
  });

  it.each([
    ['--no-color', ['--no-color'], {}],
    ['NO_COLOR=1', [], { NO_COLOR: '1' }],
    ['TERM=dumb', [], { TERM: 'dumb' }],
  ])('%s on a terminal: no ANSI at all', async (_name, flags, env) => {
    const list = tableLines(await payctl(['transactions', 'list', ...flags], { tty: true, env }));
    expect(list.join('\n')).not.toMatch(ANSI);
    expect(list[3]).toContain('succeeded');
    expect(list[3]).toContain('R$ 1.234,50');
    const one = tableLines(await payctl(['transactions', 'get', paid.id, ...flags], { tty: true, env }));
    expect(one.join('\n')).not.toMatch(ANSI);
  });

  // The documented precedence is flag > environment.
  it('--no-color beats FORCE_COLOR from the environment', async () => {
    const lines = tableLines(await payctl(['transactions', 'list', '--no-color'], { tty: true, env: { FORCE_COLOR: '1' } }));
    expect(lines.join('\n')).not.toMatch(ANSI);
  });

  it('an empty NO_COLOR does not turn colour off', async () => {
    const lines = tableLines(await payctl(['transactions', 'list'], { tty: true, env: { NO_COLOR: '' } }));
    expect(lines[3]).toContain(GREEN('succeeded'));
  });

  it('a table into a pipe is plain; FORCE_COLOR=1 colours it', async () => {
    const plain = tableLines(await payctl(['transactions', 'list', '-o', 'table']));
    expect(plain.join('\n')).not.toMatch(ANSI);
    const forced = tableLines(await payctl(['transactions', 'list', '-o', 'table'], { env: { FORCE_COLOR: '1' } }));
    expect(forced[3]).toContain(GREEN('succeeded'));
    expect(forced[1]).toContain(YELLOW('pending'));
    expect(forced[0]).toContain(BOLD('STATUS'));
  });
});

describe('a single object', () => {
  it('as sections: a titled summary, the payment method, fees and the history as its own table', async () => {
    const lines = tableLines(await payctl(['transactions', 'get', paid.id, '--no-color'], { tty: true }));
    const created = `${paid.created_at.slice(0, 10)} ${paid.created_at.slice(11, 16)}`;
    expect(lines[0]).toBe(`Transaction ${paid.id}  succeeded`);
    // The summary runs to the first blank line; the payment method section follows it.
    const pairs = new Map(lines.slice(0, lines.indexOf('Fees')).map((l) => {
      const [key, ...rest] = l.trim().split(/\s{2,}/);
      return [key, rest.join('  ')] as const;
    }));
    expect(pairs.get('Amount')).toBe('R$ 1.234,50');
    expect(pairs.get('Type')).toBe('credit');
    expect(pairs.get('Description')).toBe('Pedido 1');
    expect(pairs.get('Created')).toBe(created);
    expect(pairs.get('Card')).toMatch(/^Visa ••••1111  expires \d{2}\/\d{4}$/);
    // Nothing refunded: no "Original" or "Refunded" line; no empty metadata section.
    expect(pairs.has('Original')).toBe(false);
    expect(pairs.has('Refunded')).toBe(false);
    expect(lines).not.toContain('Metadata');
    for (const title of ['Payment method', 'Fees', 'History']) expect(lines).toContain(title);
    const history = lines.slice(lines.indexOf('History') + 1, -1);
    expect(history[0]?.trim().split(/\s{2,}/)).toEqual(['DATE', 'OPERATION', 'STATUS', 'AMOUNT', 'RESPONSE']);
    expect(history).toHaveLength(3);
    // The view ends naming the zone of its times.
    expect(lines.at(-1)).toBe('times in UTC');
    expect(history[2]).toMatch(/^ {2}\d{4}-\d{2}-\d{2} \d{2}:\d{2} {2}authorization {2}succeeded {2}R\$ 1\.234,50 {2}/);
    // A normal sale fits a 24-line screen.
    expect(lines.length).toBeLessThanOrEqual(24);
  });

  it('after a refund: the refunded amount in the view, and the refund itself prints the short summary', async () => {
    const own = tempHome();
    try {
      const tx = JSON.parse((await run(own.home, ['transactions', 'create', '--amount', '50', '--card-number', '4111111111111111', '--holder-name', 'Maria Silva', '--exp-month', '12', '--exp-year', '2030', '--cvv', '123', '-o', 'json'])).stdout);
      const refund = await run(own.home, ['transactions', 'refund', tx.id, '--amount', '12,5', '--yes', '--no-color'], { tty: true });
      expect(refund.code, refund.stderr).toBe(0);
      const summary = refund.stdout.trimEnd().split('\n');
      expect(summary[0]).toBe(`Transaction ${tx.id}  succeeded`);
      expect(summary).toContain('Refunded     R$ 12,50');
      expect(summary).toContain('Original     R$ 50,00');
      expect(refund.stdout).not.toContain('History');
      const view = await run(own.home, ['transactions', 'get', tx.id, '--no-color'], { tty: true });
      expect(view.stdout).toMatch(/^ {2}\S+ \S+ +void +succeeded +R\$ 12,50 /m);
    } finally {
      own.cleanup();
    }
  });

  it('--fields on a single-object table: only those rows', async () => {
    const lines = tableLines(await payctl(['transactions', 'get', pix.id, '--fields', 'id,status,amount', '--no-color'], { tty: true }));
    expect(lines.map((l) => l.split(/\s{2,}/))).toEqual([
      ['id', pix.id],
      ['status', 'pending'],
      ['amount', 'R$ 1.234.567,89'],
    ]);
  });

  it('as ndjson: one line; as csv: a header and one row', async () => {
    const ndjson = await payctl(['transactions', 'get', held.id, '-o', 'ndjson']);
    expect(ndjson.code).toBe(0);
    expect(ndjson.stderr).toBe('');
    expect(ndjson.stdout.split('\n')).toHaveLength(2);
    expect(JSON.parse(ndjson.stdout)).toEqual(held);

    const csv = await payctl(['transactions', 'get', held.id, '-o', 'csv', '--fields', 'id,status,amount,payment_method.card_brand,captured']);
    expect(csv).toEqual({ code: 0, stdout: `id,status,amount,payment_method.card_brand,captured\n${held.id},pre_authorized,10.00,Visa,false\n`, stderr: '' });
  });

  it('create with -o table: the view get shows on stdout, SANDBOX and the status line on stderr', async () => {
    const own = tempHome();
    try {
      const result = await run(own.home, ['transactions', 'create', '--payment-type', 'pix', '--amount', '2,5', '-o', 'table', '--no-color']);
      expect(result.code).toBe(0);
      const lines = result.stdout.trimEnd().split('\n');
      const id = /^Transaction ([0-9a-f]{32}) {2}pending$/.exec(lines[0] ?? '')?.[1];
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      const rows = lines.slice(1).map((l) => l.split(/\s{2,}/));
      expect(rows).toContainEqual(['Amount', 'R$ 2,50']);
      expect(rows).toContainEqual(['Type', 'pix']);
      // The whole view, how it is paid and its history included: what get shows of it.
      expect(result.stdout).toContain('\nPayment method\n');
      expect(result.stdout).toContain('\nHistory\n');
      expect((await run(own.home, ['transactions', 'get', id as string, '-o', 'table', '--no-color'])).stdout).toBe(result.stdout);
      expect(result.stderr).toBe(`${SANDBOX_LINE}Created transaction ${id} (pending, R$ 2,50)\n`);
    } finally {
      own.cleanup();
    }
  });
});

describe('--dry-run output formats', () => {
  it('-o ndjson --dry-run prints the request as one JSON line', async () => {
    const result = await payctl(['transactions', 'update', pix.id, '--description', 'x', '--dry-run', '-o', 'ndjson']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('dry run: nothing was sent\n');
    expect(result.stdout.split('\n')).toHaveLength(2);
    expect(JSON.parse(result.stdout)).toMatchObject({ dry_run: true, method: 'PUT' });
  });
});

describe('streams', () => {
  it('--quiet drops the status line but never the SANDBOX notice', async () => {
    const result = await payctl(['transactions', 'update', pix.id, '--description', 'quiet', '-q']);
    expect(expectJson(result)).toMatchObject({ id: pix.id, description: 'quiet' });
    expect(result.stderr).toBe(SANDBOX_LINE);
    const empty = await payctl(['transactions', 'list', '--status', 'canceled', '--quiet']);
    expect(empty).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });

  it('read-only commands print no SANDBOX notice; errors go to stderr only, also for tables', async () => {
    const get = await payctl(['transactions', 'get', paid.id, '--fields', 'id']);
    expect(get).toEqual({ code: 0, stdout: `{\n  "id": "${paid.id}"\n}\n`, stderr: '' });
    const missing = await payctl(['transactions', 'get', '1'.repeat(32)], { tty: true });
    expect(missing.code).toBe(5);
    expect(missing.stdout).toBe('');
    // One error, wrapped between words on a terminal.
    expect(missing.stderr).toBe(`${lastError(missing.stderr).block}\n`);
    expect(lastError(missing.stderr).text).toMatch(/^error: Sorry, the transaction \(id: 1{32}\) .* \(resource_not_found, HTTP 404\)$/);
  });

  it('an error starts with one "error:", on a terminal as in a pipe, and --debug does not say it again', async () => {
    const cases = [
      ['transactions', 'get', 'no-such-reference'], // payctl's own (a CliError)
      ['transactions', 'get', '1'.repeat(32)], // the service's (an ApiError)
      ['transactions', 'list', '--from', '2026-13-01'], // a flag's
      ['transactions', 'lsit'], // commander's
    ];
    for (const args of cases) {
      for (const tty of [true, false]) {
        const result = await payctl(args, { tty });
        expect(result.code, args.join(' ')).toBeGreaterThan(1);
        const lines = result.stderr.trimEnd().split('\n');
        expect(lines[0], args.join(' ')).toMatch(/^error: \S/);
        expect(result.stderr.match(/error:/gi), `${args.join(' ')}\n${result.stderr}`).toHaveLength(1);
      }
      // The stack's frames follow the line, not the message again under the error's class name.
      const debug = (await payctl([...args, '--debug'], { tty: true })).stderr.split('\n');
      const frames = debug.findIndex((line) => /^\s+at /.test(line));
      // (The error's own later lines, wrapped on a terminal, are under its text.)
      if (frames >= 0) expect(debug.slice(0, frames).filter((line) => !/^ {7}\S/.test(line)).at(-1), debug.join('\n')).toMatch(/^error: /);
    }
  });

  it('--debug adds a stack trace to an error; without it there is none', async () => {
    const plain = await payctl(['transactions', 'refund', paid.id, '--amount', '99999', '--yes']);
    expect(plain.code).toBe(6);
    expect(plain.stdout).toBe('');
    expect(plain.stderr).not.toMatch(/^\s+at /m);
    const debug = await payctl(['transactions', 'refund', paid.id, '--amount', '99999', '--yes', '--debug']);
    expect(debug.code).toBe(6);
    expect(debug.stdout).toBe('');
    // Refused before sending (more than is left): the read that showed what is left is logged, no void.
    expect(debug.stderr).toMatch(/error: R\$ 99\.999,00 is more than the R\$ [\d.]+,\d\d left to refund on transaction [0-9a-f]{32}; nothing was sent/);
    expect(debug.stderr).toMatch(/^\s+at /m);
    expect(debug.stderr).toMatch(/^< HTTP 200/m);
    expect(debug.stderr).not.toMatch(/^> POST /m);
  });
});
