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

describe("check:prism's reading of the seed's types", () => {
  it('turns the text capture and a boleto amount in numeric text into the file’s boolean and number, and nothing else', async () => {
    const { asProviderTypes } = await import('./seed-types.mjs');
    expect(asProviderTypes({ capture: 'false', amount: 1050, source: { amount: 1050 } })).toEqual({ capture: false, amount: 1050, source: { amount: 1050 } });
    expect(asProviderTypes({ payment_type: 'boleto', amount: '15000' })).toEqual({ payment_type: 'boleto', amount: 15000 });
    const untouched = { amount: 1050, capture: true };
    expect(asProviderTypes(untouched)).toBe(untouched);
    expect(asProviderTypes({ amount: '10.50' })).toEqual({ amount: '10.50' });
    expect(asProviderTypes(null)).toBeNull();
  });
});
