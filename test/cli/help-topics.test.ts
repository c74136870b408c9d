import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { ExitCode } from '../../src/errors.js';
import { test } from '../helpers/fixtures.js';
import { payctl, type RunResult } from '../helpers/run.js';

// `payctl help` takes a group and a verb, and the environment and exit codes are topics of their own.
/** `run` is payctl in the test's own fresh home. */
const it = test.extend<{ run: (args: string[]) => Promise<RunResult> }>({
  run: async ({ home }, use) => use((args) => payctl(args, { home })),
});
const root = join(import.meta.dirname, '../..');

/** Exit 0, nothing on stderr; returns stdout. */
function helpOf(result: RunResult): string {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toBe('');
  return result.stdout;
}

describe('payctl help <words>', () => {
  it('a group and its verb: the verb\'s own help, as --help gives it', async ({ run }) => {
    const viaHelp = helpOf(await run(['help', 'transactions', 'refund']));
    expect(viaHelp).toMatch(/^Usage: payctl transactions refund \[options\] \[id\]\n/);
    expect(viaHelp).toContain('--file <path|->');
    expect(viaHelp).toContain('\nGlobal Options:\n');
    expect(viaHelp).toContain('$ payctl transactions refund <id> --amount 5.00 --yes');
    expect(viaHelp).toBe(helpOf(await run(['transactions', 'refund', '--help'])));
    expect(helpOf(await run(['help', 'tx', 'refund']))).toBe(viaHelp);
  });

  it('a group, a top-level verb, and no word at all', async ({ run }) => {
    expect(helpOf(await run(['help', 'invoices']))).toMatch(/^Usage: payctl invoices \[options\] \[command\]\n/);
    const whoami = helpOf(await run(['help', 'whoami']));
    expect(whoami).toMatch(/^Usage: payctl whoami \[options\]\n/);
    expect(whoami).toContain('\nGlobal Options:\n');
    expect(helpOf(await run(['help']))).toBe(helpOf(await run(['--help'])));
  });

  it('an unknown word: exit 2, one line, a close match when there is one', async ({ run }) => {
    const unknown = await run(['help', 'nosuch']);
    expect(unknown).toEqual({ code: 2, stdout: '', stderr: `error: no help for "nosuch": not a command or topic; topics: environment, exit-codes, exactly-once; 'payctl --help' lists the commands\n` });
    expect((await run(['help', 'enviroment'])).stderr).toContain('not a command or topic (did you mean environment?)');
    expect((await run(['help', 'subscriptons'])).stderr).toContain('(did you mean subscriptions?)');
    const verb = await run(['help', 'transactions', 'refnd']);
    expect(verb).toEqual({ code: 2, stdout: '', stderr: `error: no help for "transactions refnd": transactions has no verb refnd (did you mean refund?); 'payctl help transactions' lists its verbs\n` });
  });

  it('the main help names the topics', async ({ run }) => {
    const help = helpOf(await run(['--help']));
    // Wrapped to the width (80 when not a terminal): the words, whatever the line breaks.
    expect(help.replace(/\s+/g, ' ')).toContain(' help [command...] Show the help of a command or verb, or a topic: environment, exit-codes, exactly-once ');
    expect(help).toContain(
      'Help topics:\n  payctl help environment    the environment variables payctl reads\n  payctl help exit-codes     what each exit code means\n  payctl help exactly-once   how money moves exactly once, for one operator or a\n                             whole team\n',
    );
  });
});

describe('payctl help environment', () => {
  it('names every environment variable the source reads', async ({ run }) => {
    const text = helpOf(await run(['help', 'environment']));
    const files = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const read = new Set(files.flatMap((f) => [...readFileSync(join(root, 'src', f), 'utf8').matchAll(/\benv\??\.([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => (m[1] as string).toUpperCase())));
    expect([...read]).toEqual(expect.arrayContaining(['PAYCTL_API_KEY', 'NO_COLOR', 'XDG_CONFIG_HOME', 'HTTPS_PROXY']));
    for (const name of read) expect(text, name).toMatch(new RegExp(`^  (\\S+, )*${name}\\b`, 'm'));
    expect(text).toMatch(/^ {2}PAYCTL_MARKETPLACE_ID +the marketplace id, over the profile's; set but empty turns the/m);
  });
});

describe('payctl help exit-codes', () => {
  const readmeRows = () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const section = readme.split('\n## Exit codes\n')[1]!.split('\n## ')[0]!;
    return [...section.matchAll(/^\| (\d+) \| (.+) \|$/gm)].map((m) => [Number(m[1]), (m[2] as string).replace(/`/g, '')]);
  };

  it('every code of ExitCode with its meaning, lowest first', async ({ run }) => {
    const text = helpOf(await run(['help', 'exit-codes']));
    const codes = Object.values(ExitCode).sort((a, b) => a - b);
    const shown = [...text.matchAll(/^ {1,3}(\d+) {2}/gm)].map((m) => Number(m[1]));
    expect(shown).toEqual(codes);
    expect(text).toContain('\n   9  outcome unknown: a money-moving request may or may not have been applied; running the same\n      command again checks first');
    expect(text).toContain('\n  10  bulk run finished with some rows failed, or stopped at --max-wait\n');
    expect(text).toContain('\n  11  probable duplicate: payctl already made the same money move on this sale');
  });

  it("the README's table says the same, code by code", async () => {
    const { exitCodes } = await import('../../src/commands/help/topics.js');
    expect(readmeRows()).toEqual(exitCodes());
  });
});

describe('payctl help exactly-once', () => {
  it('says the guarantee for a team: the scope, the settle window, exit 11 and --again, a shared ledger in two commands, and what cannot hold', async ({ run }) => {
    const text = helpOf(await run(['help', 'exactly-once']));
    for (const said of [
      'keyed by the account',
      'never by the base URL',
      'A lock is a lease of 20 s',
      'exits 11 (probable duplicate; nothing sent) unless --again',
      'The settle window (settle_window, PAYCTL_SETTLE_WINDOW; default 120 s',
      '--no-wait',
      '  payctl config set ledger_url postgres://',
      '  payctl ledger list',
      'If the ledger cannot be reached, no money moves (exit 8',
      'What cannot hold without idempotency keys from the provider',
    ]) {
      expect(text).toContain(said);
    }
    // Wrapped for a terminal, like the other topics.
    expect(text.split('\n').every((line) => line.length <= 100)).toBe(true);
    // The README says the same at length.
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain('`payctl help exactly-once` says this in short.');
  });
});
