// Where login keeps the API key: the OS keyring, for real. On Linux that is the Secret Service: each
// test session gets its own session bus (dbus-run-session) with its own gnome-keyring-daemon,
// under a temporary HOME, so nothing here touches a keyring of the person running the tests. The
// built binary runs as users run it; a recording server checks what key each request carried.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { converse, KEY as KEYS } from '../helpers/interactive.js';
import { recordingServer, type RecordingServer } from '../helpers/recording-server.js';
import { tempHome } from '../helpers/run.js';
import { BIN, spawnPayctl } from '../helpers/serve.js';

const KEY = 'zpk_live_keyringsecret4321';
const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
const ROOT = join(BIN, '..', '..');

const installed = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const missingTools = ['dbus-run-session', 'gnome-keyring-daemon'].filter((tool) => !installed(tool));
const sessionSkip =
  process.platform !== 'linux'
    ? 'the Secret Service tests run on Linux'
    : missingTools.length > 0
      ? `${missingTools.join(' and ')} not installed (Debian: apt-get install gnome-keyring dbus-x11)`
      : undefined;

let server: RecordingServer;
let scratch: ReturnType<typeof tempHome>;

beforeAll(async () => {
  // Lists answer for the one key logged in, 401 for anything else.
  server = await recordingServer((req) =>
    req.headers.authorization === basic(KEY)
      ? { status: 200, body: { resource: 'list', items: [], has_more: false } }
      : { status: 401, body: { error: { category: 'authentication_error', message: 'Invalid API key' } } },
  );
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  scratch = tempHome();
  server.requests.length = 0;
});
afterEach(() => scratch.cleanup());

const payctlHome = () => join(scratch.home, 'payctl');
const configFile = () => join(payctlHome(), 'config.json');

interface Step {
  code: number;
  stdout: string;
  stderr: string;
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/**
 * Runs steps inside one session bus with an unlocked gnome-keyring: each step is payctl with its
 * arguments (and stdin), or `keyring` to print what the keyring holds for profile "live" (`ledger
 * keyring`: its ledger URL), read directly through the binding. Returns each step's output and exit code.
 */
async function inKeyringSession(steps: (string[] | 'keyring' | 'ledger keyring')[], stdin: Record<number, string> = {}): Promise<Step[]> {
  const out = join(scratch.home, 'out');
  const run = join(scratch.home, 'run');
  mkdirSync(out);
  mkdirSync(run, { mode: 0o700 });
  const readEntry = (entry: string) => `import('@napi-rs/keyring').then((m) => new (m.default ?? m).AsyncEntry('payctl', '${entry}', { linux: { store: 'secret-service' } }).getPassword()).then((k) => console.log(JSON.stringify(k)))`;
  const lines = ['echo pass | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1 || exit 90'];
  steps.forEach((step, i) => {
    const input = join(out, `${i}.in`);
    writeFileSync(input, stdin[i] ?? '');
    const entry = step === 'keyring' ? 'live' : step === 'ledger keyring' ? 'live:ledger_url' : undefined;
    const command = entry ? `(cd ${quote(ROOT)} && ${quote(process.execPath)} -e ${quote(readEntry(entry))})` : [process.execPath, BIN, ...(step as string[])].map(quote).join(' ');
    lines.push(`${command} < ${quote(input)} > ${quote(join(out, `${i}.out`))} 2> ${quote(join(out, `${i}.err`))}; echo $? > ${quote(join(out, `${i}.rc`))}`);
  });
  const env = { PATH: process.env.PATH, TZ: 'UTC', HOME: scratch.home, XDG_RUNTIME_DIR: run, XDG_DATA_HOME: join(scratch.home, 'data'), PAYCTL_HOME: payctlHome() };
  const child = spawn('dbus-run-session', ['--', 'sh', '-c', lines.join('\n')], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the keyring session ended with ${code}: ${stderr}`);
  return steps.map((_, i) => ({
    code: Number(readFileSync(join(out, `${i}.rc`), 'utf8')),
    stdout: readFileSync(join(out, `${i}.out`), 'utf8'),
    stderr: readFileSync(join(out, `${i}.err`), 'utf8'),
  }));
}

describe(sessionSkip ? `the OS keyring (skipped: ${sessionSkip})` : 'the OS keyring', () => {
  it.skipIf(sessionSkip !== undefined)('login keeps the key there and only a reference in the file; commands use it; logout removes it', async () => {
    const login = ['login', '--profile', 'live', '--base-url', server.url, '--api-key-stdin'];
    const [saved, held, config, who, listed, profiles, logout, gone, after] = await inKeyringSession(
      [login, 'keyring', ['config', 'list', '-o', 'json'], ['whoami', '-o', 'json'], ['transactions', 'list', '--limit', '1', '-o', 'json'], ['profiles', 'list', '-o', 'json'], ['logout'], 'keyring', ['whoami', '-o', 'json']],
      { 0: `${KEY}\n` },
    );
    expect(saved!.code, saved!.stderr).toBe(0);
    expect(saved!.stderr).toContain('the API key in the OS keyring');
    expect(saved!.stderr).not.toContain(KEY);
    expect(JSON.parse(held!.stdout)).toBe(KEY);
    expect(config!.code, config!.stderr).toBe(0);
    expect(config!.stdout).not.toContain(KEY);

    expect(who!.code, who!.stderr).toBe(0);
    expect(JSON.parse(who!.stdout)).toMatchObject({ profile: 'live', api_key: 'zpk_…4321', api_key_source: 'keyring' });
    expect(listed!.code, listed!.stderr).toBe(0);
    // The check at login, then the list: both with the key from the keyring.
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([basic(KEY), basic(KEY)]);
    expect(JSON.parse(profiles!.stdout).find((p: { name: string }) => p.name === 'live').api_key).toBe('(in keyring)');

    expect(logout!.code, logout!.stderr).toBe(0);
    expect(logout!.stderr).toContain('removed from the OS keyring');
    expect(JSON.parse(gone!.stdout)).toBeNull();
    expect(JSON.parse(after!.stdout)).toMatchObject({ profile: 'live', api_key: '(none)', api_key_source: null });
    expect(JSON.parse(readFileSync(configFile(), 'utf8'))).toEqual({ current_profile: 'live', profiles: { live: { base_url: server.url } } });
  });

  it.skipIf(sessionSkip !== undefined)('moving the key between keyring and file leaves no copy behind; profiles remove takes it out of the keyring', async () => {
    const login = ['login', '--profile', 'live', '--base-url', server.url, '--api-key-stdin'];
    const steps = await inKeyringSession(
      [login, [...login, '--insecure-storage'], 'keyring', ['whoami', '-o', 'json'], login, ['config', 'list', '-o', 'json'], 'keyring', ['profiles', 'remove', 'live', '--yes'], 'keyring'],
      { 0: `${KEY}\n`, 1: `${KEY}\n`, 4: `${KEY}\n` },
    );
    const [toKeyring, toFile, afterFile, who, backToKeyring, config, held, removed, afterRemove] = steps;
    for (const step of [toKeyring, toFile, backToKeyring, removed]) expect(step!.code, step!.stderr).toBe(0);
    expect(JSON.parse(afterFile!.stdout)).toBeNull();
    expect(JSON.parse(who!.stdout)).toMatchObject({ api_key_source: 'file' });
    // Back in the keyring: the file's copy is gone (config list would show it masked).
    expect(JSON.parse(config!.stdout).api_key).toBe('(in keyring)');
    expect(JSON.parse(held!.stdout)).toBe(KEY);
    expect(JSON.parse(afterRemove!.stdout)).toBeNull();
    expect(JSON.parse(readFileSync(configFile(), 'utf8')).profiles).toEqual({});
  });

  it.skipIf(sessionSkip !== undefined)('config set ledger_url keeps the URL with its password there and a masked copy in the file; money moves read it; unset removes it', async () => {
    const url = 'postgres://payctl:ledger-s3cret@127.0.0.1:1/payctl';
    const login = ['login', '--profile', 'live', '--base-url', server.url, '--api-key-stdin', '--insecure-storage'];
    const [loggedIn, set, held, get, check, unset, gone, setAgain, removed, goneWithProfile] = await inKeyringSession(
      [
        login,
        ['config', 'set', 'ledger_url', url],
        'ledger keyring',
        ['config', 'get', 'ledger_url'],
        ['ledger', 'check'],
        ['config', 'unset', 'ledger_url'],
        'ledger keyring',
        ['config', 'set', 'ledger_url', url],
        ['profiles', 'remove', 'live', '--yes'],
        'ledger keyring',
      ],
      { 0: `${KEY}\n` },
    );
    for (const step of [loggedIn, set, get, unset, setAgain, removed]) expect(step!.code, step!.stderr).toBe(0);
    // A profile removed takes its ledger URL out of the keyring too.
    expect(JSON.parse(goneWithProfile!.stdout)).toBeNull();
    expect(set!.stderr).toBe('Set ledger_url = postgres://payctl:****@127.0.0.1:1/payctl in profile "live"; its password is in the OS keyring\n');
    expect(JSON.parse(held!.stdout)).toBe(url);
    expect(get!.stdout).toBe('postgres://payctl:****@127.0.0.1:1/payctl\n');
    // The URL from the keyring, to a database that does not answer: exit 8, its password masked.
    expect(check!.code).toBe(8);
    expect(check!.stderr).toContain('the ledger postgres://payctl:****@127.0.0.1:1/payctl cannot be reached');
    expect(unset!.stderr).toBe('Unset ledger_url in profile "live" (and removed it from the OS keyring)\n');
    expect(JSON.parse(gone!.stdout)).toBeNull();
    for (const step of [set, get, check, unset]) expect(step!.stdout + step!.stderr).not.toContain('ledger-s3cret');
    expect(readFileSync(configFile(), 'utf8')).not.toContain('ledger-s3cret');
  });

  it.skipIf(sessionSkip !== undefined)('the config file never holds the key, not even in passing', async () => {
    const [saved] = await inKeyringSession([['login', '--profile', 'live', '--base-url', server.url, '--api-key-stdin']], { 0: `${KEY}\n` });
    expect(saved!.code, saved!.stderr).toBe(0);
    const bytes = readFileSync(configFile());
    expect(bytes.includes(KEY)).toBe(false);
    expect(bytes.includes('keyringsecret')).toBe(false);
    expect(JSON.parse(bytes.toString('utf8')).profiles.live).toEqual({ base_url: server.url, api_key_ref: 'keyring' });
  });
});

// No session bus at all (a server, CI): the binding is pointed at a socket that does not exist.
describe.skipIf(process.platform !== 'linux')('no keyring reachable', () => {
  const noBus = () => ({ DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(scratch.home, 'no-bus')}` });
  const payctl = async (args: string[], stdin?: string, env: Record<string, string> = {}) => {
    const run = spawnPayctl(args, payctlHome(), { ...noBus(), ...env }, stdin);
    const code = await run.exited;
    return { code, stdout: run.stdout(), stderr: run.stderr() };
  };

  it('login refuses in one line, exit 2, before anything is sent or saved', async () => {
    const result = await payctl(['login', '--profile', 'live', '--base-url', server.url, '--api-key-stdin'], `${KEY}\n`);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^error: no OS keyring is reachable \(.+\) to keep the API key in; run again with --insecure-storage/);
    expect(server.requests).toHaveLength(0);
    expect(() => statSync(configFile())).toThrow();
  });

  it('--insecure-storage saves it in the 0600 config file; whoami says so and commands use it', async () => {
    const login = await payctl(['login', '--profile', 'live', '--base-url', server.url, '--api-key-stdin', '--insecure-storage'], `${KEY}\n`);
    expect(login.code, login.stderr).toBe(0);
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(configFile(), 'utf8')).profiles.live).toEqual({ base_url: server.url, api_key: KEY });
    const who = await payctl(['whoami', '-o', 'json']);
    expect(JSON.parse(who.stdout)).toMatchObject({ api_key: 'zpk_…4321', api_key_source: 'file' });
    expect((await payctl(['transactions', 'list', '--limit', '1', '-o', 'json'])).code).toBe(0);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([basic(KEY), basic(KEY)]);
  });

  it('a profile whose key is in the keyring says so in one line; PAYCTL_API_KEY still works without it', async () => {
    mkdirSync(payctlHome(), { mode: 0o700 });
    writeFileSync(configFile(), JSON.stringify({ current_profile: 'live', profiles: { live: { base_url: server.url, api_key_ref: 'keyring' } } }), { mode: 0o600 });
    const list = await payctl(['transactions', 'list', '--limit', '1', '-o', 'json']);
    expect(list.code).toBe(2);
    expect(list.stderr.trim().split('\n')).toHaveLength(1);
    expect(list.stderr).toMatch(/^error: the API key of profile "live" is in the OS keyring, but no keyring is reachable \(.+\); set PAYCTL_API_KEY/);
    expect(server.requests).toHaveLength(0);

    const env = await payctl(['transactions', 'list', '--limit', '1', '-o', 'json'], undefined, { PAYCTL_API_KEY: KEY });
    expect(env.code, env.stderr).toBe(0);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([basic(KEY)]);
    const who = await payctl(['whoami', '-o', 'json'], undefined, { PAYCTL_API_KEY: KEY });
    expect(JSON.parse(who.stdout)).toMatchObject({ api_key_source: 'environment', overridden_by: ['PAYCTL_API_KEY'] });
  });

  it('config says where the key is without reading it, and leaves its removal to logout', async () => {
    mkdirSync(payctlHome(), { mode: 0o700 });
    const config = JSON.stringify({ current_profile: 'live', profiles: { live: { base_url: server.url, api_key_ref: 'keyring' } } });
    writeFileSync(configFile(), config, { mode: 0o600 });
    const get = await payctl(['config', 'get', 'api_key']);
    expect(get.code, get.stderr).toBe(0);
    expect(get.stderr).toBe(`the API key of profile "live" is in the OS keyring; 'payctl whoami' shows it masked\n`);
    expect(JSON.parse((await payctl(['config', 'list', '-o', 'json'])).stdout)).toMatchObject({ profile: 'live', api_key: '(in keyring)' });
    const unset = await payctl(['config', 'unset', 'api_key']);
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain("'payctl logout' removes it");
    expect(readFileSync(configFile(), 'utf8')).toBe(config);
  });

  it('logout of a profile whose key is in an unreachable keyring changes nothing, exit 2', async () => {
    mkdirSync(payctlHome(), { mode: 0o700 });
    const config = JSON.stringify({ current_profile: 'live', profiles: { live: { base_url: server.url, api_key_ref: 'keyring' } } });
    writeFileSync(configFile(), config, { mode: 0o600 });
    const result = await payctl(['logout']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: the API key of profile "live" is in the OS keyring, but no keyring is reachable \(.+\); nothing was changed\n$/);
    expect(readFileSync(configFile(), 'utf8')).toBe(config);
  });
});

// On a terminal the user is asked instead. In-process, so the binding sees this process's
// environment: pointed at a bus that does not exist for the test's length.
describe.skipIf(process.platform !== 'linux')('no keyring reachable, on a terminal', () => {
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.DBUS_SESSION_BUS_ADDRESS;
    process.env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${join(scratch.home, 'no-bus')}`;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
    else process.env.DBUS_SESSION_BUS_ADDRESS = saved;
  });
  const login = (answer: string) =>
    converse(['login', '--profile', 'live', '--base-url', server.url], payctlHome(), [
      { prompt: /Marketplace id/, keys: KEYS.enter },
      { prompt: /Default seller id/, keys: KEYS.enter },
      { prompt: /API key/, keys: `${KEY}${KEYS.enter}` },
      { prompt: /Save the API key in .*config\.json \(plain text, mode 0600\) instead\?/, keys: `${answer}${KEYS.enter}` },
    ]);

  it('asks whether to save the key in the file: yes saves it there', async () => {
    const result = await login('y');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('warning: no OS keyring is reachable');
    expect(JSON.parse(readFileSync(configFile(), 'utf8')).profiles.live.api_key).toBe(KEY);
  });

  it('no: cancelled, exit 3, nothing sent or saved', async () => {
    const result = await login('n');
    expect(result.code).toBe(3);
    expect(server.requests).toHaveLength(0);
    expect(() => statSync(configFile())).toThrow();
  });
});
