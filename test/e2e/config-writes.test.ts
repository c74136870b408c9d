import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempHome, testEnv } from '../helpers/run.js';

// The config file as several real payctl processes write it at once (built dist/, as `npm test` builds it).
const BIN = fileURLToPath(new URL('../../bin/payctl.js', import.meta.url));
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
let home: { home: string; cleanup: () => void };

beforeEach(() => {
  home = tempHome();
});
afterEach(() => home.cleanup());

const configFile = () => join(home.home, 'config.json');
const readConfig = () => JSON.parse(readFileSync(configFile(), 'utf8'));

/**
 * The CLI where another user can run it: bin/, dist/ and package.json copied into a directory every
 * user may read. The checkout itself may not be (CI clones into a `mktemp -d`, mode 0700).
 */
function cliForAnyUser(): { bin: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'payctl-cli-'));
  chmodSync(dir, 0o755);
  cpSync(join(DIST, '..', 'bin'), join(dir, 'bin'), { recursive: true });
  cpSync(DIST, join(dir, 'dist'), { recursive: true });
  cpSync(join(DIST, '..', 'package.json'), join(dir, 'package.json'));
  return { bin: join(dir, 'bin', 'payctl.js'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function run(args: string[], options: { home?: string; uid?: number; stdin?: string; bin?: string } = {}): Promise<{ code: number | null; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.bin ?? BIN, ...args], {
      env: testEnv(options.home ?? home.home),
      stdio: ['pipe', 'ignore', 'pipe'],
      ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid }),
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end(options.stdin ?? '');
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr, ms: Date.now() - started }));
  });
}

describe('concurrent `config set` processes', () => {
  it.each([1, 2, 3])('round %i: five processes at once, every change kept', async (round) => {
    // A config already holding other settings, which must survive too.
    writeFileSync(configFile(), `${JSON.stringify({ current_profile: 'sandbox', profiles: { keep: { base_url: 'https://api.example.com', api_key: 'zpk_live_keep' } } }, null, 2)}\n`);
    const sets = [
      // Different keys of one profile…
      ['config', 'set', 'timeout', String(10 + round)],
      ['config', 'set', 'currency', 'usd'],
      ['config', 'set', 'output', 'csv'],
      // …and different profiles.
      ['config', 'set', 'timeout', String(20 + round), '--profile', `alpha${round}`],
      ['config', 'set', 'seller_id', `seller${round}`, '--profile', `beta${round}`],
    ];
    const results = await Promise.all(sets.map((args) => run(args)));
    for (const [i, result] of results.entries()) expect(result.code, `${sets[i]!.join(' ')}: ${result.stderr}`).toBe(0);
    expect(readConfig()).toEqual({
      current_profile: 'sandbox',
      profiles: {
        keep: { base_url: 'https://api.example.com', api_key: 'zpk_live_keep' },
        sandbox: { timeout: 10 + round, currency: 'USD', output: 'csv' },
        [`alpha${round}`]: { timeout: 20 + round },
        [`beta${round}`]: { seller_id: `seller${round}` },
      },
    });
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);
    // Nothing left behind: no lock, no temporary file.
    expect(readdirSync(home.home).sort()).toEqual(['config.json']);
  }, 30_000);
});

describe('directories', () => {
  it('a 1777 PAYCTL_HOME stays 1777; a directory payctl creates is 0700', async () => {
    chmodSync(home.home, 0o1777);
    const set = await run(['config', 'set', 'timeout', '5']);
    expect(set.code, set.stderr).toBe(0);
    expect(statSync(home.home).mode & 0o7777).toBe(0o1777);
    expect(statSync(configFile()).mode & 0o7777).toBe(0o600);

    const fresh = join(home.home, 'fresh');
    const created = await run(['config', 'set', 'timeout', '5'], { home: fresh });
    expect(created.code, created.stderr).toBe(0);
    expect(statSync(fresh).mode & 0o7777).toBe(0o700);
    expect(statSync(join(fresh, 'config.json')).mode & 0o7777).toBe(0o600);
  });

  it('PAYCTL_HOME under a regular file: one line naming it, exit 2, quickly', async () => {
    writeFileSync(join(home.home, 'plain'), '');
    const impossible = join(home.home, 'plain', 'payctl');
    const result = await run(['config', 'set', 'timeout', '5'], { home: impossible });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`error: config directory ${impossible} cannot be used: ${join(home.home, 'plain')} is not a directory; set PAYCTL_HOME to a writable directory\n`);
    expect(result.ms).toBeLessThan(3_000);
  });

  it('a read-only PAYCTL_HOME: one line naming it, exit 2, quickly, mode unchanged', async () => {
    const root = process.getuid?.() === 0;
    // Root writes anywhere: run payctl as nobody then, in a directory only root may write.
    chmodSync(home.home, 0o755);
    const readOnly = join(home.home, 'ro');
    mkdirSync(readOnly, { mode: 0o555 });
    chmodSync(readOnly, 0o555);
    const cli = root ? cliForAnyUser() : undefined;
    const as = cli ? { uid: 65534, bin: cli.bin } : {};
    try {
      const result = await run(['config', 'set', 'timeout', '5'], { home: readOnly, ...as });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toBe(`error: config directory ${readOnly} is not writable (permission denied); set PAYCTL_HOME to a writable directory\n`);
      expect(result.ms).toBeLessThan(3_000);
      const login = await run(['login', '--profile', 'live', '--base-url', 'https://payctl.invalid', '--api-key-stdin'], { home: readOnly, stdin: 'zpk_live_abcd\n', ...as });
      expect(login.code, login.stderr).toBe(2);
      expect(login.stderr).toMatch(/^error: config directory .* is not writable/);
      // Its state directory cannot be made either: the commands that need it say so, before anything is sent.
      for (const args of [['transactions', 'list'], ['transactions', 'create', '--payment-type', 'pix', '--amount', '1']]) {
        const state = await run(args, { home: readOnly, ...as });
        expect(state.code, state.stderr).toBe(2);
        const sent = args[1] === 'create' ? '\\. Nothing was sent' : '';
        expect(state.stderr).toMatch(new RegExp(`^error: state directory ${readOnly}/state/\\w+ cannot be created \\(mkdir ${readOnly}/state: permission denied\\); set PAYCTL_HOME to a writable directory${sent}\n$`));
        expect(state.ms).toBeLessThan(3_000);
      }
      expect(statSync(readOnly).mode & 0o7777).toBe(0o555);
    } finally {
      cli?.cleanup();
    }
  });
});

describe('start-up', () => {
  // Chunks a command loads whatever it does: dist/main.js, the CLI chunk it imports, and what they import statically.
  function staticClosure(entries: string[]): string {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const [, spec] of text.matchAll(/(?:from|import)\s*"(\.\.?\/[^"]+)"/g)) visit(join(file, '..', spec!));
    };
    for (const entry of entries) visit(entry);
    return [...seen].map((file) => readFileSync(file, 'utf8')).join('\n');
  }

  it('reading the config loads neither conf nor zod up front; `config get` needs neither when there is no file', () => {
    const chunks = join(DIST, 'chunks');
    const named = (prefix: string) => readdirSync(chunks).filter((f) => f.startsWith(prefix)).map((f) => join(chunks, f));
    const loaded = staticClosure([join(DIST, 'main.js'), ...named('cli-'), ...named('config-')]);
    expect(loaded).toContain('current_profile'); // the read path is in there
    expect(loaded).not.toContain('Please specify the `projectName` option'); // conf
    expect(loaded).not.toContain('ZodMiniObject'); // zod/mini
    const get = spawnSync(process.execPath, [BIN, 'config', 'get', 'timeout'], { env: testEnv(home.home), encoding: 'utf8' });
    expect(get.status, get.stderr).toBe(0);
  });
});
