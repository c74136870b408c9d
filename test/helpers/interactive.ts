import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli.js';
import type { IO } from '../../src/io.js';
import { testEnv, type RunResult } from './run.js';

/** One step of a conversation: wait until stderr shows `prompt`, then type `keys`. */
export interface Step {
  prompt: RegExp;
  keys: string;
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
    for (const step of steps) {
      const deadline = Date.now() + 5000;
      for (;;) {
        // Prompts are styled; match on the text a person reads.
        const match = step.prompt.exec(stripAnsi(err.slice(seen)));
        if (match) {
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
      for (const key of splitKeys(step.keys)) {
        stdin.write(key);
        await new Promise((r) => setTimeout(r, 5));
      }
    }
  })();
  const [code] = await Promise.all([running, answering]);
  stdin.end();
  return { code, stdout: out, stderr: err, transcript: err };
}

function splitKeys(keys: string): string[] {
  return keys.match(/\x1b\[[A-D]|[\s\S]/g) ?? [];
}

function stripAnsi(text: string): string {
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
}
