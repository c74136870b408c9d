import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { createCard, expectError, getTx, run } from '../commands/helpers.js';

// The shared ledger's URL carries a password: `config set ledger_url` keeps it like an API key, in
// the OS keyring with a masked copy and a reference in config.json, or in config.json itself only
// with --insecure-storage. No keyring is reachable here (the Secret Service is tried over a session
// bus that does not exist), as on a server; test/e2e/keyring.test.ts has a real one.
const URL_WITH_PASSWORD = 'postgres://payctl:s3cret-pw@db.internal:5432/payctl';
const MASKED = 'postgres://payctl:****@db.internal:5432/payctl';
const readConfig = (home: string) => JSON.parse(readFileSync(join(home, 'config.json'), 'utf8'));

describe('config set ledger_url', () => {
  it('with a password and no keyring: refused, nothing saved, saying how (--insecure-storage, or PAYCTL_LEDGER_URL)', async ({ home, env }) => {
    env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${join(home, 'no-bus')}`;
    const result = await run(home, ['config', 'set', 'ledger_url', URL_WITH_PASSWORD]);
    const line = expectError(result, 2, 'no OS keyring is reachable', 'to keep the ledger URL (with its password) in; run again with --insecure-storage to save it in', 'or set PAYCTL_LEDGER_URL instead');
    expect(line).not.toContain('s3cret');
    expect(() => readConfig(home)).toThrow(/ENOENT/);
  });

  it('--insecure-storage: the file holds it (0600); config get, list and whoami show it masked', async ({ home }) => {
    const set = await run(home, ['config', 'set', 'ledger_url', URL_WITH_PASSWORD, '--insecure-storage']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).toBe(`Set ledger_url = ${MASKED} in profile "sandbox"; its password is in ${join(home, 'config.json')} (plain text, mode 0600)\n`);
    expect(readConfig(home).profiles.sandbox).toEqual({ ledger_url: URL_WITH_PASSWORD });
    const get = await run(home, ['config', 'get', 'ledger_url']);
    expect([get.code, get.stdout]).toEqual([0, `${MASKED}\n`]);
    const list = await run(home, ['config', 'list', '-o', 'json']);
    expect(JSON.parse(list.stdout)).toMatchObject({ profile: 'sandbox', ledger_url: MASKED });
    const who = await run(home, ['whoami', '-o', 'json']);
    expect(JSON.parse(who.stdout)).toMatchObject({ ledger: MASKED });
    for (const out of [set, get, list, who]) expect(out.stdout + out.stderr).not.toContain('s3cret');
    // Unset, it is gone from the file.
    expect((await run(home, ['config', 'unset', 'ledger_url'])).stderr).toBe('Unset ledger_url in profile "sandbox"\n');
    expect(readConfig(home).profiles.sandbox).toEqual({});
  });

  it('a URL without a password is only an address: saved as given, no keyring needed', async ({ home, env }) => {
    env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${join(home, 'no-bus')}`;
    const set = await run(home, ['config', 'set', 'ledger_url', 'postgres://payctl@db.internal:5432/payctl']);
    expect([set.code, set.stderr]).toEqual([0, 'Set ledger_url = postgres://payctl@db.internal:5432/payctl in profile "sandbox"\n']);
    expect(readConfig(home).profiles.sandbox).toEqual({ ledger_url: 'postgres://payctl@db.internal:5432/payctl' });
  });

  it('a URL kept in a keyring that cannot be reached now: money moves stop (exit 2, nothing sent); reads work; PAYCTL_LEDGER_URL is used as given', async ({ home, env }) => {
    env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${join(home, 'no-bus')}`;
    const sale = await createCard(home, '10.00');
    writeFileSync(join(home, 'config.json'), JSON.stringify({ profiles: { sandbox: { ledger_url: 'postgres://payctl:****@127.0.0.1:1/payctl', ledger_url_ref: 'keyring' } } }));
    const refund = await run(home, ['transactions', 'refund', sale.id, '--amount', '1.00', '--yes']);
    expectError(refund, 2, 'the ledger URL of profile "sandbox" is in the OS keyring, but no keyring is reachable', 'set PAYCTL_LEDGER_URL', 'nothing was sent');
    expect((await getTx(home, sale.id)).amount).toBe('10.00');
    expect(JSON.parse((await run(home, ['config', 'list', '-o', 'json'])).stdout)).toMatchObject({ ledger_url: 'postgres://payctl:****@127.0.0.1:1/payctl' });
    // From the environment, the URL is what it says: here, a database that does not answer (exit 8), never the keyring's.
    const fromEnv = await run(home, ['transactions', 'refund', sale.id, '--amount', '1.00', '--yes'], { env: { PAYCTL_LEDGER_URL: 'postgres://other:pw@127.0.0.1:1/elsewhere' } });
    expectError(fromEnv, 8, 'the ledger postgres://other:****@127.0.0.1:1/elsewhere cannot be reached');
  });
});
