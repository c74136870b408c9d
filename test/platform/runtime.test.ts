// V8 is tuned once, by the entry points (platform/runtime.ts): main.ts before a command's action and
// on the sandbox's thread, and the build step that saves undici's compiled code under the same flags.
// A library module that set a flag of its own would tune some runs and not others.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = join(import.meta.dirname, '../../src');
const sources = (readdirSync(src, { recursive: true, encoding: 'utf8' }) as string[])
  .filter((file) => file.endsWith('.ts'))
  .map((file) => ({ file: file.split('\\').join('/'), code: readFileSync(join(src, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '') }));

const filesMatching = (pattern: RegExp) =>
  sources
    .filter(({ code }) => pattern.test(code))
    .map(({ file }) => file)
    .sort();

describe('V8 is tuned from the entry points only', () => {
  it('only platform/runtime.ts sets V8 flags', () => {
    expect(filesMatching(/setFlagsFromString\s*\(/)).toEqual(['platform/runtime.ts']);
  });

  it('tuneRuntime is called by the entry points: the command line, the sandbox thread, the build', () => {
    expect(filesMatching(/\btuneRuntime\s*\(/)).toEqual(['api/build-undici.ts', 'main.ts', 'platform/runtime.ts']);
  });
});
