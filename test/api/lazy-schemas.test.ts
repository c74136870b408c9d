// Start-up cost: zod loads only when an answer has a schema to meet (src/provider/schemas/), never for
// `--version`, `--help` or commands whose operations have none. The CLI is bundled with code
// splitting, so a static import anywhere on the way would load it for every run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, vi } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { payctl } from '../helpers/run.js';

const loaded = vi.hoisted(() => new Set<string>());

vi.mock('zod', async (importOriginal) => {
  loaded.add('zod');
  return importOriginal();
});
vi.mock('zod/mini', async (importOriginal) => {
  loaded.add('zod/mini');
  return importOriginal();
});
vi.mock('zod/v4/core', async (importOriginal) => {
  loaded.add('zod/v4/core');
  return importOriginal();
});

const ID = '0123456789abcdef0123456789abcdef';

describe('zod is loaded lazily', () => {
  it('not for --version, --help or --dry-run; then once, when the first answer arrives to be checked', async ({ home, recording }) => {
    expect((await payctl(['--version'], { home })).code).toBe(0);
    expect((await payctl(['--help'], { home })).code).toBe(0);
    expect((await payctl(['transactions', 'refund', '--help'], { home })).code).toBe(0);
    const server = await recording((req) =>
      req.path.includes('/buyers/') ? { status: 200, body: { id: ID, first_name: 'Maria' } } : { status: 200, body: { id: ID, status: 'succeeded', amount: '1.00' } },
    );
    const env = { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: 'zpk_test_x', PAYCTL_MARKETPLACE_ID: '' };
    expect((await payctl(['buyers', 'get', ID, '--dry-run'], { home, env })).code).toBe(0);
    expect([...loaded]).toEqual([]);

    const buyer = await payctl(['buyers', 'get', ID], { home, env });
    expect(buyer.code, buyer.stderr).toBe(0);
    expect([...loaded].sort()).toEqual(['zod/mini', 'zod/v4/core']);
    const tx = await payctl(['transactions', 'get', ID], { home, env });
    expect(tx.code, tx.stderr).toBe(0);
    expect([...loaded].sort()).toEqual(['zod/mini', 'zod/v4/core']);
  });

  it('the client imports the schemas only dynamically (types aside)', () => {
    const source = readFileSync(join(import.meta.dirname, '../../src/api/client.ts'), 'utf8');
    const staticImports = [...source.matchAll(/^\s*import\s+(?!type\b)[^;]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]);
    expect(staticImports).not.toContain('zod');
    expect(staticImports).not.toContain('zod/mini');
    expect(staticImports).not.toContain('../provider/schemas/index.js');
    expect(staticImports).not.toContain('./error-json.js');
    // undici too (about 7 MB): a dry run, or a bulk file refused before anything is sent, never loads it.
    expect(staticImports).not.toContain('undici');
    expect(staticImports).not.toContain('./undici.js');
    expect(source).toContain("import('./undici.js')");
    expect(source).toContain("import('../provider/schemas/index.js')");
    expect(source).toContain("import('./error-json.js')");
  });

  it("bundled, the schemas hold only the parts of zod they use: none of its locales or its JSON Schema writer", async () => {
    // The schemas load with the first checked answer, so all they bundle is read and compiled then.
    const bundled = await build({ entryPoints: [join(import.meta.dirname, '../../src/provider/schemas/index.ts')], outfile: 'schemas.js', bundle: true, format: 'esm', platform: 'node', write: false, metafile: true, logLevel: 'silent' });
    const [output] = Object.values(bundled.metafile.outputs);
    const zodFiles = Object.entries(output!.inputs)
      .filter(([file, { bytesInOutput }]) => file.includes('node_modules/zod/') && bytesInOutput > 0)
      .map(([file]) => file);
    expect(zodFiles.length).toBeGreaterThan(0);
    expect(zodFiles.filter((file) => /\/locales\/|json-schema/.test(file))).toEqual([]);
  });
});
