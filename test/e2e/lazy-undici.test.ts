import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { testEnv } from '../helpers/run.js';
import { BIN } from '../helpers/serve.js';

const run = promisify(execFile);

/** The Node.js built-in modules the built CLI had loaded when it exited (process.moduleLoadList, written by a preloaded script). */
async function builtinsLoadedBy(home: string, args: string[], env: Record<string, string> = {}): Promise<string[]> {
  const probe = join(home, 'probe.cjs');
  const list = join(home, 'builtins.txt');
  writeFileSync(probe, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));\n`);
  await run(process.execPath, ['--require', probe, BIN, ...args], { env: testEnv(home, env), timeout: 20_000 });
  return readFileSync(list, 'utf8').split('\n');
}

describe('what undici needs, loaded with it', () => {
  it('--help loads no V8 tuning (node:v8): that is set just before undici loads', async ({ home }) => {
    const loaded = await builtinsLoadedBy(home, ['transactions', 'list', '--help']);
    expect(loaded).toContain('NativeModule fs'); // the trace is on: the check below can see a load
    expect(loaded).not.toContain('NativeModule v8');
  });
});
