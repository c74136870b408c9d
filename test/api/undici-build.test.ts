// How the build makes undici's bundle (src/api/build-undici.ts): the parts of undici payctl never
// uses are left out (undici-left-out.cts) and the rest is bundled as it is. The bundle the build
// made is tested with the built CLI (test/e2e/lazy-undici.test.ts).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundleUndici } from '../../src/api/build-undici.js';

describe('bundleUndici', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A package laid out as undici is, with the files given (path → CommonJS source). */
  function fakeUndici(files: Record<string, string>): string {
    dir = mkdtempSync(join(tmpdir(), 'payctl-undici-'));
    const root = join(dir, 'node_modules', 'undici');
    for (const [file, code] of Object.entries(files)) {
      mkdirSync(join(root, file, '..'), { recursive: true });
      writeFileSync(join(root, file), code);
    }
    return join(root, 'index.js');
  }

  it('leaves out lib/web, lib/mock and lib/cache, and bundles the rest as it is', async () => {
    const entry = fakeUndici({
      'index.js': "exports.fetch = require('./lib/web/fetch').fetch; exports.Mock = require('./lib/mock/agent'); exports.store = require('./lib/cache/store').Store; exports.Agent = require('./lib/dispatcher/agent').Agent;",
      'lib/web/fetch.js': 'exports.fetch = () => "fetched";',
      'lib/mock/agent.js': 'module.exports = class Mock {};',
      'lib/cache/store.js': 'exports.Store = class Store {};',
      'lib/dispatcher/agent.js': 'exports.Agent = class Agent { dispatch() { return "dispatched"; } };',
    });
    const out = join(dir, 'out.cjs');
    expect(await bundleUndici(entry, out)).toBe(3);
    const bundled = createRequire(import.meta.url)(out) as { fetch: () => string; Agent: new () => { dispatch(): string }; store: new () => { size: number } };
    expect(new bundled.Agent().dispatch()).toBe('dispatched');
    expect(() => bundled.fetch()).toThrow(/undici's fetch is left out/);
    expect(() => new bundled.store().size).toThrow(/undici's Store\.size is left out/);
  });

  it('stops the build when nothing matches: undici moved its files', async () => {
    const entry = fakeUndici({ 'index.js': "exports.Agent = require('./lib/agent').Agent;", 'lib/agent.js': 'exports.Agent = class Agent {};' });
    await expect(bundleUndici(entry, join(dir, 'out.cjs'))).rejects.toThrow(/none of undici's modules matched .*its layout changed/);
  });
});
