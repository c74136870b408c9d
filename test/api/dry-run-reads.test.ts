// --dry-run sends nothing at all: a read prints the request it would send (credentials masked)
// and stops there, like a change does; the embedded sandbox is not even started.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { payctl } from '../helpers/run.js';

const TX = '0123456789abcdef0123456789abcdef';
const KEY = 'zpk_live_dryrunsecret1234';
const live = (server: { url: string }) => ({ PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: KEY, PAYCTL_MARKETPLACE_ID: '' });

describe('--dry-run on reads', () => {
  it.for([
    [['transactions', 'list', '--status', 'succeeded'], `/v1/transactions?status=succeeded&limit=20&offset=0`],
    [['transactions', 'get', TX], `/v1/transactions/${TX}`],
    [['transactions', 'list', '--all', '-o', 'csv'], `/v1/transactions?limit=100&offset=0`],
    [['buyers', 'get', TX], `/v1/buyers/${TX}`],
  ] as [string[], string][])('payctl %s prints the GET and sends nothing', async ([args, path], { home, recording }) => {
    // A live service with no replies: a dry run must not ask it anything.
    const server = await recording([]);
    const result = await payctl([...args, '--dry-run', '-o', 'json'], { home, env: live(server) });
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(0);
    const shown = JSON.parse(result.stdout);
    expect(shown).toMatchObject({ dry_run: true, method: 'GET', url: `${server.url}${path}` });
    expect(shown.headers.authorization).toBe('Basic [redacted]');
    expect(result.stdout).not.toContain(Buffer.from(`${KEY}:`).toString('base64'));
    expect(result.stderr).toBe('dry run: nothing was sent\n');
  });

  it('against the embedded sandbox: the sandbox is not started, nothing is written', async ({ home }) => {
    const result = await payctl(['transactions', 'list', '--dry-run', '-o', 'json'], { home });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).url).toMatch(/^sandbox:\/\/embedded\/v1\/marketplaces\/[0-9a-f]{32}\/transactions\?limit=20&offset=0$/);
    expect(existsSync(join(home, 'state', 'sandbox'))).toBe(false);
  });
});
