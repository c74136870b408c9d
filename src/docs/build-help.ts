// A step of the build (package.json's "build"), never part of a command: writes what
// `payctl <command> --help` prints into a pipe or a file, for every command, as dist/help/payctl.txt
// and dist/help/payctl/<group>[/<verb>].txt. bin/payctl.js prints those files without loading the
// bundle at all, so help costs about what `--version` does: a person reading help, or an agent
// finding its way, waits for nothing else.
//
// Each file is the command line itself run in-process (runCli), not a second rendering of the
// tree, so the two cannot differ; a terminal is left to the command line, since its help is fitted
// to the terminal's width.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { buildProgram, runCli } from '../cli.js';
import type { IO } from '../io.js';
import { commandsOf } from './tree.js';

/** Streams that are no terminal, as a pipe's or a file's are; stdout is `stdout`. */
function pipeIO(stdout = new PassThrough()): IO {
  return { stdin: new PassThrough(), stdout, stderr: new PassThrough(), stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, env: {} };
}

/** What `payctl <words> --help` writes to stdout when it is not a terminal. */
async function helpOf(words: string[]): Promise<string> {
  let out = '';
  const stdout = new PassThrough();
  stdout.setEncoding('utf8');
  stdout.on('data', (chunk: string) => (out += chunk));
  const code = await runCli([...words, '--help'], pipeIO(stdout));
  if (code !== 0) throw new Error(`build-help: payctl ${words.join(' ')} --help exited ${code}`);
  return out;
}

/** Every command's help, by the words after `payctl` (none: payctl --help itself). */
export async function helpPages(): Promise<Map<string[], string>> {
  const program = buildProgram({ io: pipeIO() });
  const pages = new Map<string[], string>();
  for (const words of [[], ...commandsOf(program).map((entry) => entry.path)]) pages.set(words, await helpOf(words));
  return pages;
}

/** Where bin/payctl.js looks for the help of `words` under `dir` (dist/help). */
export function helpFile(dir: string, words: readonly string[]): string {
  return `${path.join(dir, 'payctl', ...words)}.txt`;
}

// Run as the build step (node dist/docs/build-help.js dist/help); imported, only exports.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dir] = process.argv.slice(2);
  if (!dir) throw new Error('usage: build-help.js <directory of the help files>');
  rmSync(dir, { recursive: true, force: true });
  for (const [words, text] of await helpPages()) {
    const file = helpFile(dir, words);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}
