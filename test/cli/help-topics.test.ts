import { existsSync, readdirSync, readFileSync } from 'node:fs';
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
    expect(unknown).toEqual({ code: 2, stdout: '', stderr: `error: no help for "nosuch": not a command or topic; topics: environment, exit-codes, exactly-once, output, sandbox, files, approvals, agents; 'payctl --help' lists the commands\n` });
    expect((await run(['help', 'outptu'])).stderr).toContain('not a command or topic (did you mean output?)');
    expect((await run(['help', 'output', 'extra'])).code).toBe(2);
    expect((await run(['help', 'enviroment'])).stderr).toContain('not a command or topic (did you mean environment?)');
    expect((await run(['help', 'subscriptons'])).stderr).toContain('(did you mean subscriptions?)');
    const verb = await run(['help', 'transactions', 'refnd']);
    expect(verb).toEqual({ code: 2, stdout: '', stderr: `error: no help for "transactions refnd": transactions has no verb refnd (did you mean refund?); 'payctl help transactions' lists its verbs\n` });
  });

  it('the main help names the topics', async ({ run }) => {
    const help = helpOf(await run(['--help']));
    // Wrapped to the width (80 when not a terminal): the words, whatever the line breaks.
    expect(help.replace(/\s+/g, ' ')).toContain(' help [command...] Show the help of a command or verb, or a topic: environment, exit-codes, exactly-once, output, sandbox, files, approvals, agents ');
    expect(help).toContain(
      'Help topics:\n  payctl help environment    the environment variables payctl reads\n  payctl help exit-codes     what each exit code means\n  payctl help exactly-once   how money moves exactly once, for one operator or a\n                             whole team\n',
    );
    const topics = help.split('Help topics:\n')[1]!.split('\n\n')[0]!;
    expect([...topics.matchAll(/^ {2}payctl help (\S+)/gm)].map((m) => m[1])).toEqual(['environment', 'exit-codes', 'exactly-once', 'output', 'sandbox', 'files', 'approvals', 'agents']);
    // And where the long texts are.
    expect(help.replace(/\s+/g, ' ')).toContain('Guides: the docs/ directory of payctl\'s sources (support, refunds-and-bulk, approvals, agents, finance-and-exports, marketplace-and-splits, recurrence, webhooks, scripting, sandbox), and man payctl.');
  });

  it('`payctl help` with no topic lists the topics', async ({ run }) => {
    const text = helpOf(await run(['help']));
    for (const topic of ['environment', 'exit-codes', 'exactly-once', 'output', 'sandbox', 'files', 'approvals', 'agents']) expect(text).toMatch(new RegExp(`^  payctl help ${topic} `, 'm'));
  });
});

describe('payctl help environment', () => {
  it('names every environment variable the source reads', async ({ run }) => {
    const text = helpOf(await run(['help', 'environment']));
    const files = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const read = new Set(files.flatMap((f) => [...readFileSync(join(root, 'src', f), 'utf8').matchAll(/\benv\??\.([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => (m[1] as string).toUpperCase())));
    expect([...read]).toEqual(expect.arrayContaining(['PAYCTL_API_KEY', 'NO_COLOR', 'XDG_CONFIG_HOME', 'HTTPS_PROXY']));
    for (const name of read) expect(text, name).toMatch(new RegExp(`^  (\\S+, )*${name}\\b`, 'm'));
    expect(text).toMatch(/^ {2}PAYCTL_MARKETPLACE_ID +the marketplace id, over the profile's; set\n {37}but empty turns the/m);
  });

  it("the scripting guide's table of files and environment names every variable the topic does", async () => {
    const { ENVIRONMENT } = await import('../../src/commands/help/topics.js');
    const guide = readFileSync(join(root, 'docs/scripting.md'), 'utf8');
    const section = guide.split('\n## Files and environment\n')[1]!.split('\n## ')[0]!;
    for (const [names] of ENVIRONMENT) for (const name of names.split(', ')) expect(section, name).toMatch(new RegExp(`\\b${name}\\b`));
  });
});

describe('payctl help exit-codes', () => {
  const guideRows = () => {
    const guide = readFileSync(join(root, 'docs/scripting.md'), 'utf8');
    const section = guide.split('\n## Exit codes\n')[1]!.split('\n## ')[0]!;
    return [...section.matchAll(/^\| (\d+) \| (.+) \|$/gm)].map((m) => [Number(m[1]), (m[2] as string).replace(/`/g, '')]);
  };

  it('every code of ExitCode with its meaning, lowest first', async ({ run }) => {
    const text = helpOf(await run(['help', 'exit-codes']));
    const codes = Object.values(ExitCode).sort((a, b) => a - b);
    const shown = [...text.matchAll(/^ {1,3}(\d+) {2}/gm)].map((m) => Number(m[1]));
    expect(shown).toEqual(codes);
    // Fitted to 80 columns off a terminal, each meaning wrapped under itself.
    expect(text).toContain('\n   9  outcome unknown: a money-moving request may or may not have been applied;\n      running the same command again checks first');
    expect(text).toContain('\n  10  bulk run finished with some rows failed, or held (a row asking more than\n      was refunded of its sale before');
    expect(text).toContain('\n  11  probable duplicate: payctl already made the same money move on this sale');
  });

  it("the scripting guide's table says the same, code by code", async () => {
    const { exitCodes } = await import('../../src/commands/help/topics.js');
    expect(guideRows()).toEqual(exitCodes());
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
      '  $ payctl config set ledger_url \\\n        postgres://',
      '  $ payctl ledger list',
      'If the ledger cannot be reached, no money moves (exit 8',
      'What cannot hold without idempotency keys from the provider',
    ]) {
      // Prose is read across the lines it is wrapped on; commands as they are laid out.
      expect(said.includes('$') ? text : text.replace(/\s*\n\s*/g, ' ')).toContain(said);
    }
    // Wrapped for a terminal, like the other topics: 80 columns off one.
    expect(text.split('\n').every((line) => line.length <= 80)).toBe(true);
    // The refunds guide says the same at length.
    const guide = readFileSync(join(root, 'docs/refunds-and-bulk.md'), 'utf8');
    expect(guide).toContain('`payctl help exactly-once` says this in short.');
  });
});

describe('payctl help approvals', () => {
  it('says who sets rules, that loosening waits for another operator, how a supervisor approves, exit 13, and the threat model', async ({ run }) => {
    const text = helpOf(await run(['help', 'approvals']));
    expectSays(text, [
      'Rules live in the ledger, for each account',
      'payctl policy add --operation refund --above 500',
      'exit 13, waiting for approval',
      'never an agent (exit 4)',
      'the old rule stays in force until another operator approves it',
      'payctl approvals approve <id>',
      'need a shared ledger (payctl config set ledger_url postgres://...)',
      'It does not stop someone who holds the raw API key',
      'keep it with few people',
    ]);
    // Every flag of policy add it names is one of that verb's.
    const add = helpOf(await run(['policy', 'add', '--help']));
    const named = new Set([...text.matchAll(/payctl policy add ([^\n]*)/g)].flatMap((m) => [...m[1]!.matchAll(/--[a-z][a-z-]+/g)].map((f) => f[0])));
    expect(named.size).toBeGreaterThan(4);
    for (const flag of named) expect(add, flag).toContain(`${flag} `);
    expect(text.split('\n').every((line) => line.length <= 80)).toBe(true);
    // The guide says the same at length.
    expect(readFileSync(join(root, 'docs/approvals.md'), 'utf8')).toContain('`payctl help approvals` says this in short.');
  });
});

describe('payctl help agents', () => {
  it('says what an agent may do, how a client is set up, how approvals and limits hold it, and the threat model', async ({ run }) => {
    const text = helpOf(await run(['help', 'agents']));
    const { ALLOW_GROUPS } = await import('../../src/commands/mcp/allow.js');
    expectSays(text, [
      ...ALLOW_GROUPS,
      'By default it only reads',
      'payctl mcp --allow refunds,captures',
      'No tool ever logs in, shows a secret, changes a rule, approves or denies a request',
      '$ payctl mcp setup --client claude-code --write',
      'never written into a client\'s file',
      "An agent's shell cannot --write (exit 4)",
      'Every money move by an agent becomes an approval request unless a rule lets it through',
      'payctl approvals approve <id>',
      'unknown: do not retry; payctl will settle it',
      'PAYCTL_ACTOR=agent',
      'not whoever holds the raw API key',
      'run the MCP server as another OS user',
    ]);
    // Every flag of mcp setup and policy add it names is one of that verb's, and every group of money tools is named.
    for (const verb of ['mcp setup', 'policy add']) {
      const help = helpOf(await run([...verb.split(' '), '--help']));
      const named = new Set([...text.matchAll(new RegExp(`payctl ${verb} ([^\n]*)`, 'g'))].flatMap((m) => [...m[1]!.matchAll(/--[a-z][a-z-]+/g)].map((f) => f[0])));
      expect(named.size).toBeGreaterThan(0);
      for (const flag of named) expect(help, flag).toContain(`${flag} `);
    }
    expect(text.split('\n').every((line) => line.length <= 80)).toBe(true);
    expect(readFileSync(join(root, 'docs/agents.md'), 'utf8')).toContain('`payctl help agents` says this in short.');
  });
});

/** A topic says each of `phrases`, whatever its line breaks. */
function expectSays(text: string, phrases: readonly string[]): void {
  const prose = text.replace(/\s*\n\s*/g, ' ');
  for (const said of phrases) expect(prose, said).toContain(said);
}

/** Every long flag the program knows, from any command's help. */
async function knownFlags(): Promise<Set<string>> {
  const { buildProgram } = await import('../../src/cli.js');
  const { PassThrough } = await import('node:stream');
  const program = buildProgram({ io: { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, env: {} } });
  const flags = new Set<string>(['--help']);
  const visit = (command: typeof program) => {
    for (const option of command.options) if (option.long) flags.add(option.long);
    command.commands.forEach(visit);
  };
  visit(program);
  return flags;
}

describe('payctl help output, sandbox and files', () => {
  it('output: exit 0, every flag it names is a real one, and it says what goes where', async ({ run }) => {
    const text = helpOf(await run(['help', 'output']));
    const flags = await knownFlags();
    const named = new Set([...text.matchAll(/(?<![\w-])--[a-z][a-z-]+/g)].map((m) => m[0]));
    for (const flag of ['--output', '--fields', '--group-by', '--csv-locale', '--csv-raw', '--no-color', '--no-pager', '--quiet', '--limit', '--all']) expect(named, flag).toContain(flag);
    for (const flag of named) expect(flags, `${flag} is named by help output`).toContain(flag);
    for (const said of ['Results go to stdout', 'go to stderr', 'json when it is piped', 'PAYCTL_PAGER, else PAGER', 'NO_COLOR', 'FORCE_COLOR']) expect(text).toContain(said);
    expect(text.split('\n').every((line) => line.length <= 80)).toBe(true);
  });

  it('sandbox: its commands, its state directory and how to reset it', async ({ run }) => {
    const text = helpOf(await run(['help', 'sandbox']));
    // Also a group: its help first, as `payctl help <group>` gives it, then the topic.
    const groupHelp = helpOf(await run(['sandbox', '--help']));
    expect(text.startsWith(groupHelp)).toBe(true);
    expect(text.slice(groupHelp.length)).toMatch(/^\n?The embedded sandbox: an emulation/);
    const flags = await knownFlags();
    for (const flag of new Set([...text.matchAll(/(?<![\w-])--[a-z][a-z-]+/g)].map((m) => m[0]))) expect(flags, flag).toContain(flag);
    for (const said of ['payctl sandbox serve', 'payctl sandbox generate', 'payctl sandbox reset --yes', '<state>/sandbox/sandbox.db', 'PAYCTL_HOME', '4111111111111111']) expect(text).toContain(said);
    expect(text.split('\n').every((line) => line.length <= 80)).toBe(true);
  });

  it('files: the config, state, ledger, failed rows, exports, locks and keyring, where PAYCTL_HOME and XDG put them', async ({ run }) => {
    const text = helpOf(await run(['help', 'files']));
    for (const said of ['PAYCTL_HOME', 'XDG_CONFIG_HOME', 'XDG_STATE_HOME', 'config.json', 'config.json.lock', 'ledger/ledger.sqlite', 'ledgers.json', '<input>.failed.csv', 'failed/', 'bulk/', '<out>.partial', '<state>.lock', 'keyring']) {
      expect(text).toContain(said);
    }
    expect(text.split('\n').every((line) => line.length <= 80)).toBe(true);
  });

  it('files: the paths it names are where payctl really writes', async ({ run, home }) => {
    const { resolvePaths, sqliteLedgerPath } = await import('../../src/config/paths.js');
    const { sandboxDir } = await import('../../src/sandbox/paths.js');
    const paths = resolvePaths({ PAYCTL_HOME: '/h' });
    expect(paths).toMatchObject({ configFile: '/h/config.json', stateDir: '/h/state' });
    expect(sqliteLedgerPath('/s')).toBe('/s/ledger/ledger.sqlite');
    expect(sandboxDir('/s')).toBe('/s/sandbox');
    const xdg = resolvePaths({ HOME: '/u' });
    expect(xdg).toMatchObject({ configFile: '/u/.config/payctl/config.json', stateDir: '/u/.local/state/payctl' });
    // A money move on the embedded sandbox writes the two it names under the state directory.
    const sale = await run(['transactions', 'create', '--amount', '1', '--card-number', '4111111111111111', '--holder-name', 'Maria Silva', '--exp-month', '12', '--exp-year', '2031', '--cvv', '123', '-o', 'json']);
    expect(sale.code, sale.stderr).toBe(0);
    for (const file of ['state/sandbox/sandbox.db', 'state/ledger/ledger.sqlite', 'state/ledgers.json']) expect(existsSync(join(home, file)), file).toBe(true);
    const text = helpOf(await run(['help', 'files']));
    expect(text).toContain('~/.config/payctl/');
    expect(text).toContain('~/.local/state/payctl/');
  });
});
