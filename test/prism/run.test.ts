// `npm run check:prism` (test/prism/run.mjs) is a check run by hand against the provider's file,
// which is not in this repository; what can be checked without it is that it refuses to start
// without the file, at once and with the way to give it, and never installs or starts anything.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./run.mjs', import.meta.url));

describe('npm run check:prism', () => {
  it('without the provider file: exit 2, one line saying how to give it', () => {
    const missing = join('/nonexistent', 'provider-openapi.json');
    const result = spawnSync(process.execPath, [SCRIPT, missing], { encoding: 'utf8', timeout: 10_000 });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`no OpenAPI file at ${missing}; give its path: npm run check:prism -- <provider-openapi.json> [rounds]\n`);
  });
});
