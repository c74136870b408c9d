// undici is loaded in one place, src/api/undici.ts, and only with a request: its prelude must run
// just before undici's index (--liftoff-only), which holds only if nothing else imports undici, and
// --help or a dry run never pays for it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = join(import.meta.dirname, '../../src');
const sources = (readdirSync(src, { recursive: true, encoding: 'utf8' }) as string[])
  .filter((file) => file.endsWith('.ts'))
  .map((file) => ({ file: file.split('\\').join('/'), text: readFileSync(join(src, file), 'utf8') }));

/** Files that import `target` as a value: statically (`import … from`, not `import type`) or dynamically (`import(…)`, not `typeof import(…)`). */
function importersOf(target: RegExp): { statically: string[]; dynamically: string[] } {
  const statically: string[] = [];
  const dynamically: string[] = [];
  for (const { file, text } of sources) {
    for (const [, spec] of text.matchAll(/^\s*import\s+(?!type\b)(?:[^;]*?\s+from\s+)?['"]([^'"]+)['"]/gm)) if (target.test(spec!)) statically.push(file);
    for (const [, spec] of text.matchAll(/(?<!typeof\s+)\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) if (target.test(spec!)) dynamically.push(file);
  }
  return { statically: [...new Set(statically)], dynamically: [...new Set(dynamically)] };
}

describe('undici is imported in one place', () => {
  it('only api/undici.ts imports undici, and it runs its prelude first', () => {
    expect(importersOf(/^undici(\/|$)/)).toEqual({ statically: ['api/undici.ts'], dynamically: [] });
    expect(importersOf(/undici-prelude\.js$/)).toEqual({ statically: ['api/undici.ts'], dynamically: [] });
    const imports = [...readFileSync(join(src, 'api/undici.ts'), 'utf8').matchAll(/^import\s.*$/gm)].map(([line]) => line);
    expect(imports[0]).toContain('./undici-prelude.js');
    expect(imports[1]).toContain("'undici'");
  });

  it('api/undici.ts is imported only dynamically, with a request', () => {
    const { statically, dynamically } = importersOf(/\/undici\.js$/);
    expect(statically).toEqual([]);
    expect(dynamically.sort()).toEqual(['api/client.ts', 'commands/transactions/cancellation-letter.ts']);
  });

  it("payctl's own code never reads globalThis.Headers: the bundle defines it as undefined (see undici.ts)", () => {
    const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    expect(sources.filter(({ text }) => /globalThis\s*(\.\s*Headers|\[\s*['"]Headers)/.test(code(text))).map(({ file }) => file)).toEqual([]);
  });
});
