import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/serve.js';
import { tempHome, testEnv } from '../helpers/run.js';

// The native SQLite binding (the ledger, on Node.js without node:sqlite) is loaded by the commands that use it, never
// by --version, --help or a read. NODE_DEBUG=module makes Node name every CommonJS module it loads.
function modulesLoadedBy(args: string[], config?: object, env: Record<string, string | undefined> = { PAYCTL_BASE_URL: 'http://127.0.0.1:9', PAYCTL_API_KEY: 'zpk_test_lazy', PAYCTL_MARKETPLACE_ID: '' }): string {
  const { home, cleanup } = tempHome();
  try {
    if (config) writeFileSync(join(home, 'config.json'), JSON.stringify(config), { mode: 0o600 });
    const run = spawnSync(process.execPath, [BIN, ...args], {
      env: testEnv(home, { NODE_DEBUG: 'module', ...env }),
      encoding: 'utf8',
      timeout: 20_000,
    });
    return run.stderr;
  } finally {
    cleanup();
  }
}

describe('start-up loads no native module', () => {
  it.each([['--version'], ['--help'], ['transactions', '--help'], ['transactions', 'refund', '--help']])('payctl %s', (...args) => {
    const trace = modulesLoadedBy(args);
    expect(trace).toContain('MODULE'); // the trace is on: the check below can see a load
    expect(trace).not.toContain('better-sqlite3');
    expect(trace).not.toContain('better_sqlite3.node');
    expect(trace).not.toContain('@napi-rs/keyring');
  });

  it('a refund opens the ledger before anything is sent: with better-sqlite3 only where Node.js has no SQLite of its own', async () => {
    const { openSqlite } = await import('../../src/platform/sqlite.js');
    const probe = await openSqlite(':memory:');
    probe.close();
    const trace = modulesLoadedBy(['transactions', 'refund', 'a'.repeat(32), '--yes', '--timeout', '1']);
    expect(trace).toContain('MODULE');
    // Node.js 24 would abort at exit with better-sqlite3 12 loaded: there it must not be.
    if (probe.driver === 'better-sqlite3') expect(trace).toContain('better-sqlite3');
    else expect(trace).not.toContain('better-sqlite3');
  });

  // The OS keyring's binding: only for a profile whose key is there, and only when the key is needed.
  describe('the keyring binding', () => {
    const inKeyring = { current_profile: 'live', profiles: { live: { base_url: 'http://127.0.0.1:9', api_key_ref: 'keyring' } } };
    // No session bus: the read fails, but only after the binding was loaded to try it.
    const noBus = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/payctl-test-bus' };

    it.each([['--help'], ['login', '--help'], ['whoami', '--help'], ['profiles', 'list'], ['config', 'get', 'base_url']])('not for payctl %s, with the key in the keyring', (...args) => {
      const trace = modulesLoadedBy(args, inKeyring, noBus);
      expect(trace).toContain('MODULE');
      expect(trace).not.toContain('@napi-rs/keyring');
    });

    it('not for a profile whose key is in the file or the environment', () => {
      const trace = modulesLoadedBy(['whoami'], { current_profile: 'live', profiles: { live: { base_url: 'http://127.0.0.1:9', api_key: 'zpk_test_file' } } }, noBus);
      expect(trace).toContain('MODULE');
      expect(trace).not.toContain('@napi-rs/keyring');
      expect(modulesLoadedBy(['whoami'], inKeyring, { ...noBus, PAYCTL_API_KEY: 'zpk_test_env' })).not.toContain('@napi-rs/keyring');
    });

    it.skipIf(process.platform !== 'linux')('loaded when a command needs the key from the keyring', () => {
      expect(modulesLoadedBy(['whoami'], inKeyring, noBus)).toContain('@napi-rs/keyring');
    });
  });
});
