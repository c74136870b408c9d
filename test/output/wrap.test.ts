import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Factory } from '../../src/factory.js';
import { parseGlobals } from '../../src/globals.js';
import { wrapMessage } from '../../src/output/wrap.js';

// Warnings on a terminal are wrapped between words, their later lines under the text; elsewhere
// (a pipe, a file) each stays one line.

const MESSAGE = 'the terminal is too narrow for every field asked for: DESCRIPTION, REFERENCE_ID not shown (a wider terminal, or -o json, shows them)';

describe('wrapMessage', () => {
  it('on a terminal: between words, each line under the text after the prefix', () => {
    expect(wrapMessage('warning: ', MESSAGE, 50).split('\n')).toEqual([
      'warning: the terminal is too narrow for every',
      '         field asked for: DESCRIPTION,',
      '         REFERENCE_ID not shown (a wider terminal,',
      '         or -o json, shows them)',
    ]);
  });

  it('one line when it fits, or when there is no terminal', () => {
    expect(wrapMessage('warning: ', 'short', 50)).toBe('warning: short');
    expect(wrapMessage('warning: ', MESSAGE, undefined)).toBe(`warning: ${MESSAGE}`);
  });
});

describe("a command's warnings", () => {
  function warned(stderrIsTTY: boolean): string {
    const stderr = Object.assign(new PassThrough(), { isTTY: stderrIsTTY, columns: 60 });
    let text = '';
    stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const factory = new Factory({ stdin: new PassThrough(), stdout: new PassThrough(), stderr, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY, env: {} }, parseGlobals({}));
    factory.log.warn(MESSAGE);
    return text;
  }

  it('are wrapped to the width of a terminal on stderr', () => {
    const lines = warned(true).trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(60);
    expect(lines.join(' ').replace(/\s+/g, ' ')).toBe(`warning: ${MESSAGE}`);
  });

  it('are one line when stderr is a pipe', () => {
    expect(warned(false)).toBe(`warning: ${MESSAGE}\n`);
  });
});
