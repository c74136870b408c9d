import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli.js';
import type { RunF, VerbCall } from '../../src/commands/verb.js';
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
  /** Runs instead of the verb's own run, with what it would run with (see parseVerb). */
  runF?: RunF;
  /** The current directory the command sees (a project's files); the test process's own when not given. */
  cwd?: string;
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
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  };
  // As bin/payctl.js runs it (src/main.ts): V8 tuned before a command's action.
  const code = await runCli(args, io, { beforeAction: () => tuneRuntime(), runF: options.runF });
  return { code, stdout: out, stderr: err };
}

export interface Parsed extends RunResult {
  /** What the verb would run with; undefined when the command line or its flag rules were refused. */
  call: VerbCall | undefined;
}

/**
 * A command line parsed as payctl parses a user's, and checked against its verb's flag rules
 * (VerbModule.check), with a replacement for the verb's run (RunF): what the verb would run with,
 * or the error its rules raise and its exit code. No Factory: the home does not exist and no
 * service is named, so nothing could be read or sent.
 */
export async function parseVerb(args: string[]): Promise<Parsed> {
  let call: VerbCall | undefined;
  const result = await payctl(args, {
    home: join(tmpdir(), 'payctl-no-home', 'absent'),
    runF: (seen) => {
      call = seen;
    },
  });
  return { ...result, call };
}

/** Runs and parses JSON stdout, failing loudly with stderr when the run did not succeed. */
export async function payctlJson<T = unknown>(args: string[], options: RunOptions): Promise<T> {
  const result = await payctl([...args, '-o', 'json'], options);
  if (result.code !== 0) throw new Error(`payctl ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}
