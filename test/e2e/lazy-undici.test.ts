import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { testEnv } from '../helpers/run.js';
import { BIN } from '../helpers/serve.js';

const run = promisify(execFile);
const ID = '0123456789abcdef0123456789abcdef';

/**
 * The Node.js built-in modules the built CLI had loaded when it exited (process.moduleLoadList,
 * written by a preloaded script; undici itself is in the bundle, so the list shows what it woke),
 * and what Node's Headers global then was.
 */
async function builtinsLoadedBy(home: string, args: string[], env: Record<string, string> = {}): Promise<{ loaded: string[]; headers: string }> {
  const probe = join(home, 'probe.cjs');
  const list = join(home, 'builtins.txt');
  // The list first; then Node's Headers global, which loads Node's undici if it was not yet.
  writeFileSync(probe, `process.on('exit', () => { const loaded = [...process.moduleLoadList]; require('node:fs').writeFileSync(${JSON.stringify(list)}, [...loaded, typeof Headers].join('\\n')); });\n`);
  await run(process.execPath, ['--require', probe, BIN, ...args], { env: testEnv(home, env), timeout: 20_000 });
  const loaded = readFileSync(list, 'utf8').split('\n');
  const headers = loaded.pop()!;
  return { loaded, headers };
}

describe('loading undici', () => {
  it("a request does not load Node's own copy of undici, nor tls or http2 with it", async ({ home, recording }) => {
    const server = await recording([{ status: 200, body: { id: ID, status: 'succeeded', amount: '1.00' } }]);
    const { loaded, headers } = await builtinsLoadedBy(home, ['transactions', 'get', ID, '-o', 'json'], { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: 'zpk_test_x', PAYCTL_MARKETPLACE_ID: '' });
    expect(server.requests).toHaveLength(1);
    expect(loaded).toContain('NativeModule net'); // the trace is on: the checks below can see a load
    expect(loaded).not.toContain('NativeModule internal/deps/undici/undici');
    expect(loaded).not.toContain('NativeModule tls');
    expect(loaded).not.toContain('NativeModule http2');
    // Only undici's look at it is gone: Node's own Headers is there for anyone who asks.
    expect(headers).toBe('function');
  });

  it('--help loads no V8 tuning (node:v8): that is set just before undici loads', async ({ home }) => {
    const { loaded } = await builtinsLoadedBy(home, ['transactions', 'list', '--help']);
    expect(loaded).toContain('NativeModule fs'); // the trace is on: the check below can see a load
    expect(loaded).not.toContain('NativeModule v8');
  });
});
