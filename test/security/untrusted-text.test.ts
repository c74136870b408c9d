import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { parse } from '../helpers/csv.js';
import { SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { CVV, EXP_YEAR, VISA, cardFlags, expectJson, run } from '../commands/helpers.js';
import { providerError, recordingServer } from '../helpers/recording-server.js';
import { payctl, tempHome, type RunResult } from '../helpers/run.js';

// Descriptions and holder names are typed by buyers and sellers: a CSV of them is opened in a
// spreadsheet, a table of them is drawn on someone's terminal. Neither may act on what they hold.
const FORMULAS = [
  "=cmd|' /C calc'!A0",
  '+SUM(A1:A9)',
  '-2+3',
  '@HYPERLINK("http://evil.example","click")',
  '\t=1+1',
  '\r=1+1',
];
/** As a spreadsheet shows them from payctl's CSV: text, never run. */
const DEFUSED = ["'=cmd|' /C calc'!A0", "'+SUM(A1:A9)", "'-2+3", '\'@HYPERLINK("http://evil.example","click")', "' =1+1", "' =1+1"];
/** As --csv-raw writes them: as given, but for the tab and carriage return, which become spaces. */
const RAW = ["=cmd|' /C calc'!A0", '+SUM(A1:A9)', '-2+3', '@HYPERLINK("http://evil.example","click")', ' =1+1', ' =1+1'];
const HOLDER = 'Maria \x1b[31mRed\x1b[0m\x1b]0;pwned\x07 Silva\x07';
const ESCAPES = 'Pedido \x1b[2J\x1b[1;1H42\x9b31m\x7f';

let home: { home: string; cleanup: () => void };
const ids: string[] = [];

function column(rows: string[][], name: string): string[] {
  const at = rows[0]!.indexOf(name);
  expect(at, `no column ${name} in ${rows[0]!.join(',')}`).toBeGreaterThanOrEqual(0);
  return rows.slice(1).map((row) => row[at]!);
}

/** Rows by transaction id, oldest first (the order they were created in). */
function byCreation(rows: string[][], name: string): string[] {
  const at = rows[0]!.indexOf('id');
  const values = new Map(rows.slice(1).map((row) => [row[at]!, row[rows[0]!.indexOf(name)]!]));
  return ids.map((id) => values.get(id)!);
}

function csvOf(result: RunResult): string[][] {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  return parse(result.stdout);
}

beforeAll(async () => {
  home = tempHome();
  // payctl refuses control characters in what it sends (transactions create: exit 2), but another
  // client of the account may store them: they go in here through `payctl api`, which sends as given.
  for (const description of [...FORMULAS, ESCAPES, '-4.00']) {
    const body = {
      amount: 1000,
      currency: 'BRL',
      payment_type: 'credit',
      on_behalf_of: SANDBOX_SELLER_ID,
      description,
      source: {
        usage: 'single_use',
        amount: 1000,
        currency: 'BRL',
        type: 'card',
        card: { card_number: VISA, holder_name: HOLDER, expiration_month: '12', expiration_year: EXP_YEAR, security_code: CVV },
      },
    };
    const created = z.parse(z.looseObject({ id: z.string(), status: z.string() }), expectJson(await run(home.home, ['api', 'POST', 'transactions', '--input', '-'], { stdin: JSON.stringify(body) })));
    expect(created.status).toBe('succeeded');
    ids.push(created.id);
  }
  // The same text given to transactions create is refused before anything is sent.
  const refused = await run(home.home, ['transactions', 'create', '--amount', '10.00', ...cardFlags(undefined, { '--holder-name': HOLDER }), '--description', 'x']);
  expect(refused.code, refused.stderr).toBe(2);
  expect(refused.stderr).toContain('error: --holder-name: holds a control character, U+001B (an escape), which the service would store; write it without one. Nothing was sent');
  // A partial refund: the balance history gets a debit, a negative amount.
  const refund = await run(home.home, ['transactions', 'refund', ids[0]!, '--amount', '4.00', '--yes', '-o', 'json']);
  expect(refund.code, refund.stderr).toBe(0);
});

afterAll(() => home.cleanup());

describe('transactions list -o csv against the sandbox', () => {
  it("prefixes formula cells with ', removes escape codes, keeps amounts", async () => {
    const rows = csvOf(await run(home.home, ['transactions', 'list', '-o', 'csv']));
    expect(byCreation(rows, 'description')).toEqual([...DEFUSED, 'Pedido 42', '-4.00']);
    expect(new Set(column(rows, 'payment_method.holder_name'))).toEqual(new Set(['Maria Red Silva']));
    expect(new Set(column(rows, 'amount'))).toEqual(new Set(['10.00', '6.00']));
  });

  it('--csv-raw writes the formulas as they are; escape codes still go', async () => {
    const rows = csvOf(await run(home.home, ['transactions', 'list', '-o', 'csv', '--csv-raw']));
    expect(byCreation(rows, 'description')).toEqual([...RAW, 'Pedido 42', '-4.00']);
    expect(new Set(column(rows, 'payment_method.holder_name'))).toEqual(new Set(['Maria Red Silva']));
  });

  it('negative amounts in the balance history stay numbers', async () => {
    const rows = csvOf(await run(home.home, ['balances', 'history', '--all', '-o', 'csv']));
    const amounts = column(rows, 'amount');
    expect(amounts.some((a) => /^-\d+\.\d{2}$/.test(a))).toBe(true);
    for (const amount of amounts) expect(amount).toMatch(/^-?\d+\.\d{2}$/);
  });
});

describe('payctl export --format csv', () => {
  it("prefixes formula cells with ', removes escape codes, keeps amounts", async () => {
    const rows = csvOf(await run(home.home, ['export', 'transactions', '--format', 'csv']));
    expect(byCreation(rows, 'description')).toEqual([...DEFUSED, 'Pedido 42', '-4.00']);
    expect(new Set(column(rows, 'payment_method.holder_name'))).toEqual(new Set(['Maria Red Silva']));
  });

  it('--csv-raw writes the formulas as they are', async () => {
    const rows = csvOf(await run(home.home, ['export', 'transactions', '--format', 'csv', '--csv-raw']));
    expect(byCreation(rows, 'description')).toEqual([...RAW, 'Pedido 42', '-4.00']);
  });

  it('negative amounts in an export of the balance history stay numbers', async () => {
    const amounts = column(csvOf(await run(home.home, ['export', 'balance-history', '--format', 'csv'])), 'amount');
    expect(amounts.some((a) => /^-\d+\.\d{2}$/.test(a))).toBe(true);
    for (const amount of amounts) expect(amount).toMatch(/^-?\d+\.\d{2}$/);
  });
});

describe('tables', () => {
  const noEscapes = (text: string) => {
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    // Nor what is left of a sequence whose ESC alone was taken out.
    expect(text).not.toMatch(/\[(?:31|0|2J|1;1H)[mJH]|\]0;pwned/);
  };

  it('a list shows no escape code from a description or holder name, coloured or not', async () => {
    for (const color of [[], ['--no-color']]) {
      const result = await run(home.home, ['transactions', 'list', '-o', 'table', '--fields', 'id,description,payment_method.holder_name', ...color]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('Maria Red Silva');
      expect(result.stdout).toContain('Pedido 42');
      noEscapes(result.stdout);
    }
  });

  it("a transaction's view shows none either", async () => {
    const result = await run(home.home, ['transactions', 'get', ids[6]!, '-o', 'table'], { tty: true, columns: 120 });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Maria Red Silva');
    expect(result.stdout).toContain('Pedido 42');
    // On a terminal the view is coloured: only payctl's own colour codes may be there.
    noEscapes(result.stdout.replace(/\x1b\[(?:1|2|22|3\d|39)m/g, ''));
  });
});

describe('messages and --debug lines', () => {
  const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

  it("an API error quoting a buyer's text reaches stderr without its escape codes", async () => {
    const server = await recordingServer([{ status: 400, body: providerError(400, 'invalid_parameter', 'bad description \x1b]0;pwned\x07"\x1b[2Jx\x9b31m"') }]);
    try {
      const env = { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: 'zpk_test_untrusted1', PAYCTL_MARKETPLACE_ID: 'm1' };
      const result = await payctl(['transactions', 'get', 'tx1', '--debug'], { home: home.home, env });
      expect(result.code).toBe(6);
      expect(result.stderr).toContain('error: bad description "x"');
      expect(result.stderr).not.toMatch(CONTROLS);
      // The window title went whole, not just its ESC (the JSON body in the --debug log shows it escaped).
      expect(result.stderr.split('\n').filter((line) => line.startsWith('error: '))).toEqual(['error: bad description "x" (invalid_parameter, HTTP 400)']);
    } finally {
      await server.close();
    }
  });

  it('--debug logs a text answer without its escape codes', async () => {
    const server = await recordingServer([{ status: 200, raw: 'hello \x1b[2J\x1b[31mworld\r\n\x07' }]);
    try {
      const env = { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: 'zpk_test_untrusted1', PAYCTL_MARKETPLACE_ID: 'm1' };
      const result = await payctl(['api', 'GET', '/ping', '--debug'], { home: home.home, env });
      expect(result.stderr).toContain('< hello world');
      expect(result.stderr).not.toMatch(CONTROLS);
    } finally {
      await server.close();
    }
  });
});
