// undici is loaded in one place, src/api/undici.ts, and only with a request (the entry point has
// set --liftoff-only before: platform/runtime.ts), and the built CLI takes undici from its own bundle and code cache (undici-bundle.ts),
// which holds only if nothing else imports undici; and --help or a dry run never pays for it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = join(import.meta.dirname, '../../src');
const sources = (readdirSync(src, { recursive: true, encoding: 'utf8' }) as string[])
  .filter((file) => file.endsWith('.ts'))
  .map((file) => ({ file: file.split('\\').join('/'), code: readFileSync(join(src, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '') }));

/** Files whose code names `module` other than in a type (`import type … from`, `typeof import(…)`). */
function filesLoading(module: string): string[] {
  const quoted = `['"]${module.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}['"]`;
  const inTypes = new RegExp(`^\\s*import\\s+type\\b[^;]*?from\\s+${quoted}|typeof\\s+import\\(\\s*${quoted}\\s*\\)`, 'gm');
  return sources.filter(({ code }) => new RegExp(quoted).test(code.replace(inTypes, ''))).map(({ file }) => file);
}

describe('undici is loaded in one place', () => {
  it('only api/undici.ts loads undici', () => {
    // The build step names undici too, to bundle it (build-undici.ts), and never loads it.
    expect(filesLoading('undici')).toEqual(['api/build-undici.ts', 'api/undici.ts']);
    expect(filesLoading('./undici-bundle.js')).toEqual(['api/build-undici.ts', 'api/undici.ts']);
  });

  it('api/undici.ts is imported only dynamically, with a request', () => {
    const importers = sources.filter(({ code }) => /['"](\.\.\/)*(\.\/|api\/)undici\.js['"]/.test(code));
    expect(importers.map(({ file }) => file).sort()).toEqual(['api/client.ts', 'commands/transactions/cancellation-letter.ts']);
    for (const { code } of importers) expect(code).not.toMatch(/^\s*import\s+(?!type\b)[^;]*?from\s+['"][./]*(api\/)?undici\.js['"]/m);
  });
});
