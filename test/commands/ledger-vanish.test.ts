import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freshDatabase, pgUrl, postgresForFile } from '../helpers/postgres.js';
import { tempHome } from '../helpers/run.js';
import { eventually, servedSandboxForBlock, spawnOnMachine, spawnPayctl } from '../helpers/serve.js';
import { createCard, expectError, getTx, run } from './helpers.js';
import type { Transaction } from '../../src/sandbox/types.js';

// A ledger cannot vanish unnoticed: each operator's config directory (outside the state directory)
// records the ledgers it used. A state directory deleted whole, a shared ledger's tables dropped, or
// another database at the same URL stop money moves (exit 2) until `ledger reset --yes`; payctl
// never makes a known shared ledger's tables again on its own. Two "machines": two PAYCTL_HOMEs,
// one in a UTS namespace of its own (hostname caixa-2). Every case checks the sandbox's voids.
const postgres = postgresForFile();
const voids = (tx: Transaction) => tx.history.filter((h) => h.operation_type === 'void' && h.status === 'succeeded').length;
const refundArgs = (id: string) => ['transactions', 'refund', id, '--amount', '1.00', '--yes'];

let machines: Array<{ home: string; cleanup: () => void }> = [];
beforeEach(() => {
  machines = [tempHome(), tempHome()];
});
afterEach(() => {
  for (const machine of machines) machine.cleanup();
});
const [caixa2, here] = [() => machines[0]!.home, () => machines[1]!.home];

/** Runs `statements` on the database at `url` as its owner. */
async function onDatabase<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The ledger's tables in the database at `url`, by name. */
const ledgerTables = (url: string) =>
  onDatabase(url, async (client) => (await client.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE tablename LIKE 'payctl\\_%' ORDER BY 1")).rows.map((r) => r.name));

describe('the state directory deleted after a refund killed while its request was still landing', () => {
  // Every change is dropped unanswered and lands 3 s later: killed, the refund is still queued.
  const served = servedSandboxForBlock('late-apply=1,late-ms=3000');
  const env = () => ({ ...served().env, PAYCTL_SETTLE_WINDOW: '8' });

  it('the rerun stops (exit 2, naming the lost ledger and since when) and sends nothing: one void; after ledger reset --yes, money moves again, once', async () => {
    const [sale, other] = [await createCard(served().home, '10.00'), await createCard(served().home, '10.00')];
    const killed = spawnPayctl([...refundArgs(sale.id), '--timeout', '1'], here(), env());
    await eventually(() => killed.stderr().includes('may or may not have been applied'), 10_000, 'the dropped refund');
    killed.child.kill('SIGKILL');
    await killed.exited;
    rmSync(join(here(), 'state'), { recursive: true, force: true });

    const rerun = await run(here(), refundArgs(sale.id), { env: env() });
    const ledger = join(here(), 'state', 'ledger', 'ledger.sqlite');
    expectError(rerun, 2, `the ledger ${ledger} is missing, but payctl has kept its money moves there since `, 'nothing was sent', "'payctl ledger reset --yes'");
    // Reads work meanwhile.
    expect((await run(here(), ['transactions', 'get', sale.id], { env: env() })).code).toBe(0);
    await eventually(async () => voids(await getTx(served().home, sale.id)) === 1, 10_000, 'the queued refund to land');

    const reset = await run(here(), ['ledger', 'reset', '--yes'], { env: env() });
    expect(reset.code, reset.stderr).toBe(0);
    // The refund that landed is in its sale's history: the rerun does not send it again.
    expectError(await run(here(), refundArgs(sale.id), { env: env() }), 11, "(in the sale's history, not in payctl's ledger)");
    const fresh = spawnPayctl([...refundArgs(other.id), '--timeout', '5'], here(), env());
    expect(await fresh.exited, fresh.stderr()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect([voids(await getTx(served().home, sale.id)), voids(await getTx(served().home, other.id))]).toEqual([1, 1]);
  }, 60_000);

  it('the embedded sandbox is not blocked: its sales went with the state directory, so a fresh one starts with a fresh ledger', async () => {
    const first = await createCard(here(), '10.00');
    expect((await run(here(), refundArgs(first.id))).code).toBe(0);
    rmSync(join(here(), 'state'), { recursive: true, force: true });
    const sale = await createCard(here(), '10.00');
    const refund = await run(here(), refundArgs(sale.id));
    expect(refund.code, refund.stderr).toBe(0);
    expect(voids(await getTx(here(), sale.id))).toBe(1);
  });
});

describe('a shared ledger on PostgreSQL that vanishes', () => {
  const served = servedSandboxForBlock();
  let ledger: string;
  beforeEach(async () => {
    ledger = await freshDatabase(postgres());
  });
  const env = () => ({ ...served().env, PAYCTL_LEDGER_URL: ledger });
  /** A refund on both machines, so that each has used the ledger. */
  const useOnBoth = async () => {
    const [a, b] = [await createCard(served().home, '10.00'), await createCard(served().home, '10.00')];
    const there = spawnOnMachine('caixa-2', refundArgs(a.id), caixa2(), env());
    expect(await there.exited, there.stderr()).toBe(0);
    expect((await run(here(), refundArgs(b.id), { env: env() })).code).toBe(0);
  };

  it('tables dropped: money moves stop on both machines (exit 2), and the tables are not made again; reads work; ledger reset --yes makes them, and each machine accepts it', async () => {
    await useOnBoth();
    const tables = await ledgerTables(ledger);
    expect(tables).toContain('payctl_intents');
    await onDatabase(ledger, (client) => client.query(tables.map((t) => `DROP TABLE ${t}`).join('; ')));

    const sale = await createCard(served().home, '10.00');
    const there = spawnOnMachine('caixa-2', refundArgs(sale.id), caixa2(), env());
    const stopped = await run(here(), refundArgs(sale.id), { env: env() });
    expect(await there.exited).toBe(2);
    for (const stderr of [there.stderr(), stopped.stderr]) {
      expect(stderr).toMatch(/^error: the ledger postgres:\/\/payctl@127\.0\.0\.1:\d+\/test_\w+ has no tables payctl_schema, payctl_intents, .* \(dropped, or another database at this address; payctl never makes them again on its own\), but payctl has kept its money moves there since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC; nothing was sent\. .*'payctl ledger reset --yes'/);
    }
    expect(stopped.code).toBe(2);
    expect(await ledgerTables(ledger)).toEqual([]);
    expect(voids(await getTx(served().home, sale.id))).toBe(0);
    // Reads: the sale, and the ledger's own list (nothing there now, after a warning).
    expect((await run(here(), ['transactions', 'get', sale.id], { env: env() })).code).toBe(0);
    const listed = await run(here(), ['ledger', 'list', '-o', 'json'], { env: env() });
    expect([listed.code, JSON.parse(listed.stdout)]).toEqual([0, []]);
    expect(listed.stderr).toMatch(/^warning: the ledger postgres:\/\/\S+ has no tables .*: money moves stop until it is restored or 'payctl ledger reset --yes'; showing what is there now/);
    expect(await ledgerTables(ledger)).toEqual([]);

    const reset = await run(here(), ['ledger', 'reset', '--yes'], { env: env() });
    expect(reset.code, reset.stderr).toBe(0);
    expect(await ledgerTables(ledger)).toContain('payctl_intents');
    const refund = await run(here(), refundArgs(sale.id), { env: env() });
    expect(refund.code, refund.stderr).toBe(0);
    // The other machine knew the old one: it stops until its operator accepts the new one too.
    const other = await createCard(served().home, '10.00');
    const still = spawnOnMachine('caixa-2', refundArgs(other.id), caixa2(), env());
    expect(await still.exited).toBe(2);
    expect(still.stderr()).toContain('is not the ledger payctl kept its moves in (it was made anew, or replaced)');
    const accepted = spawnOnMachine('caixa-2', ['ledger', 'reset', '--yes'], caixa2(), env());
    expect(await accepted.exited, accepted.stderr()).toBe(0);
    const after = spawnOnMachine('caixa-2', refundArgs(other.id), caixa2(), env());
    expect(await after.exited, after.stderr()).toBe(0);
    expect([voids(await getTx(served().home, sale.id)), voids(await getTx(served().home, other.id))]).toEqual([1, 1]);
  }, 60_000);

  it('emptied (its moves truncated, or payctl_meta) or another database at the same URL: exit 2, nothing sent', async () => {
    await useOnBoth();
    const sale = await createCard(served().home, '10.00');
    await onDatabase(ledger, (client) => client.query('TRUNCATE payctl_intents, payctl_locks'));
    const there = spawnOnMachine('caixa-2', refundArgs(sale.id), caixa2(), env());
    expect(await there.exited).toBe(2);
    expect(there.stderr()).toMatch(/was emptied \(the newest money move payctl recorded there, #\d+, is gone\), but payctl has kept its money moves there since/);
    await onDatabase(ledger, (client) => client.query('TRUNCATE payctl_meta'));
    expectError(await run(here(), refundArgs(sale.id), { env: env() }), 2, 'was emptied (its identity in payctl_meta is gone), but payctl has kept its money moves there since');

    // The database dropped and made again under the same name, then used first by a new operator.
    const name = new URL(ledger).pathname.slice(1);
    await onDatabase(pgUrl(postgres().port, 'postgres'), async (client) => {
      await client.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${name}`);
    });
    const newcomer = tempHome();
    try {
      const first = await createCard(served().home, '10.00');
      expect((await run(newcomer.home, refundArgs(first.id), { env: env() })).code).toBe(0);
    } finally {
      newcomer.cleanup();
    }
    expectError(await run(here(), refundArgs(sale.id), { env: env() }), 2, 'is not the ledger payctl kept its moves in (it was made anew, or replaced)', 'nothing was sent');
    expect(voids(await getTx(served().home, sale.id))).toBe(0);
  }, 60_000);

  it('a database that refuses writes says why in words, and that nothing was sent (exit 2)', async () => {
    await useOnBoth();
    const name = new URL(ledger).pathname.slice(1);
    await onDatabase(ledger, (client) => client.query(`ALTER DATABASE ${name} SET default_transaction_read_only = on`));
    const sale = await createCard(served().home, '10.00');
    const refused = await run(here(), refundArgs(sale.id), { env: env() });
    expectError(refused, 2, `the ledger postgres://payctl@127.0.0.1:${postgres().port}/${name} cannot be used (it is read-only: a read-only database, or a standby)`, 'was not sent');
    expect(voids(await getTx(served().home, sale.id))).toBe(0);
  }, 30_000);
});

describe('a shared ledger emptied under a running batch', () => {
  // Every request takes 30 ms: the batch is still running when its ledger's moves are truncated.
  const served = servedSandboxForBlock('slow=1,slow-ms=30');

  it('the batch does not end with exit 0: it says the ledger was emptied while it ran (exit 2); each sale refunded once', async () => {
    const ledger = await freshDatabase(postgres());
    const env = { ...served().env, PAYCTL_LEDGER_URL: ledger, PAYCTL_SETTLE_WINDOW: '3' };
    const sales = await Promise.all(Array.from({ length: 60 }, () => createCard(served().home, '10.00')));
    const file = join(here(), 'refunds.csv');
    writeFileSync(file, `id,amount\n${sales.map((s) => `${s.id},1.00`).join('\n')}\n`);
    const batch = spawnPayctl(['transactions', 'refund', '--file', file, '--yes'], here(), env);
    await eventually(() => batch.stdout().split('\n').length > 10, 20_000, 'ten rows refunded');
    await onDatabase(ledger, (client) => client.query('TRUNCATE payctl_intents'));
    expect(await batch.exited, batch.stderr()).toBe(2);
    expect(batch.stderr().trimEnd().split('\n').at(-1)).toMatch(/^error: the ledger postgres:\/\/\S+ was emptied while this batch ran, but payctl has kept its money moves there since .*; \d+ refunded \(see the result lines\), and the record of them went with it\./);
    for (const sale of sales) expect(voids(await getTx(served().home, sale.id))).toBe(1);
  }, 60_000);
});
