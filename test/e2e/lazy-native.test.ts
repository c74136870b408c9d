import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/serve.js';
import { tempHome, testEnv } from '../helpers/run.js';

// The native SQLite binding (the ledger, on Node.js without node:sqlite) is loaded by the commands that use it, never
// by --version, --help or a read. NODE_DEBUG=module makes Node name every CommonJS module it loads.
function modulesLoadedBy(args: string[]): string {
  const { home, cleanup } = tempHome();
  try {
    const run = spawnSync(process.execPath, [BIN, ...args], {
      env: testEnv(home, { NODE_DEBUG: 'module', PAYCTL_BASE_URL: 'http://127.0.0.1:9', PAYCTL_API_KEY: 'zpk_test_lazy', PAYCTL_MARKETPLACE_ID: '' }),
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
  });

  it('a refund opens the ledger before anything is sent: with better-sqlite3 only where Node.js has no SQLite of its own', async () => {
    const { openSqlite } = await import('../../src/ledger/sqlite.js');
    const probe = await openSqlite(':memory:');
    probe.close();
    const trace = modulesLoadedBy(['transactions', 'refund', 'a'.repeat(32), '--yes', '--timeout', '1']);
    expect(trace).toContain('MODULE');
    // Node.js 24 would abort at exit with better-sqlite3 12 loaded: there it must not be.
    if (probe.driver === 'better-sqlite3') expect(trace).toContain('better-sqlite3');
    else expect(trace).not.toContain('better-sqlite3');
  });
});
