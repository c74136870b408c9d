import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Dispatcher } from 'undici';
import { promisify } from 'node:util';
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { testEnv } from '../helpers/run.js';
import { BIN } from '../helpers/serve.js';

const run = promisify(execFile);
const ID = '0123456789abcdef0123456789abcdef';

/**
 * What the built CLI loaded, as a preloaded script saw it at exit: the Node.js built-in modules
 * (process.moduleLoadList; undici itself is bundled, so the list shows what it woke), what Node's
 * Headers global then was, and each script compiled through node:vm (undici's bundle) with what V8
 * did with the code cache it was given.
 */
async function traceOf(home: string, args: string[], env: Record<string, string> = {}, nodeFlags: string[] = []): Promise<{ loaded: string[]; headers: string; compiled: string[] }> {
  const probe = join(home, 'probe.cjs');
  const trace = join(home, 'trace.json');
  writeFileSync(
    probe,
    `const vm = require('node:vm');
const compiled = [];
vm.Script = class extends vm.Script {
  constructor(code, options) {
    super(code, options);
    compiled.push(require('node:path').basename(options.filename) + ': ' + (options.cachedData ? (this.cachedDataRejected ? 'cache refused' : 'cache taken') : 'no cache'));
  }
};
process.on('exit', () => {
  const loaded = [...process.moduleLoadList]; // before Headers is looked at, which loads Node's undici
  require('node:fs').writeFileSync(${JSON.stringify(trace)}, JSON.stringify({ loaded, headers: typeof Headers, compiled }));
});
`,
  );
  await run(process.execPath, [...nodeFlags, '--require', probe, BIN, ...args], { env: testEnv(home, env), timeout: 20_000 });
  return JSON.parse(readFileSync(trace, 'utf8'));
}

describe('loading undici', () => {
  it("a request does not load Node's own copy of undici, nor tls or http2 with it", async ({ home, recording }) => {
    const server = await recording([{ status: 200, body: { id: ID, status: 'succeeded', amount: '1.00' } }]);
    const { loaded, headers } = await traceOf(home, ['transactions', 'get', ID, '-o', 'json'], { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: 'zpk_test_x', PAYCTL_MARKETPLACE_ID: '' });
    expect(server.requests).toHaveLength(1);
    expect(loaded).toContain('NativeModule net'); // the trace is on: the checks below can see a load
    expect(loaded).not.toContain('NativeModule internal/deps/undici/undici');
    expect(loaded).not.toContain('NativeModule tls');
    expect(loaded).not.toContain('NativeModule http2');
    // Only undici's look at it is gone: Node's own Headers is there for anyone who asks.
    expect(headers).toBe('function');
  });

  it.for(['transactions list --help', 'help transactions list'])('payctl %s loads no V8 tuning (node:v8): that is set before a command runs', async (line, { home }) => {
    const { loaded } = await traceOf(home, line.split(' '));
    expect(loaded).toContain('NativeModule fs'); // the trace is on: the check below can see a load
    expect(loaded).not.toContain('NativeModule v8');
  });

  // The build saves the code V8 compiled for undici's bundle, for the Node.js that ran the build.
  describe("undici's bundle and its code cache", () => {
    const dist = join(import.meta.dirname, '../../dist');
    const caches = readdirSync(dist).filter((file) => /^undici\.cjs\.node-.+\.cache$/.test(file));
    const ours = `undici.cjs.node-${process.version}.cache`;

    it('the build saved one, and a request compiles undici from it when this Node.js made it', async ({ home, recording }) => {
      expect(caches).toHaveLength(1);
      const server = await recording([{ status: 200, body: { id: ID, status: 'succeeded', amount: '1.00' } }]);
      const { compiled } = await traceOf(home, ['transactions', 'get', ID, '-o', 'json'], { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: 'zpk_test_x', PAYCTL_MARKETPLACE_ID: '' });
      // Another Node.js (npm run test:node-matrix runs the suite on a build made by this one) has none of its own.
      expect(compiled).toEqual([caches.includes(ours) ? 'undici.cjs: cache taken' : 'undici.cjs: no cache']);
    });

    it.skipIf(!caches.includes(ours))('a cache V8 refuses (other flags) is compiled as usual: the request still works', async ({ home, recording }) => {
      const server = await recording([{ status: 200, body: { id: ID, status: 'succeeded', amount: '1.00' } }]);
      const env = { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: 'zpk_test_x', PAYCTL_MARKETPLACE_ID: '' };
      const { compiled } = await traceOf(home, ['transactions', 'get', ID, '-o', 'json'], env, ['--stack-size=900']);
      expect(compiled).toEqual(['undici.cjs: cache refused']);
      expect(server.requests).toHaveLength(1);
    });

    describe('what it holds: the dispatchers payctl uses, and nothing of what it left out', () => {
      const undici = createRequire(import.meta.url)(join(dist, 'undici.cjs')) as typeof import('undici');

      it('sends a request and its JSON body through its Agent, as the client does', async ({ recording }) => {
        const server = await recording([{ status: 201, body: { id: 'x' } }]);
        const agent: Dispatcher = new undici.Agent({ connect: { timeout: 2000 } });
        try {
          const url = new URL(server.url);
          const response = await agent.request({ origin: url.origin, path: '/v1/things', method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount: 1050 }) });
          expect(response.statusCode).toBe(201);
          expect(await response.body.json()).toEqual({ id: 'x' });
          expect(server.requests[0]).toMatchObject({ method: 'POST', json: { amount: 1050 } });
        } finally {
          await agent.close();
        }
      });

      it("keeps the dispatchers and errors payctl uses: undici's own classes", () => {
        expect(new undici.EnvHttpProxyAgent()).toBeInstanceOf(undici.Dispatcher);
        expect(new undici.errors.ConnectTimeoutError()).toBeInstanceOf(undici.errors.UndiciError);
      });

      it('refuses to run what it left out, naming it', () => {
        expect(() => undici.fetch('http://127.0.0.1:9/')).toThrow(/undici's fetch is left out of payctl's build/);
        expect(() => new undici.Headers().get('accept')).toThrow(/undici's Headers\.get is left out/);
        expect(() => new undici.WebSocket('ws://127.0.0.1:9/')).not.toThrow(); // made as undici's index makes `caches`
        expect(() => new undici.WebSocket('ws://127.0.0.1:9/').send('x')).toThrow(/is left out of payctl's build/);
        expect(() => undici.caches.open('x')).toThrow(/is left out of payctl's build/);
        expect(() => new undici.MockAgent().get('http://x')).toThrow(/is left out of payctl's build/);
      });
    });
  });
});
