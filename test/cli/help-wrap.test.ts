import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { HELP_TOPICS } from '../../src/commands/help/index.js';
import { TOPICS } from '../../src/commands/help/topics.js';
import { fitHelp } from '../../src/commands/shared/help-wrap.js';
import { commandsOf } from '../../src/docs/tree.js';
import { helpText } from '../../src/docs/help-tree.js';

// Help fitted to a terminal's width between words: what is read stays word for word what was
// written, and no line is wider than the terminal (which would break it mid-word).

/** The words of a text, without the marks of a wrapped example (a line's " \\", a comment's "#" again on its next line). */
const words = (text: string) => text.split(/\s+/).filter((w) => w !== '' && w !== '\\' && w !== '#');

function expectFitted(text: string, width: number): string[] {
  const fitted = fitHelp(text, width);
  expect(words(fitted)).toEqual(words(text));
  const lines = fitted.split('\n');
  for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(width);
  return lines;
}

describe('fitHelp', () => {
  it('leaves what fits as it was written, its alignment included', () => {
    const text = 'Usage: payctl x\n\nOptions:\n  -a, --all    every page\n  --limit <n>  at most n';
    expect(fitHelp(text, 80)).toBe(text);
  });

  it('a paragraph too wide is joined and wrapped whole at its indentation, evenly', () => {
    const text = `First words of a paragraph that a writer wrapped at one hundred columns, as the topics are,\nand its second line, which goes on to the end.\n\n  An indented one that is too long for the narrow terminal it is shown on.`;
    expect(expectFitted(text, 40)).toEqual([
      'First words of a paragraph that a writer',
      'wrapped at one hundred columns, as the',
      'topics are, and its second line, which',
      'goes on to the end.',
      '',
      '  An indented one that is too long for',
      '  the narrow terminal it is shown on.',
    ]);
  });

  it("a row's meaning wraps under itself, its own continuation lines joined in", () => {
    const text = '  --file <path>   refund every row of a CSV file, at most a million rows;\n                  - reads stdin\n  --full          all that remains';
    expect(expectFitted(text, 50)).toEqual([
      '  --file <path>   refund every row of a CSV file,',
      '                  at most a million rows; - reads',
      '                  stdin',
      '  --full          all that remains',
    ]);
  });

  it('a numbered point wraps under its text, not under its number', () => {
    const text = '  1. It locks what it moves. Another payctl moving the same sale stops at once (exit 8, naming who:\n     user@host and pid).';
    expect(expectFitted(text, 44)).toEqual([
      '  1. It locks what it moves. Another payctl',
      '     moving the same sale stops at once',
      '     (exit 8, naming who: user@host and',
      '     pid).',
    ]);
  });

  it('rows whose terms leave too little room put every meaning under its term, those that fit too', () => {
    const text = '  cancellation-letter [options] <id>  Get the link to the cancellation letter\n  get <id>                            Show one transaction';
    expect(expectFitted(text, 60)).toEqual(['  cancellation-letter [options] <id>', '      Get the link to the cancellation letter', '  get <id>', '      Show one transaction']);
  });

  it('a row with a word too long for the room beside its term puts its meaning under it', () => {
    const text = "  --split <seller-id:part>  another seller's part: <seller-id>:<amount|percent%>[,liable][,net] (repeatable)";
    expect(expectFitted(text, 60)).toEqual(['  --split <seller-id:part>', "      another seller's part:", '      <seller-id>:<amount|percent%>[,liable][,net]', '      (repeatable)']);
  });

  it('an example breaks between words with " \\", never inside quotes, and its comment goes under it as comment lines', () => {
    const text = 'Examples:\n  $ payctl transactions create --amount 10.50 --holder-name "Maria da Silva Pereira" --cvv 123   # a card sale, asked to confirm on a terminal';
    const lines = fitHelp(text, 50).split('\n');
    expect(lines).toEqual([
      'Examples:',
      '  $ payctl transactions create --amount 10.50 \\',
      '        --holder-name "Maria da Silva Pereira" \\',
      '        --cvv 123 \\',
      '        # a card sale, asked to confirm on a',
      '        # terminal',
    ]);
    expect(lines.every((line) => line.length <= 50)).toBe(true);
  });

  it('an example keeps a line of its own: the lines under it are never joined to it', () => {
    const text = 'In two commands:\n  $ payctl config set ledger_url postgres://payctl:secret@db.internal:5432/payctl\n  $ payctl ledger list';
    expect(expectFitted(text, 60)).toEqual(['In two commands:', '  $ payctl config set ledger_url \\', '        postgres://payctl:secret@db.internal:5432/payctl', '  $ payctl ledger list']);
  });

  it('a word longer than a line has a line of its own, whole', () => {
    expect(fitHelp('see https://example.com/a/very/long/path/that/cannot/break for more', 20).split('\n')).toEqual(['see', 'https://example.com/a/very/long/path/that/cannot/break', 'for more']);
  });
});

/** The program as a terminal `columns` wide builds it. */
function programAt(columns: number): Command {
  const stdout = Object.assign(new PassThrough(), { isTTY: true, columns });
  return buildProgram({ io: { stdin: new PassThrough(), stdout, stderr: new PassThrough(), stdinIsTTY: true, stdoutIsTTY: true, stderrIsTTY: true, env: {} } });
}

describe('every help screen and topic, fitted', () => {
  for (const width of [60, 80, 120]) {
    it(`at ${width} columns: every line fits, the same words`, () => {
      const program = programAt(width);
      for (const { command } of [{ command: program }, ...commandsOf(program)]) expectFitted(helpText(command, width), width);
      for (const topic of HELP_TOPICS) expectFitted(TOPICS[topic](), width);
    });
  }
});
