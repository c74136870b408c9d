import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.js';
import { payctl, payctlJson, type RunResult } from '../helpers/run.js';
import { providerError, sentFields, type RecordingServer } from '../helpers/recording-server.js';

const KEY = 'zpk_live_supersecret9876';

const configFile = (home: string) => join(home, 'config.json');

/** What `whoami -o json` prints, in the fields these tests read. */
interface Whoami {
  profile: string;
  api_key: string;
  marketplace_id: string | null;
  seller_id: string | null;
  overridden_by: string[];
}

const readConfig = (home: string) => JSON.parse(readFileSync(configFile(home), 'utf8'));

/** `service` answers lists for KEY and 401 for any other key; `login` logs profile "live" in to it. */
const it = test.extend<{ service: RecordingServer; login: (extra?: string[], key?: string) => Promise<RunResult> }>({
  service: async ({ recording }, use) => {
    await use(
      await recording((req) =>
        req.headers.authorization === `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`
          ? { status: 200, body: { resource: 'list', items: [], has_more: false } }
          : { status: 401, body: providerError(401, 'authentication_error', 'Invalid API key') },
      ),
    );
  },
  login: async ({ home, service }, use) => {
    await use((extra = [], key = KEY) =>
      payctl(['login', '--profile', 'live', '--base-url', service.url, '--api-key-stdin', '--insecure-storage', ...extra], { home, stdin: `${key}\n` }),
    );
  },
});

describe('login', () => {
  it('checks the key with one read-only request, saves the profile 0600 in a 0700 dir, makes it current', async ({ home, login, service }) => {
    const result = await login(['--marketplace-id', 'mkt123', '--seller-id', 'seller123']);
    expect(result.code, result.stderr).toBe(0);
    expect(service.requests).toHaveLength(1);
    expect(service.requests[0]!.method).toBe('GET');
    expect(service.requests[0]!.url).toBe('/v1/marketplaces/mkt123/transactions?limit=1');
    expect(statSync(configFile(home)).mode & 0o777).toBe(0o600);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(readConfig(home)).toEqual({
      current_profile: 'live',
      profiles: { live: { base_url: service.url, api_key: KEY, marketplace_id: 'mkt123', seller_id: 'seller123' } },
    });
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('zpk_…9876');
    expect(result.stderr).not.toContain(KEY);
  });

  it('a rejected key exits 4 and saves nothing', async ({ home, login }) => {
    const result = await login([], 'zpk_live_wrong');
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('the API key was rejected (HTTP 401)');
    expect(result.stderr).toContain('nothing was saved');
    expect(() => statSync(configFile(home))).toThrow();
  });

  it('with prompts off and no key, exits 2 naming the flag', async ({ home }) => {
    const result = await payctl(['login', '--profile', 'live', '--base-url', 'https://api.example.com'], { home });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--api-key-stdin');
  });

  it('refuses the built-in sandbox name', async ({ home }) => {
    const result = await payctl(['login', '--profile', 'sandbox', '--api-key-stdin'], { home, stdin: 'k' });
    expect(result.code).toBe(2);
  });
});

describe('profiles and config', () => {
  it('a fresh install uses the sandbox profile', async ({ home }) => {
    const who = await payctlJson<Whoami>(['whoami'], { home });
    expect(who).toMatchObject({ profile: 'sandbox', base_url: 'embedded', sandbox: true });
    expect(who.api_key).toMatch(/^zpk_…\w{4}$/);
  });

  it('list, use, remove; whoami masks the key', async ({ home, login }) => {
    await login();
    const list = await payctlJson<{ name: string; current: boolean }[]>(['profiles', 'list'], { home });
    expect(list.map((p) => [p.name, p.current])).toEqual([
      ['sandbox', false],
      ['live', true],
    ]);
    expect(JSON.stringify(list)).not.toContain(KEY);
    const who = await payctl(['whoami'], { home, tty: true });
    expect(who.stdout).toContain('zpk_…9876');
    expect(who.stdout).not.toContain(KEY);

    expect((await payctl(['profiles', 'use', 'sandbox'], { home })).code).toBe(0);
    expect(readConfig(home).current_profile).toBe('sandbox');
    expect((await payctl(['profiles', 'use', 'nope'], { home })).code).toBe(2);

    const noYes = await payctl(['profiles', 'remove', 'live'], { home });
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toContain('--yes required');
    expect((await payctl(['profiles', 'remove', 'live', '--yes'], { home })).code).toBe(0);
    expect(readConfig(home).profiles).toEqual({});
  });

  it('logout removes only the key', async ({ home, login, service }) => {
    await login(['--seller-id', 's1']);
    const result = await payctl(['logout', '--profile', 'live'], { home });
    expect(result.code).toBe(0);
    expect(readConfig(home).profiles.live).toEqual({ base_url: service.url, seller_id: 's1' });
  });

  it('config set/get/unset/list', async ({ home }) => {
    expect((await payctl(['config', 'set', 'timeout', '60'], { home })).code).toBe(0);
    expect((await payctl(['config', 'get', 'timeout'], { home })).stdout).toBe('60\n');
    expect((await payctl(['config', 'get', 'api_key'], { home })).stdout).toMatch(/^zpk_…\w{4}\n$/);
    const bad = await payctl(['config', 'set', 'output', 'xml'], { home });
    expect(bad.code).toBe(2);
    const key = await payctl(['config', 'set', 'api_key', 'zpk_live_x'], { home });
    expect(key.code).toBe(2);
    expect(key.stderr).toContain('--api-key-stdin');
    const unknown = await payctl(['config', 'set', 'colour', 'red'], { home });
    expect(unknown.code).toBe(2);
    const list = await payctlJson(['config', 'list'], { home });
    expect(list).toMatchObject({ profile: 'sandbox', timeout: 60, base_url: 'embedded', currency: 'BRL' });
    expect((await payctl(['config', 'unset', 'timeout'], { home })).code).toBe(0);
    expect(readConfig(home).profiles.sandbox).toEqual({});
  });

  it('precedence: flag > environment > profile > default', async ({ home, login }) => {
    await login();
    writeFileSync(configFile(home), JSON.stringify({ ...readConfig(home), profiles: { ...readConfig(home).profiles, live: { ...readConfig(home).profiles.live, seller_id: 'from_profile' } } }));
    expect((await payctlJson<Whoami>(['whoami'], { home })).profile).toBe('live');
    expect((await payctlJson<Whoami>(['whoami'], { home, env: { PAYCTL_PROFILE: 'sandbox' } })).profile).toBe('sandbox');
    expect((await payctlJson<Whoami>(['whoami', '--profile', 'live'], { home, env: { PAYCTL_PROFILE: 'sandbox' } })).profile).toBe('live');
    const env = await payctlJson<Whoami>(['whoami'], { home, env: { PAYCTL_BASE_URL: 'https://env.example.com', PAYCTL_API_KEY: 'zpk_live_fromenv0000' } });
    expect(env).toMatchObject({ base_url: 'https://env.example.com', api_key: 'zpk_…0000', seller_id: 'from_profile' });
    expect(env.overridden_by).toEqual(['PAYCTL_BASE_URL', 'PAYCTL_API_KEY']);
  });

  it('PAYCTL_SELLER_ID overrides the seller (empty: none); the built-in sandbox ids do not follow PAYCTL_BASE_URL', async ({ home, recording }) => {
    const fromEnv = await payctlJson<Whoami>(['whoami'], { home, env: { PAYCTL_SELLER_ID: 'e'.repeat(32) } });
    expect(fromEnv).toMatchObject({ profile: 'sandbox', seller_id: 'e'.repeat(32) });
    expect(fromEnv.overridden_by).toEqual(['PAYCTL_SELLER_ID']);
    // Embedded: the sandbox's own seller and marketplace.
    const embedded = await payctlJson<Whoami>(['whoami'], { home });
    expect(embedded.seller_id).toMatch(/^[0-9a-f]{32}$/);
    expect(embedded.marketplace_id).toMatch(/^[0-9a-f]{32}$/);
    // Pointed elsewhere: neither follows, and a command that needs a seller says what is missing, sending nothing.
    // A sale as the provider answers a create: under the reference it was sent.
    const server = await recording((req) => ({ status: 201, body: { id: 'x', status: 'succeeded', amount: '10.00', reference_id: sentFields(req).reference_id } }));
    const elsewhere = await payctlJson<Whoami>(['whoami'], { home, env: { PAYCTL_BASE_URL: server.url } });
    expect(elsewhere.seller_id ?? null).toBeNull();
    expect(elsewhere.marketplace_id ?? null).toBeNull();
    const card = ['--card-number', '4111111111111111', '--holder-name', 'M S', '--exp-month', '12', '--exp-year', '2031', '--cvv', '123'];
    const create = await payctl(['transactions', 'create', '--amount', '10', ...card], { home, env: { PAYCTL_BASE_URL: server.url } });
    expect(create.code).toBe(2);
    expect(create.stderr).toContain('--on-behalf-of (or the profile seller_id, or PAYCTL_SELLER_ID)');
    expect(server.requests).toHaveLength(0);
    // Told, it sends that seller.
    const told = await payctl(['transactions', 'create', '--amount', '10', ...card, '-o', 'json'], { home, env: { PAYCTL_BASE_URL: server.url, PAYCTL_SELLER_ID: 'e'.repeat(32) } });
    expect(told.code, told.stderr).toBe(0);
    expect(sentFields(server.requests.find((r) => r.method === 'POST')!).on_behalf_of).toBe('e'.repeat(32));
    expect(server.requests.every((r) => !r.path.includes('/marketplaces/'))).toBe(true);
  });

  it('a corrupt config file gives one clear line naming the file', async ({ home }) => {
    mkdirSync(home, { recursive: true });
    writeFileSync(configFile(home), '{ "profiles": ');
    const result = await payctl(['transactions', 'list'], { home });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^error: config file ${configFile(home).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON`));
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a config file of the wrong shape is named too', async ({ home }) => {
    writeFileSync(configFile(home), JSON.stringify({ profiles: { live: { timeout: 'soon' } } }));
    const result = await payctl(['whoami'], { home });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('"live.timeout" that is not a number');
  });

  it('--dry-run on local changes says what would change and changes nothing', async ({ home, login, service }) => {
    await login();
    const before = readFileSync(configFile(home), 'utf8');
    const runs = [
      ['config', 'set', 'timeout', '5', '--dry-run'],
      ['config', 'unset', 'base_url', '--dry-run'],
      ['profiles', 'use', 'sandbox', '--dry-run'],
      ['profiles', 'remove', 'live', '--dry-run'],
      ['logout', '--profile', 'live', '--dry-run'],
    ];
    for (const args of runs) {
      const result = await payctl(args, { home });
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.stderr).toMatch(/^dry run: would .*nothing was changed\n$/);
    }
    const again = await payctl(['login', '--profile', 'other', '--base-url', service.url, '--api-key-stdin', '--dry-run'], { home, stdin: KEY });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`GET ${service.url}/v1/transactions?limit=1`);
    expect(service.requests).toHaveLength(1); // only the real login in login()
    expect(readFileSync(configFile(home), 'utf8')).toBe(before);
  });

  it('an unknown profile is a usage error', async ({ home }) => {
    const result = await payctl(['transactions', 'list', '--profile', 'ghost'], { home });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('profile "ghost" does not exist');
  });
});
