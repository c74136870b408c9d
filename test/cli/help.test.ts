import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { payctl, tempHome } from '../helpers/run.js';
import { PassThrough } from 'node:stream';

/** Every command below the program, groups included, as the words a user types. */
function allCommands(command: Command, path: string[] = []): string[][] {
  return command.commands.flatMap((sub) => [[...path, sub.name()], ...allCommands(sub, [...path, sub.name()])]);
}

const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, env: {} };
const verbs = allCommands(buildProgram({ io }));

describe('every command explains itself', () => {
  it('the tree has the verbs of this release', () => {
    const names = verbs.map((v) => v.join(' '));
    for (const expected of [
      'transactions create', 'transactions list', 'transactions get', 'transactions update', 'transactions refund',
      'transactions capture', 'transactions cancellation-letter', 'cards tokenize', 'login', 'logout', 'whoami',
      'profiles list', 'profiles use', 'profiles remove', 'config get', 'config set', 'config unset', 'config list',
      'sandbox serve', 'sandbox reset', 'sandbox pay',
    ]) {
      expect(names).toContain(expected);
    }
  });

  for (const verb of verbs) {
    it(`payctl ${verb.join(' ')} --help shows its purpose and a real example`, async () => {
      const { home, cleanup } = tempHome();
      try {
        const result = await payctl([...verb, '--help'], { home });
        expect(result.code).toBe(0);
        expect(result.stdout).toMatch(new RegExp(`Usage: payctl ${verb.join(' ')}`));
        expect(result.stdout).toMatch(/\n\S.+\n/); // a description line under the usage line
        expect(result.stdout).toContain('Examples:');
        expect(result.stdout).toMatch(new RegExp(`\\$ .*payctl .*${verb.join(' ')}`));
      } finally {
        cleanup();
      }
    });
  }
});

describe('only the named group is built', () => {
  it('targetGroup finds the group past global options and their values', async () => {
    const { targetGroup } = await import('../../src/cli.js');
    expect(targetGroup(['transactions', 'list'])).toBe('transactions');
    expect(targetGroup(['-p', 'live', '-o', 'json', '--fields', 'id', '--timeout', '5', 'buyers', 'get', 'x'])).toBe('buyers');
    expect(targetGroup(['--profile=live', '--debug', 'tx', 'get'])).toBe('tx');
    expect(targetGroup(['help', 'plans'])).toBe('plans');
    expect(targetGroup(['--help'])).toBeUndefined();
  });

  it('every group is still listed, and `help <group>` and typo suggestions work', async () => {
    const { home, cleanup } = tempHome();
    try {
      const top = await payctl(['--help'], { home });
      for (const group of ['transactions|tx', 'buyers', 'cards', 'sources', 'boletos', 'receipts', 'receivables', 'plans', 'subscriptions', 'invoices', 'config', 'sandbox']) {
        expect(top.stdout).toContain(`  ${group} `);
      }
      const help = await payctl(['help', 'invoices'], { home });
      expect(help.stdout).toContain('refund [options] <id>');
      const typo = await payctl(['-o', 'json', 'buyers', 'serch'], { home });
      expect(typo.code).toBe(2);
      expect(typo.stderr).toContain('Did you mean search?');
    } finally {
      cleanup();
    }
  });
});
