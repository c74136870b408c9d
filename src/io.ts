import type { Readable, Writable } from 'node:stream';

/** The streams a run talks through; tests pass their own, the binary passes the process's. */
export interface IO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  /** The descriptor behind stdin, when it is the process's own: what it is can be asked (a file, a pipe, a device). */
  stdinFd?: number;
  /** The directory a project's files are in (mcp setup's .mcp.json): the process's own when not given. */
  cwd?: string;
}

export function processIO(): IO {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    stdinIsTTY: Boolean(process.stdin.isTTY),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    env: process.env,
    stdinFd: 0,
  };
}

/**
 * Colour for a stream: --no-color turns it off (a flag beats the environment), then FORCE_COLOR
 * forces it on, NO_COLOR / TERM=dumb turn it off, and otherwise only a terminal gets it.
 */
export function colorEnabled(env: NodeJS.ProcessEnv, isTTY: boolean, noColorFlag: boolean): boolean {
  if (noColorFlag) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '' && force !== '0' && force !== 'false') return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

/** How wide the terminal on stderr is; undefined when stderr is not one (a pipe, a file: lines stay whole). */
export function stderrColumns(io: IO): number | undefined {
  const columns = io.stderrIsTTY ? (io.stderr as { columns?: number }).columns : undefined;
  // A pseudo-terminal nobody sized says 0: its width is unknown, not nothing.
  return columns !== undefined && columns > 0 ? columns : undefined;
}
