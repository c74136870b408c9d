import { PassThrough } from 'node:stream';
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { Factory } from '../../src/factory.js';
import { parseGlobals } from '../../src/globals.js';
import { wrapMessage } from '../../src/output/wrap.js';
import { run } from '../commands/helpers.js';

// Warnings and status lines on a terminal are wrapped between words, their later lines under the
// text; elsewhere (a pipe, a file) each stays one line.

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

  it("a message of several lines: each wrapped on its own, a line that fits left as written", () => {
    expect(wrapMessage('', 'row  1  refunded\nrow  2  failed: the service answered 402 and nothing moved', 30).split('\n')).toEqual([
      'row  1  refunded',
      'row 2 failed: the service',
      'answered 402 and nothing moved',
    ]);
  });
});

describe("a command's warnings", () => {
  function warned(stderrIsTTY: boolean): string {
    const stderr = Object.assign(new PassThrough(), { isTTY: stderrIsTTY, columns: 60 });
    let text = '';
    stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const factory = new Factory({ stdin: new PassThrough(), stdout: new PassThrough(), stderr, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY, env: {} }, parseGlobals({}));
    factory.log.warn(MESSAGE);
    factory.log.status(`Listening on http://127.0.0.1:41869/webhooks for *; registered as webhook ${'2'.repeat(32)} until you stop (Ctrl-C).`);
    return text;
  }

  it('and status lines are wrapped to the width of a terminal on stderr, an id kept whole', () => {
    const lines = warned(true).trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(60);
    const status = lines.findIndex((line) => line.startsWith('Listening'));
    expect(lines.slice(0, status).join(' ').replace(/\s+/g, ' ')).toBe(`warning: ${MESSAGE}`);
    expect(lines.slice(status).some((line) => line.includes('2'.repeat(32)))).toBe(true);
  });

  it('and status lines are one line each when stderr is a pipe', () => {
    expect(warned(false).split('\n')).toHaveLength(3);
  });
});

describe('an error', () => {
  const reference = `pedido-${'7'.repeat(20)}-de-um-cliente-que-nao-existe-em-nenhum-lugar`;

  it('is wrapped between words on a terminal, under the text after "error: "; one line in a pipe', async ({ home }) => {
    const onTerminal = await run(home, ['transactions', 'get', reference], { stderrTty: true });
    expect(onTerminal.code).toBe(5);
    const lines = onTerminal.stderr.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines[0]).toMatch(/^error: no transaction has/);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(120);
    for (const line of lines.slice(1)) expect(line).toMatch(/^ {7}\S/);
    expect(onTerminal.stderr).toContain(`"${reference}"`);

    const piped = await run(home, ['transactions', 'get', reference]);
    expect(piped.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(piped.stderr.trimEnd()).toBe(lines.map((line) => line.trim()).join(' '));
  });
});
