import { chmodSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { loadConfig } from '../../src/config/store.js';
import { updateConfig } from '../../src/config/write.js';
import { it } from '../helpers/fixtures.js';
import { payctl } from '../helpers/run.js';
import { spawnPayctl } from '../helpers/serve.js';

const configFile = (home: string) => join(home, 'config.json');
const mode = (path: string) => statSync(path).mode & 0o7777;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const isRoot = process.getuid?.() === 0;

describe('reading: the zod schema', () => {
  it('a missing or empty file is an empty config', async ({ home }) => {
    expect(await loadConfig(configFile(home))).toEqual({ profiles: {} });
    writeFileSync(configFile(home), '  \n');
    expect(await loadConfig(configFile(home))).toEqual({ profiles: {} });
  });

  it('reads the layout payctl always wrote; profiles may be missing', async ({ home }) => {
    const config = { current_profile: 'live', profiles: { live: { base_url: 'https://api.example.com', api_key: 'zpk_live_x', marketplace_id: 'm', seller_id: 's', currency: 'BRL', output: 'json', timeout: 60 } } };
    writeFileSync(configFile(home), JSON.stringify(config, null, 2));
    expect(await loadConfig(configFile(home))).toEqual(config);
    writeFileSync(configFile(home), JSON.stringify({ current_profile: 'sandbox' }));
    expect(await loadConfig(configFile(home))).toEqual({ current_profile: 'sandbox', profiles: {} });
  });

  it.for([
    [[], 'does not hold a JSON object'],
    ['text', 'does not hold a JSON object'],
    [{ current_profile: 3, profiles: {} }, 'has a "current_profile" that is not a string'],
    [{ profiles: [] }, 'has a "profiles" entry that is not an object'],
    [{ profiles: { live: 'x' } }, 'has a profile "live" that is not an object'],
    [{ profiles: { live: { timeout: '60' } } }, 'has "live.timeout" that is not a number'],
    [{ profiles: { 'my.live': { base_url: 5 } } }, 'has "my.live.base_url" that is not a string'],
    [{ profiles: { live: { future_setting: true } } }, 'has "live.future_setting" that is not a string'],
  ] as [unknown, string][])('%j: one line naming the file and the key', async ([content, problem], { home }) => {
    writeFileSync(configFile(home), JSON.stringify(content));
    await expect(loadConfig(configFile(home))).rejects.toThrow(new RegExp(`^config file ${escape(configFile(home))} ${escape(problem)}; fix it or delete it`));
  });

  it('a broken file stops a command with exit 1 and one line, and `config set` does not overwrite it', async ({ home }) => {
    const broken = JSON.stringify({ profiles: { live: { timeout: 'soon' } } });
    writeFileSync(configFile(home), broken);
    for (const args of [['config', 'get', 'timeout'], ['config', 'set', 'timeout', '5'], ['profiles', 'use', 'sandbox']]) {
      const result = await payctl(args, { home });
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr).toBe(`error: config file ${configFile(home)} has "live.timeout" that is not a number; fix it or delete it and run 'payctl login' again\n`);
    }
    expect(readFileSync(configFile(home), 'utf8')).toBe(broken);
  });
});

describe('writing: conf under a lock', () => {
  it('keeps the file where it is, in the same layout; keys payctl does not know stay', async ({ home }) => {
    writeFileSync(configFile(home), `${JSON.stringify({ current_profile: 'sandbox', profiles: { sandbox: { timeout: 10 } }, note: 'mine' }, null, 2)}\n`);
    expect((await payctl(['config', 'set', 'currency', 'usd'], { home })).code).toBe(0);
    const expected = { current_profile: 'sandbox', profiles: { sandbox: { timeout: 10, currency: 'USD' } }, note: 'mine' };
    expect(readFileSync(configFile(home), 'utf8')).toBe(`${JSON.stringify(expected, null, 2)}\n`);
    expect(mode(configFile(home))).toBe(0o600);
  });

  it('profile names with dots are names, not paths', async ({ home }) => {
    expect((await payctl(['config', 'set', 'timeout', '7', '--profile', 'acme.prod'], { home })).code).toBe(0);
    expect(JSON.parse(readFileSync(configFile(home), 'utf8')).profiles).toEqual({ 'acme.prod': { timeout: 7 } });
  });

  it('re-reads the file inside the lock: many changes at once in one process are all kept', async ({ home }) => {
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        updateConfig(configFile(home), (config) => {
          config.profiles[`p${i}`] = { timeout: i + 1 };
        }),
      ),
    );
    const { profiles } = JSON.parse(readFileSync(configFile(home), 'utf8'));
    expect(Object.keys(profiles).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `p${i}`).sort());
    expect(() => statSync(`${configFile(home)}.lock`)).toThrow(); // released
  });

  it('five `config set` processes at once, round after round: all five values kept', async ({ home }) => {
    const settings: Array<[string, string, unknown]> = [
      ['base_url', 'https://api.example.com', 'https://api.example.com'],
      ['marketplace_id', 'm'.repeat(32), 'm'.repeat(32)],
      ['seller_id', 's'.repeat(32), 's'.repeat(32)],
      ['currency', 'usd', 'USD'],
      ['timeout', '42', 42],
    ];
    for (let round = 0; round < 4; round += 1) {
      const profile = `round${round}`;
      const runs = settings.map(([key, value]) => spawnPayctl(['--profile', profile, 'config', 'set', key, value], home, {}));
      const codes = await Promise.all(runs.map((r) => r.exited));
      expect(codes, runs.map((r) => r.stderr()).join('')).toEqual([0, 0, 0, 0, 0]);
      const stored = JSON.parse(readFileSync(configFile(home), 'utf8')).profiles[profile];
      expect(stored).toEqual(Object.fromEntries(settings.map(([key, , kept]) => [key, kept])));
    }
  }, 60_000);

  it('an edit that throws changes nothing; one that changes nothing writes nothing', async ({ home }) => {
    writeFileSync(configFile(home), '{"profiles":{}}');
    await expect(
      updateConfig(configFile(home), (config) => {
        config.current_profile = 'x';
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    await updateConfig(configFile(home), () => undefined);
    expect(readFileSync(configFile(home), 'utf8')).toBe('{"profiles":{}}');
  });

  it('a lock left by a crashed process is taken over; one held for good gives a clear error in a few seconds', async ({ home }) => {
    const lock = `${configFile(home)}.lock`;
    mkdirSync(lock);
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    expect((await payctl(['config', 'set', 'timeout', '9'], { home })).code).toBe(0);

    mkdirSync(lock);
    const keepFresh = setInterval(() => utimesSync(lock, new Date(), new Date()), 500);
    try {
      const started = Date.now();
      const result = await payctl(['config', 'set', 'timeout', '8'], { home });
      expect(Date.now() - started).toBeLessThan(8_000);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `error: config file ${configFile(home)} is being changed by another payctl process (lock ${lock} held for more than 5 s); try again, or remove ${lock} if no payctl is running\n`,
      );
    } finally {
      clearInterval(keepFresh);
    }
    expect(JSON.parse(readFileSync(configFile(home), 'utf8')).profiles.sandbox.timeout).toBe(9);
  }, 15_000);
});

describe('directories: created 0700, never changed', () => {
  it('a shared 1777 PAYCTL_HOME stays 1777; the file is 0600', async ({ home }) => {
    chmodSync(home, 0o1777);
    expect((await payctl(['config', 'set', 'timeout', '20'], { home })).code).toBe(0);
    expect(mode(home)).toBe(0o1777);
    expect(mode(configFile(home))).toBe(0o600);
    expect((await payctl(['profiles', 'use', 'sandbox'], { home })).code).toBe(0);
    expect(mode(home)).toBe(0o1777);
  });

  it('a 1777 PAYCTL_HOME stays 1777 under five `config set` processes at once', async ({ home }) => {
    chmodSync(home, 0o1777);
    const runs = ['base_url', 'currency', 'timeout', 'seller_id', 'output'].map((key, i) =>
      spawnPayctl(['--profile', 'shared', 'config', 'set', key, ['https://api.example.com', 'BRL', '30', 'x'.repeat(32), 'json'][i] as string], home, {}),
    );
    expect(await Promise.all(runs.map((r) => r.exited))).toEqual([0, 0, 0, 0, 0]);
    expect(mode(home)).toBe(0o1777);
    expect(mode(configFile(home))).toBe(0o600);
  }, 30_000);

  it('an existing 0755 directory stays 0755', async ({ home }) => {
    chmodSync(home, 0o755);
    expect((await payctl(['config', 'set', 'timeout', '20'], { home })).code).toBe(0);
    expect(mode(home)).toBe(0o755);
  });

  it('directories payctl creates are 0700, every level of them', async ({ home }) => {
    const nested = join(home, 'a', 'b');
    expect((await payctl(['config', 'set', 'timeout', '20'], { home: nested })).code).toBe(0);
    expect(mode(join(home, 'a'))).toBe(0o700);
    expect(mode(nested)).toBe(0o700);
    expect(mode(join(nested, 'config.json'))).toBe(0o600);
  });

  it('a config file written 0644 by hand becomes 0600 on the next change', async ({ home }) => {
    writeFileSync(configFile(home), '{"profiles":{}}', { mode: 0o644 });
    chmodSync(configFile(home), 0o644);
    expect((await payctl(['config', 'set', 'timeout', '20'], { home })).code).toBe(0);
    expect(mode(configFile(home))).toBe(0o600);
  });
});

describe('an impossible or unwritable PAYCTL_HOME: one line naming it, exit 2, at once', () => {
  it('under a regular file', async ({ home }) => {
    const file = join(home, 'plain');
    writeFileSync(file, '');
    const impossible = join(file, 'payctl');
    for (const args of [['config', 'set', 'timeout', '5'], ['config', 'get', 'timeout'], ['profiles', 'use', 'sandbox']]) {
      const started = Date.now();
      const result = await payctl(args, { home: impossible });
      expect(Date.now() - started, args.join(' ')).toBeLessThan(1_000);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toBe(`error: config directory ${impossible} cannot be used: ${file} is not a directory; set PAYCTL_HOME to a writable directory\n`);
    }
  });

  it('a regular file itself', async ({ home }) => {
    const file = join(home, 'plain');
    writeFileSync(file, '');
    const result = await payctl(['config', 'set', 'timeout', '5'], { home: file });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(`config directory ${file} `);
  });

  it('login says so before it sends anything (no network error)', async ({ home }) => {
    const file = join(home, 'plain');
    writeFileSync(file, '');
    const result = await payctl(['login', '--profile', 'live', '--base-url', 'https://payctl.invalid', '--api-key-stdin'], { home: join(file, 'x'), stdin: 'zpk_live_abcd\n' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: config directory .*plain\/x cannot be used/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it.skipIf(isRoot)('a read-only directory (not as root: root writes anyway)', async ({ home }) => {
    chmodSync(home, 0o500);
    try {
      const started = Date.now();
      const result = await payctl(['config', 'set', 'timeout', '5'], { home });
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`error: config directory ${home} is not writable (permission denied); set PAYCTL_HOME to a writable directory\n`);
      const login = await payctl(['login', '--profile', 'live', '--base-url', 'https://payctl.invalid', '--api-key-stdin'], { home, stdin: 'zpk_live_abcd\n' });
      expect(login.code).toBe(2);
      expect(login.stderr).toContain('is not writable');
      expect(mode(home)).toBe(0o500);
    } finally {
      chmodSync(home, 0o700);
    }
  });
});
