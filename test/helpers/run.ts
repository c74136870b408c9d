import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli.js';
import type { IO } from '../../src/io.js';
import { tuneRuntime } from '../../src/platform/runtime.js';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  home: string;
  env?: Record<string, string | undefined>;
  stdin?: string;
  /** Pretend stdin/stdout are terminals (tables, prompts allowed). */
  tty?: boolean;
  /** Pretend only stderr is a terminal (an export redirected to a file, watched from a terminal). */
  stderrTty?: boolean;
  /** With tty: which of stdin and stdout is not a terminal after all (`payctl … | jq`, `payctl … < file`). */
  notTty?: 'stdin' | 'stdout';
  /** With tty: how wide the terminal on stdout says it is. */
  columns?: number;
  /** Sees stdout as it is written, while the command is still running. */
  onStdout?: (chunk: string) => void;
}

/** A fresh PAYCTL_HOME; never the real home. */
export function tempHome(): { home: string; cleanup: () => void } {
  const home = mkdtempSync(join(tmpdir(), 'payctl-test-'));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/** The environment a test run sees: nothing from the developer's shell leaks in. */
export function testEnv(home: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PAYCTL_HOME: home, PATH: process.env.PATH, TZ: 'UTC' };
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** Runs payctl in-process through the same entry the binary uses, with captured streams. */
export async function payctl(args: string[], options: RunOptions): Promise<RunResult> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    options.onStdout?.(chunk.toString());
  });
  stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  // What a terminal's stream says of itself; progress bars draw only on one.
  if (options.tty === true || options.stderrTty === true) Object.assign(stderr, { isTTY: true, columns: 120 });
  if (options.tty === true && options.columns !== undefined) Object.assign(stdout, { isTTY: true, columns: options.columns });
  if (options.stdin !== undefined) stdin.end(options.stdin);
  else stdin.end();
  const io: IO = {
    stdin,
    stdout,
    stderr,
    stdinIsTTY: options.tty === true && options.notTty !== 'stdin',
    stdoutIsTTY: options.tty === true && options.notTty !== 'stdout',
    stderrIsTTY: options.tty === true || options.stderrTty === true,
    env: testEnv(options.home, options.env),
  };
  // As bin/payctl.js runs it (src/main.ts): V8 tuned before a command's action.
  const code = await runCli(args, io, tuneRuntime);
  return { code, stdout: out, stderr: err };
}

/** Runs and parses JSON stdout, failing loudly with stderr when the run did not succeed. */
export async function payctlJson<T = any>(args: string[], options: RunOptions): Promise<T> {
  const result = await payctl([...args, '-o', 'json'], options);
  if (result.code !== 0) throw new Error(`payctl ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}
