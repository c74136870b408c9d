// bin/payctl.js in a process of its own that reports its own peak memory (process.resourceUsage's
// maxRSS, written when it exits): for tests that hold payctl to a memory bound. Needs `npm run build`.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { testEnv } from './run.js';
import { BIN } from './serve.js';

export interface MeasuredRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Peak resident memory, in kilobytes. */
  maxRssKb: number;
  /** From the spawn to the exit. */
  ms: number;
}

/** Runs payctl with `args` and `env` (over testEnv(home)), to its exit. */
export async function payctlMeasured(home: string, args: string[], env: Record<string, string> = {}): Promise<MeasuredRun> {
  const hook = join(home, 'max-rss.mjs');
  const report = join(home, 'max-rss.txt');
  writeFileSync(hook, "import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(process.env.MAX_RSS_REPORT, String(process.resourceUsage().maxRSS)));\n");
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', pathToFileURL(hook).href, BIN, ...args], {
    env: testEnv(home, { ...env, MAX_RSS_REPORT: report }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stdout, stderr, maxRssKb: Number(readFileSync(report, 'utf8')), ms: Date.now() - started };
}
