import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { test } from '../helpers/fixtures.js';
import { payctl, type RunResult } from '../helpers/run.js';

// Help that teaches: a verb's help lists the global options too.
/** `run` is payctl in the test's own fresh home. */
const it = test.extend<{ run: (args: string[]) => Promise<RunResult> }>({
  run: async ({ home }, use) => use((args) => payctl(args, { home })),
});

/** Exit 0, nothing on stderr; returns stdout. */
function helpOf(result: RunResult): string {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toBe('');
  return result.stdout;
}

const GLOBALS = ['-p, --profile <name>', '-o, --output <format>', '--fields <list>', '--no-color', '--no-input', '-y, --yes', '--dry-run', '--debug', '--timeout <seconds>', '-q, --quiet', '--insecure-http'];

describe("a verb's help", () => {
  it('lists the global options after its own, --version aside', async ({ run }) => {
    const help = helpOf(await run(['subscriptions', 'suspend', '--help']));
    const [own, globals] = help.split('\nGlobal Options:\n') as [string, string];
    expect(own).toContain('Options:\n  -h, --help');
    for (const option of GLOBALS) expect(globals, option).toMatch(new RegExp(`^  ${option.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `, 'm'));
    expect(globals).not.toContain('--version');
    expect(globals.indexOf('Examples:')).toBeGreaterThan(globals.indexOf('--insecure-http'));
  });

  it('every verb, and no group: a group lists its verbs only', () => {
    const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, env: {} };
    const program = buildProgram({ io });
    const leaves = (command: Command, path: string[]): Array<[string, Command]> =>
      command.commands.filter((c) => c.name() !== 'help').flatMap((c) => (c.commands.length > 0 ? leaves(c, [...path, c.name()]) : [[[...path, c.name()].join(' '), c] as [string, Command]]));
    const verbs = leaves(program, []);
    expect(verbs.length).toBeGreaterThan(75);
    for (const [path, verb] of verbs) expect(verb.helpInformation(), path).toContain('\nGlobal Options:\n  -p, --profile <name>');
    for (const group of program.commands.filter((c) => c.commands.length > 0)) expect(group.helpInformation(), group.name()).not.toContain('Global Options:');
    expect(program.helpInformation()).not.toContain('Global Options:');
  });
});
