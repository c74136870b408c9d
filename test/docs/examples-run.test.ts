import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import type { IO } from '../../src/io.js';
import { asRun, examplesOf, type Example } from './examples.js';

// Every example command of README.md and docs/*.md, run as written, in order, against a fresh
// embedded sandbox: one PAYCTL_HOME, HOME and working directory per file, as a reader who starts
// that guide on a fresh install. Each runs in bash (pipefail on, stdin not a terminal) with payctl
// on PATH as the built bin/payctl.js. What is run and what is expected of it is written in the
// guides themselves (docs/design.md, "Examples that run"; read in ./examples.ts), so a failure
// here is fixed in the guide: it names the file and line, the command, how it ended and the end
// of what it said.
const root = fileURLToPath(new URL('../..', import.meta.url));
const FILES = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)].filter(
  // PAYCTL_DOC_EXAMPLES=docs/support.md runs one guide's, while fixing it.
  (file) => !process.env.PAYCTL_DOC_EXAMPLES || process.env.PAYCTL_DOC_EXAMPLES.split(',').includes(file),
);
/** The longest one example may take: a bound for a hang, far above the slowest (`sandbox generate`, some seconds). */
const EXAMPLE_MS = 90_000;
/** How long an `until Ctrl-C` command is given to start, and to stop once told. */
const START_MS = 15_000;
const STOP_MS = 15_000;
const TAIL = 1_500;

const scratch = mkdtempSync(join(tmpdir(), 'payctl-doc-examples-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `payctl` on PATH: the built CLI, run by this Node. */
const shims = join(scratch, 'bin');
mkdirSync(shims);
writeFileSync(join(shims, 'payctl'), `#!/bin/sh\nexec '${process.execPath}' '${join(root, 'bin', 'payctl.js')}' "$@"\n`);
chmodSync(join(shims, 'payctl'), 0o755);

const io: IO = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, env: {} };
const program = buildProgram({ io });

/** Whether the words after `payctl` only name a command (a group, a verb, an alias of one). */
function isName(words: string[]): boolean {
  let command: Command = program;
  for (const word of words) {
    const next = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) return false;
    command = next;
  }
  return true;
}

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** One example in bash, in its own process group (so it can be stopped whole), output kept to its tail. */
function start(command: string, place: Place, vars: Map<string, string>, extraEnv: Record<string, string> = {}) {
  const child = spawn('bash', ['-o', 'pipefail', '-c', command], {
    cwd: place.work,
    // Built afresh, so nothing of this shell (an agent's variables, a PAYCTL_* override) leaks in.
    env: { PATH: `${shims}:${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: place.home, PAYCTL_HOME: place.payctlHome, TZ: 'UTC', LANG: 'C.UTF-8', ...Object.fromEntries(vars), ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const out = { stdout: '', stderr: '' };
  let spoke!: () => void;
  const spoken = new Promise<void>((resolve) => (spoke = resolve));
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream].setEncoding('utf8');
    child[stream].on('data', (chunk: string) => {
      out[stream] = (out[stream] + chunk).slice(-TAIL * 4);
      spoke();
    });
  }
  const ended = new Promise<Ended>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, ...out })));
  return { child, ended, spoken };
}

function stopGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // Already gone.
  }
}

/** Within `ms`, or undefined. */
async function within<T>(ms: number, promise: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

const tail = (text: string) => {
  const kept = text.trimEnd();
  return kept.length > TAIL ? `…${kept.slice(-TAIL)}` : kept;
};

function failure(example: Example, what: string, ended?: Ended): string {
  const lines = [`${example.where}: ${what}`, `  $ ${example.command}`];
  if (ended?.stderr.trim()) lines.push(`  stderr: ${tail(ended.stderr).replace(/\n/g, '\n          ')}`);
  if (ended?.stdout.trim() && ended.code !== 0) lines.push(`  stdout: ${tail(ended.stdout).replace(/\n/g, '\n          ')}`);
  return lines.join('\n');
}

/**
 * Whether a command stopped with Ctrl-C ended as it should: exit 0 (payctl stops cleanly), or, for a
 * pipeline, as a shell ends one whose other end Ctrl-C killed (`… | jq`: SIGINT, or 130).
 */
const endedByCtrlC = (example: Example, ended: Ended) => ended.code === 0 || (/[^|]\|[^|]/.test(example.command) && (ended.signal === 'SIGINT' || ended.code === 130));

const howEnded = (ended: Ended) => (ended.signal ? `killed by ${ended.signal}` : `exit ${ended.code}`);

interface Place {
  home: string;
  payctlHome: string;
  work: string;
}

/** Runs one file's examples in order on a fresh install; what went wrong, one entry per example. */
async function runFile(file: string): Promise<{ ran: number; failures: string[] }> {
  const dir = mkdtempSync(join(scratch, `${file.replace(/\W/g, '-')}-`));
  const place: Place = { home: join(dir, 'home'), payctlHome: join(dir, 'payctl'), work: join(dir, 'work') };
  for (const path of Object.values(place)) mkdirSync(path);
  const vars = new Map<string, string>();
  const failures: string[] = [];
  const running: Array<{ example: Example; child: ChildProcess; ended: Promise<Ended> }> = [];
  let ran = 0;

  const stopRunning = async (unlessBlock?: number) => {
    for (const job of running.filter((j) => j.example.block !== unlessBlock)) {
      running.splice(running.indexOf(job), 1);
      stopGroup(job.child, 'SIGINT');
      const ended = await within(STOP_MS, job.ended);
      if (!ended) {
        stopGroup(job.child, 'SIGKILL');
        failures.push(failure(job.example, `still running ${STOP_MS / 1000} s after Ctrl-C`, await job.ended));
      } else if (!endedByCtrlC(job.example, ended)) failures.push(failure(job.example, `${howEnded(ended)} when stopped with Ctrl-C, expected exit 0`, ended));
    }
  };

  try {
    for (const example of examplesOf(file, readFileSync(join(root, file), 'utf8'), isName)) {
      if (example.notRun) continue;
      await stopRunning(example.block);
      ran += 1;
      const command = asRun(example.command);
      if (example.expect.kind === 'background') {
        const job = start(command, place, vars);
        // Started once it has said something (its URL, "Listening on …"), or ended.
        await within(START_MS, Promise.race([job.spoken, job.ended]));
        const early = await within(0, job.ended);
        if (early && early.code !== 0) failures.push(failure(example, `${howEnded(early)} before it was stopped, expected to run until Ctrl-C`, early));
        else if (!early) running.push({ example, child: job.child, ended: job.ended });
        continue;
      }
      const varFile = join(dir, 'variable');
      const script = example.sets ? `${command}\n__rc=$?\nprintf '%s' "$${example.sets}" > "$PAYCTL_DOCS_VARIABLE"\nexit $__rc` : command;
      const job = start(script, place, vars, example.sets ? { PAYCTL_DOCS_VARIABLE: varFile } : {});
      const ended = await within(EXAMPLE_MS, job.ended);
      if (!ended) {
        stopGroup(job.child, 'SIGKILL');
        failures.push(failure(example, `still running after ${EXAMPLE_MS / 1000} s`, await job.ended));
        continue;
      }
      const wanted = example.expect.kind === 'exit' ? example.expect.code : 0;
      if (ended.code !== wanted) failures.push(failure(example, `${howEnded(ended)}, expected exit ${wanted}${wanted === 0 ? '' : ' (its comment says so)'}`, ended));
      if (example.sets && existsSync(varFile)) {
        vars.set(example.sets, readFileSync(varFile, 'utf8'));
        rmSync(varFile);
      }
    }
    await stopRunning();
  } finally {
    // A failure of this test itself leaves no example running behind it.
    for (const job of running) stopGroup(job.child, 'SIGKILL');
  }
  return { ran, failures };
}

describe('every example command of README.md and docs/*.md runs on a fresh sandbox', () => {
  it('the CLI is built (npm run build), since the examples run bin/payctl.js', () => {
    expect(existsSync(join(root, 'dist', 'main.js')), 'dist/main.js: run npm run build first').toBe(true);
  });

  for (const file of FILES) {
    it(file, async () => {
      const { ran, failures } = await runFile(file);
      if (failures.length > 0) expect.fail(`${failures.length} of the ${ran} examples run in ${file} did not do as written:\n\n${failures.join('\n\n')}\n`);
    }, 10 * 60_000);
  }
});
