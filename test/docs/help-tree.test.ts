import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { commandReference, helpText, helpTree, spliceReference } from '../../src/docs/help-tree.js';
import type { IO } from '../../src/io.js';
import { payctl, tempHome } from '../helpers/run.js';

// The help of every command, as users see it: snapshotted, so any change to it shows in review;
// checked for a purpose line and real examples; and the README's reference generated from it.
const io: IO = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, env: {} };
const program = buildProgram({ io });

function all(command: Command, path: string[] = []): Array<{ path: string; command: Command }> {
  return command.commands.filter((c) => c.name() !== 'help').flatMap((c) => [{ path: [...path, c.name()].join(' '), command: c }, ...all(c, [...path, c.name()])]);
}

describe('the help tree', () => {
  it('matches its snapshot (update with `npx vitest run test/docs -u` and review the diff)', async () => {
    await expect(helpTree(program)).toMatchFileSnapshot('./__snapshots__/help-tree.txt');
  });

  it('every command: a one-line purpose and two or more real examples', () => {
    const commands = all(program);
    expect(commands.length).toBeGreaterThan(90);
    for (const { path, command } of commands) {
      const description = command.description();
      expect(description, path).not.toBe('');
      expect(description.includes('\n'), path).toBe(false);
      const examples = helpText(command).split('\nExamples:\n')[1] ?? '';
      const lines = examples.split('\n').filter((l) => l.startsWith('  $ payctl'));
      expect(lines.length, `${path} has ${lines.length} example(s)`).toBeGreaterThanOrEqual(2);
    }
  });

  it('required flags come first, under their own heading', () => {
    const create = helpText(program.commands.find((c) => c.name() === 'webhooks')!.commands.find((c) => c.name() === 'create')!);
    expect(create.indexOf('Required:\n  --url')).toBeGreaterThan(0);
    expect(create.indexOf('Required:')).toBeLessThan(create.indexOf('Options:'));
  });

  it('`payctl help <group>` lists the verbs, one line each', async () => {
    const home = tempHome();
    try {
      for (const group of ['transactions', 'transfers', 'webhooks', 'sandbox']) {
        const result = await payctl(['help', group], { home: home.home });
        expect(result.code).toBe(0);
        const listing = result.stdout.split('Commands:\n')[1]!.split('\n\n')[0]!.split('\n');
        const verbs = program.commands.find((c) => c.name() === group)!.commands.map((c) => c.name());
        // One line a verb (and commander's own "help" line): nothing wraps onto a second.
        expect(listing.map((l) => l.trim().split(/[ [<]/)[0])).toEqual([...verbs, 'help']);
      }
    } finally {
      home.cleanup();
    }
  });

  it("the README's command reference is generated from the tree (run `npm run docs` after changing commands)", () => {
    const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
    expect(spliceReference(readme, commandReference(program)) === readme, 'README.md command reference is stale').toBe(true);
  });
});
