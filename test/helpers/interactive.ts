import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli.js';
import type { IO } from '../../src/io.js';
import { testEnv, type RunResult } from './run.js';

/** One step of a conversation: wait until stderr shows `prompt`, then type `keys` (or choose). */
export interface Step {
  prompt: RegExp;
  keys?: string;
  /** A list is shown: the choice whose line holds this is reached with ↓ from the first and chosen. */
  choose?: string;
  /** Done once the prompt shows, before the keys are typed (what happens while a person reads it). */
  meanwhile?: () => void;
}

export const KEY = { enter: '\r', down: '\x1b[B', up: '\x1b[A', ctrlC: '\x03' } as const;

/**
 * Runs payctl as if on a terminal, answering prompts through the injected stdin as they
 * appear on stderr (where prompts are drawn). Fails if a prompt does not show up in time.
 */
export async function converse(args: string[], home: string, steps: Step[], env: Record<string, string> = {}): Promise<RunResult & { transcript: string }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  let seen = 0;
  const waiters: (() => void)[] = [];
  stdout.on('data', (c: Buffer) => {
    out += c.toString();
  });
  stderr.on('data', (c: Buffer) => {
    err += c.toString();
    for (const w of waiters.splice(0)) w();
  });
  // A wide terminal, so long questions are not wrapped mid-sentence.
  Object.assign(stderr, { columns: 200, rows: 50 });
  const io: IO = { stdin, stdout, stderr, stdinIsTTY: true, stdoutIsTTY: true, stderrIsTTY: true, env: testEnv(home, env) };
  const running = runCli(args, io);
  const answering = (async () => {
    for (let step of steps) {
      const deadline = Date.now() + 5000;
      for (;;) {
        // Prompts are styled; match on the text a person reads.
        const shown = stripAnsi(err.slice(seen));
        const match = step.prompt.exec(shown);
        if (match && (step.choose === undefined || shown.slice(match.index).includes(step.choose))) {
          if (step.choose !== undefined) step = { ...step, keys: choosing(shown.slice(match.index), step.choose) };
          seen = err.length;
          break;
        }
        if (Date.now() > deadline) throw new Error(`prompt ${step.prompt} never appeared; stderr so far:\n${err}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      // The prompt draws itself before it starts listening for keys: give it a moment, as a
      // person would, then type one key at a time so readline sees each keypress.
      await new Promise((r) => setTimeout(r, 40));
      step.meanwhile?.();
      for (const key of splitKeys(step.keys ?? '')) {
        stdin.write(key);
        await new Promise((r) => setTimeout(r, 5));
      }
    }
  })();
  const [code] = await Promise.all([running, answering]);
  stdin.end();
  return { code, stdout: out, stderr: err, transcript: err };
}

/** The keys that choose the line holding `text` of the list drawn in `screen`: ↓ from the first (❯) choice, then ⏎. */
function choosing(screen: string, text: string): string {
  const lines = screen.split('\n');
  const first = lines.findIndex((line) => line.startsWith('❯'));
  const at = lines.findIndex((line, i) => i >= first && line.includes(text));
  if (first < 0 || at < 0) throw new Error(`no choice "${text}" in:\n${screen}`);
  return `${KEY.down.repeat(at - first)}${KEY.enter}`;
}

function splitKeys(keys: string): string[] {
  return keys.match(/\x1b\[[A-D]|[\s\S]/g) ?? [];
}

function stripAnsi(text: string): string {
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
}
