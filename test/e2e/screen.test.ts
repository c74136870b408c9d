// What a person sees on a real terminal: the built binary run inside tmux at 80 and 120 columns,
// and the screen read back (the whole scrollback). Tables fit, ids stay whole, money shows as R$,
// the progress bar never lands inside a row, single objects read as sections.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome, testEnv } from '../helpers/run.js';

const BIN = fileURLToPath(new URL('../../bin/payctl.js', import.meta.url));
const HAS_TMUX = spawnSync('tmux', ['-V']).status === 0;

let home: { home: string; cleanup: () => void };
let socket = 0;

/**
 * Runs a shell command line in a tmux window `width` columns wide and returns every line shown,
 * scrollback included, once it has ended (it touches a file then: what is on the screen may be
 * garbled, which is what these tests look for).
 */
function screen(width: number, commandLine: string, height = 60): string[] {
  const name = `payctl-test-${process.pid}-${socket++}`;
  const env = { ...testEnv(home.home), TERM: 'xterm-256color' };
  const script = join(home.home, `screen-${socket}.sh`);
  const done = join(home.home, `screen-${socket}.done`);
  const config = join(home.home, 'tmux.conf');
  writeFileSync(config, 'set -g history-limit 50000\n');
  writeFileSync(script, `${commandLine}\ntouch ${done}\nsleep 120\n`);
  execFileSync('tmux', ['-L', name, '-f', config, 'new-session', '-d', '-x', String(width), '-y', String(height), 'sh', script], { env });
  try {
    const deadline = Date.now() + 60_000;
    while (!existsSync(done)) {
      if (Date.now() > deadline) throw new Error(`${commandLine} did not end within 60 s`);
      spawnSync('sleep', ['0.1']);
    }
    // Let the terminal take in the last bytes written.
    spawnSync('sleep', ['0.2']);
    const shown = execFileSync('tmux', ['-L', name, 'capture-pane', '-p', '-S', '-', '-J'], { encoding: 'utf8' });
    return shown.replace(/\n+$/, '').split('\n').map((line) => line.replace(/\s+$/, ''));
  } finally {
    spawnSync('tmux', ['-L', name, 'kill-server']);
  }
}

/**
 * As `screen`, but a person answers: each step waits until the screen shows `wait`, then types
 * `keys` (tmux key names: "Enter", "Down", or literal text).
 */
function conversation(width: number, commandLine: string, steps: Array<{ wait: RegExp; keys: string[] }>, height = 40): string[] {
  const name = `payctl-test-${process.pid}-${socket++}`;
  const env = { ...testEnv(home.home), TERM: 'xterm-256color', TZ: 'America/Sao_Paulo' };
  const script = join(home.home, `talk-${socket}.sh`);
  const done = join(home.home, `talk-${socket}.done`);
  writeFileSync(script, `${commandLine}\ntouch ${done}\nsleep 120\n`);
  execFileSync('tmux', ['-L', name, 'new-session', '-d', '-x', String(width), '-y', String(height), 'sh', script], { env });
  const shown = () => execFileSync('tmux', ['-L', name, 'capture-pane', '-p', '-S', '-', '-J'], { encoding: 'utf8' });
  try {
    for (const step of steps) {
      const deadline = Date.now() + 20_000;
      while (!step.wait.test(shown())) {
        if (Date.now() > deadline) throw new Error(`${step.wait} never showed; the screen:\n${shown()}`);
        spawnSync('sleep', ['0.1']);
      }
      spawnSync('sleep', ['0.2']);
      for (const key of step.keys) execFileSync('tmux', ['-L', name, 'send-keys', key]);
    }
    const deadline = Date.now() + 30_000;
    while (!existsSync(done)) {
      if (Date.now() > deadline) throw new Error(`${commandLine} did not end; the screen:\n${shown()}`);
      spawnSync('sleep', ['0.1']);
    }
    spawnSync('sleep', ['0.2']);
    return shown().replace(/\n+$/, '').split('\n').map((line) => line.replace(/\s+$/, ''));
  } finally {
    spawnSync('tmux', ['-L', name, 'kill-server']);
  }
}

const payctl = (args: string) => `"${process.execPath}" "${BIN}" ${args}`;
const json = (args: string) => JSON.parse(execFileSync(process.execPath, [BIN, ...args.split(' '), '-o', 'json'], { env: testEnv(home.home), encoding: 'utf8' }));

function expectFits(lines: string[], width: number): void {
  for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(width);
}

/** The lines of each of these help sections, from its heading to the next blank line. */
function sections(lines: string[], headings: string[]): string[][] {
  return headings.flatMap((heading) => {
    const start = lines.indexOf(heading);
    if (start < 0) return [];
    const end = lines.indexOf('', start);
    return [lines.slice(start + 1, end < 0 ? undefined : end)];
  });
}

/**
 * How a section of terms and meanings is laid out: two columns (every meaning, and every line it
 * goes on to, starts at one column), stacked (each term alone on its line, its meaning on the
 * lines under it, indented 4 more), or mixed.
 */
function layoutOf(section: string[]): 'two columns' | 'stacked' | 'mixed' {
  const columns = new Set(section.map((line) => (/^ {2}\S.*? {2,}(?=\S)/.exec(line)?.[0] ?? /^ +/.exec(line)?.[0] ?? '').length));
  if (columns.size === 1 && !columns.has(2)) return 'two columns';
  if (section.every((line) => /^ {2}\S(?!.* {2})/.test(line) || /^ {6}\S/.test(line))) return 'stacked';
  return 'mixed';
}

const ID = /\b[0-9a-f]{32}\b/;
const BAR = /[█░]/;

describe.skipIf(!HAS_TMUX)('on a real terminal (tmux)', () => {
  let card: { id: string };
  beforeAll(() => {
    home = tempHome();
    // 6,000 sales: enough for a listing slow enough to show its progress bar.
    execFileSync(process.execPath, [BIN, 'sandbox', 'generate', '--sales', '6000', '-q', '-o', 'json'], { env: testEnv(home.home), encoding: 'utf8' });
    // A sale made through payctl, whose generated reference id is 45 characters long.
    card = json('transactions create --amount 250 --card-number 4111111111111111 --holder-name Maria --exp-month 12 --exp-year 2031 --cvv 123');
    json(`transactions refund ${card.id} --amount 40 --yes`);
  }, 120_000);
  afterAll(() => home?.cleanup());

  for (const width of [80, 120]) {
    it(`transactions list at ${width} columns: one line a row, whole ids, R$ amounts`, () => {
      const lines = screen(width, payctl('transactions list --limit 10'));
      expectFits(lines, width);
      const header = lines.find((line) => line.startsWith('ID '));
      expect(header).toBeDefined();
      const rows = lines.filter((line) => ID.test(line));
      expect(rows).toHaveLength(10);
      for (const row of rows) {
        expect(row).toMatch(/^[0-9a-f]{32} {2}/);
        expect(row).toMatch(/R\$ [\d.]+,\d{2}/);
        expect(row).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
      }
      // Cut at --limit: the footer says how many there are in all.
      const footer = lines.find((line) => line.startsWith('10 of '));
      expect(footer === undefined ? undefined : /^10 of 6\.001 transactions \(--all for every one\)( {2}gross R\$|$)/.test(footer)).toBe(true);
      // The description gives way before anything else, then the reference; from 100 columns the
      // payer (card and holder) shows.
      if (width === 120) expect(header).toContain('PAYER');
      else expect(header).not.toContain('DESCRIPTION');
    });

    it(`transactions get at ${width} columns: sections within a screen, the history as a table`, () => {
      const lines = screen(width, payctl(`transactions get ${card.id}`));
      expectFits(lines, width);
      const view = lines.slice(lines.findIndex((line) => line.startsWith('Transaction ')));
      expect(view[0]).toBe(`Transaction ${card.id}  succeeded`);
      expect(view).toContain('Refunded     R$ 40,00');
      expect(view).toContain('  Card    Visa ••••1111  expires 12/2031');
      // The seller by name, its id beside it.
      expect(view.find((line) => line.startsWith('Seller '))).toMatch(/^Seller +Loja Sandbox Ltda {2}[0-9a-f]{32}$/);
      const history = view.indexOf('History');
      expect(view[history + 1]?.trim().split(/\s{2,}/)).toEqual(['DATE', 'OPERATION', 'STATUS', 'AMOUNT', 'RESPONSE']);
      expect(view.slice(history + 2).some((line) => /void +succeeded +R\$ 40,00/.test(line))).toBe(true);
      expect(view.length).toBeLessThanOrEqual(24);
      expect(view.at(-1)).toBe('times in UTC');
    });

    it(`balances current at ${width} columns: R$ and a local date, not raw numbers`, () => {
      const lines = screen(width, payctl('balances current'));
      expectFits(lines, width);
      const view = lines.slice(lines.findIndex((line) => line.startsWith('Account ')));
      expect(view[0]).toMatch(/^Account [0-9a-f]{32}$/);
      expect(view[1]).toMatch(/^Current +R\$ [\d.]+,\d{2}$/);
      expect(view.find((line) => line.startsWith('As of'))).toMatch(/^As of +\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    });
  }

  it('a grouped list at 80 columns, in São Paulo: a row a day with its bar, the totals, the zone; a cut list says "20 of 6.001"', () => {
    const lines = screen(80, `TZ=America/Sao_Paulo ${payctl('transactions list --group-by day')}; ${payctl('transactions list')}`);
    expectFits(lines, 80);
    const header = lines.findIndex((line) => line.startsWith('DAY '));
    expect(lines[header]?.trim().split(/\s{2,}/)).toEqual(['DAY', 'COUNT', 'GROSS', 'FEES', 'REFUNDS', 'NET']);
    const days = lines.slice(header + 1).filter((line) => /^\d{4}-\d{2}-\d{2} /.test(line));
    expect(days.length).toBeGreaterThanOrEqual(30);
    for (const day of days) expect(day).toMatch(/^\d{4}-\d{2}-\d{2} +[\d.]+ +R\$ [\d.]+,\d\d +R\$ [\d.]+,\d\d +R\$ [\d.]+,\d\d +R\$ [\d.]+,\d\d +[█▏▎▍▌▋▊▉]+$/);
    // The largest day's bar is the longest, and the bars fit beside the numbers.
    const longest = Math.max(...days.map((day) => (day.match(/[█▏▎▍▌▋▊▉]+$/) as RegExpMatchArray)[0].length));
    expect(longest).toBeGreaterThanOrEqual(4);
    expect(lines.some((line) => /^6\.001 transactions( {2}gross R\$ |$)/.test(line))).toBe(true);
    expect(lines).toContain('times in America/Sao_Paulo (UTC−03:00)');
    expect(lines.some((line) => /^20 of 6\.001 transactions \(--all for every one\)/.test(line))).toBe(true);
  });

  for (const width of [60, 80, 120]) {
    it(`help and topics at ${width} columns: every line fits, wrapped between words, the same words as unwrapped`, () => {
      // The marks of a wrapped example: a line's " \\", a comment's "#" again on its next line.
      const words = (lines: string[]) => lines.join(' ').split(/\s+/).filter((w) => w !== '' && w !== '\\' && w !== '#');
      const helps = ['--help', 'transactions --help', 'buyers --help', 'transactions list --help', 'transactions refund --help', 'export --help', 'reconcile --help', 'help exactly-once', 'help exit-codes'];
      for (const args of helps) {
        // -J joins what the terminal itself wrapped: a line longer than the width would come back whole.
        const narrow = screen(width, payctl(args), 250);
        expectFits(narrow, width);
        const wide = screen(250, payctl(args), 250);
        expect(words(narrow), args).toEqual(words(wide));
        // An example broken over lines ends each piece but a comment with " \\", as a shell reads it.
        const examples = narrow.slice(narrow.indexOf('Examples:') + 1);
        for (const [i, line] of examples.entries()) {
          if (/^ {8}\S/.test(examples[i + 1] ?? '') && /^ {2}\$ | {8}[^#\s]/.test(line)) expect(line, args).toMatch(/ \\$/);
        }
        // Options and commands stay two columns, each meaning under the one before it, or every
        // meaning goes under its term (too narrow a room beside the terms): never a meaning run
        // into its term.
        for (const section of sections(narrow, ['Options:', 'Global Options:', 'Commands:'])) expect(layoutOf(section), `${args}\n${section.join('\n')}`).not.toBe('mixed');
      }
    }, 120_000);
  }

  it('an error at 80 columns starts with one "error:", on the terminal as through a pipe; on the terminal no word is broken', () => {
    const lines = screen(80, `${payctl('transactions get no-such-reference')}; ${payctl('transactions get no-such-reference')} 2>&1 | cat; ${payctl('transactions lsit')}`);
    const message = 'error: no transaction has the id or reference_id "no-such-reference", and none of the latest 200 sales has one like it';
    expect(lines.filter((line) => /error/i.test(line))).toEqual([expect.stringMatching(/^error: no transaction has/), message, "error: unknown command 'lsit'"]);
    // On the terminal: wrapped between words, its later lines under the text after "error: ".
    const first = lines.findIndex((line) => line.startsWith('error: no transaction'));
    const wrapped = [lines[first] as string, ...lines.slice(first + 1).filter((line, i, rest) => rest.slice(0, i + 1).every((l) => l.startsWith('       ')))];
    expect(wrapped.length).toBeGreaterThan(1);
    for (const line of wrapped) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(wrapped.map((line, i) => (i === 0 ? line : line.trim())).join(' ')).toBe(message);
  });

  it('buyers and sellers at 80 columns: a masked CPF or CNPJ whole, never cut', () => {
    json('buyers create --first-name Ana --last-name Beatriz_Souza_Figueiredo_Albuquerque --email ana.beatriz.souza.figueiredo@example.com.br --taxpayer-id 11144477735');
    for (const width of [80, 90]) {
      const lines = screen(width, `${payctl('buyers list')}; ${payctl('sellers list')}`);
      expectFits(lines, width);
      expect(lines.join('\n')).not.toMatch(/\*[^ ]*…/);
      expect(lines.some((line) => line.includes('  ***.***.*77-35  '))).toBe(true);
      // Every table of times ends naming their zone, UTC's too.
      expect(lines.filter((line) => line === 'times in UTC')).toHaveLength(2);
    }
  });

  it('webhooks listen at 120 columns: each event a row under the header, what it is on, its amount and status', () => {
    const lines = screen(120, `${payctl('webhooks listen --max-events 3')} & sleep 3; ${payctl('transactions create --amount 1234.56 --card-number 4111111111111111 --holder-name Maria --exp-month 12 --exp-year 2031 --cvv 123 -q -o json')} > /dev/null; ${payctl('buyers create --first-name Joana --last-name Lima --taxpayer-id 39053344705 -q -o json')} > /dev/null; wait`);
    const header = lines.find((line) => line.startsWith('TIME (UTC)')) as string;
    expect(header.split(/ {2,}/)).toEqual(['TIME (UTC)', 'TYPE', 'OBJECT', 'AMOUNT', 'STATUS']);
    const rows = lines.filter((line) => /^\d{4}-\d\d-\d\d \d\d:\d\d {2}/.test(line));
    expect(rows.map((row) => row.split(/ {2,}/).slice(1, 2)[0])).toEqual(['transaction.created', 'transaction.succeeded', 'buyer.created']);
    for (const row of rows) {
      expect(row.slice(header.indexOf('OBJECT'))).toMatch(/^[0-9a-f]{32} /);
      expect(row.slice(header.indexOf('STATUS') - 1)).toMatch(/^ (succeeded|active)$/);
    }
    expect(rows[1]?.slice(0, header.indexOf('AMOUNT') + 'AMOUNT'.length)).toMatch(/ R\$ 1\.234,56$/);
    expectFits(lines, 120);
  }, 60_000);

  it('the create walk-through at 80 columns ends with the charge in words, then asks', () => {
    const lines = conversation(80, payctl('transactions create --reference-id tmux-7002; echo "exit $?"'), [
      { wait: /Payment type/, keys: ['Enter'] },
      { wait: /Amount/, keys: ['149,90', 'Enter'] },
      { wait: /Pay with/, keys: ['Enter'] },
      { wait: /Installments/, keys: ['Down', 'Down', 'Enter'] },
      { wait: /Card number/, keys: ['5555555555554444', 'Enter'] },
      { wait: /Cardholder name/, keys: ['Joana Pereira', 'Enter'] },
      { wait: /Expiry month/, keys: ['12', 'Enter'] },
      { wait: /Expiry year/, keys: ['2031', 'Enter'] },
      { wait: /CVV/, keys: ['123', 'Enter'] },
      { wait: /Description/, keys: ['Enter'] },
      { wait: /\[y\/N\]/, keys: ['y', 'Enter'] },
    ]);
    expectFits(lines, 80);
    const summary = lines.findIndex((line) => line.startsWith('  Amount '));
    expect(lines.slice(summary, summary + 4)).toEqual(['  Amount        R$ 149,90 by card', '  Installments  3x R$ 49,96 (the first R$ 49,98)', '  Card          MasterCard ••••4444, Joana Pereira', '  Reference     tmux-7002']);
    expect(lines.join('\n')).not.toContain('"amount"');
    expect(lines.join('\n')).not.toContain('5555555555554444');
    expect(lines.at(-1)).toBe('exit 0');
  }, 60_000);

  it('a partial refund at 80 columns: the view after it shows the refund on the first screen', () => {
    const sale = json('transactions create --amount 200 --card-number 4111111111111111 --holder-name Maria --exp-month 12 --exp-year 2031 --cvv 123 --reference-id tmux-refund');
    const lines = screen(80, payctl('transactions refund tmux-refund --amount 70 --yes'), 24);
    const view = lines.slice(lines.findIndex((line) => line.startsWith('Transaction ')));
    expect(view[0]).toBe(`Transaction ${sale.id}  succeeded`);
    const refunded = view.findIndex((line) => line === 'Refunded     R$ 70,00');
    expect(refunded).toBeGreaterThan(0);
    // Within the first screen, with the line that says it was done.
    expect(lines.findIndex((line) => line.startsWith('Transaction ')) + refunded).toBeLessThan(24);
    expect(lines.some((line) => line.startsWith(`Refunded R$ 70,00 of transaction ${sale.id}`))).toBe(true);
    expectFits(lines, 80);
  });

  it('list --all on a terminal: the progress bar is never inside a row', () => {
    const lines = screen(120, payctl('transactions list --all; echo "exit $?"'), 50);
    const rows = lines.filter((line) => ID.test(line));
    expect(rows.length).toBeGreaterThanOrEqual(6000);
    // Nothing written after the list lands on top of it.
    expect(lines.at(-1)).toBe('exit 0');
    // Past the bound on names read, the rest of the buyers are shown by id, and the table says so.
    expect(lines.at(-2)).toBe('payctl reads at most 120 names a command: more than 120 more records shown by id');
    expect(lines.at(-3)).toBe('times in UTC');
    expect(lines.at(-4)).toMatch(/^6\.00\d transactions/);
    for (const row of rows) expect(row, row).not.toMatch(BAR);
    expectFits(lines, 120);
  }, 90_000);

  it('a bulk refund at 80 columns: a readable line a row, no bar in them', () => {
    // Sales never refunded: one payctl refunded before would be skipped (refunded earlier), not refunded.
    const sales = (json('transactions list --payment-type credit --status succeeded --limit 300') as Array<{ id: string; amount: string; original_amount: string }>).filter((s) => s.amount === s.original_amount);
    const file = join(home.home, 'refunds.csv');
    writeFileSync(file, `id,amount\n${sales.map((s) => `${s.id},1.00`).join('\n')}\n`);
    const lines = screen(80, payctl(`transactions refund --file ${file} --yes`));
    const rows = lines.filter((line) => line.startsWith('row '));
    expect(rows).toHaveLength(sales.length);
    // The summary comes after the last row: the bar left no cursor jump behind that would have
    // written it over earlier rows.
    const summary = lines.findIndex((line) => line.startsWith(`Refunded ${sales.length} of ${sales.length} rows`));
    expect(summary).toBeGreaterThan(lines.lastIndexOf(rows.at(-1) as string));
    for (const row of rows) {
      expect(row).toMatch(/^row +\d+ {2}refunded {2}R\$ 1,00 {2}[0-9a-f]{32}$/);
      expect(row).not.toMatch(BAR);
    }
    // The ledger's path is on a line of its own: a path is as long as it is.
    expectFits(lines.filter((line) => !line.startsWith('Ledger: ')), 80);

    // The same file again: every row skipped, each saying briefly what was done, within 80 columns.
    const again = screen(80, payctl(`transactions refund --file ${file} --yes`));
    const skipped = again.filter((line) => line.startsWith('row '));
    expect(skipped).toHaveLength(sales.length);
    for (const row of skipped) expect(row).toMatch(/^row +\d+ {2}skipped {3}[0-9a-f]{32} {2}earlier: payctl \d\d:\d\d:\d\d$/);
    expect(again).toContain(`Skipped ${sales.length} rows refunded earlier (--again refunds them).`);
    expectFits(again.filter((line) => !line.startsWith('Ledger: ')), 80);
  }, 90_000);
});
