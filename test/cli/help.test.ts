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
