import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { currentOwner } from '../../src/platform/owner.js';
import { addRule } from '../helpers/policy.js';
import { freshDatabase, postgresForFile } from '../helpers/postgres.js';
import { ledgerList } from '../helpers/printed.js';
import { tempHome } from '../helpers/run.js';
import { eventually, servedSandboxForBlock, spawnOnMachine, spawnPayctl } from '../helpers/serve.js';
import { createCard, expectError, getTx, run } from './helpers.js';
import type { Transaction } from '../../src/sandbox/types.js';

// A team's exactly-once: two "machines" (two PAYCTL_HOMEs, one of them in a UTS namespace of its
// own with the hostname caixa-2, so it cannot ask about the other's processes) share one ledger
// on a real PostgreSQL server, started for this file as an unprivileged user. Every case checks
// the sandbox's final state: each sale refunded exactly once.
const postgres = postgresForFile();
const voids = (tx: Transaction) => tx.history.filter((h) => h.operation_type === 'void' && h.status === 'succeeded').length;
const lines = (stdout: string) => stdout.trimEnd().split('\n').filter(Boolean).map((l) => JSON.parse(l));
const user = currentOwner().holder.split('@')[0] as string;

let machines: Array<{ home: string; cleanup: () => void }> = [];
let ledger: string;
beforeEach(async () => {
  machines = [tempHome(), tempHome()];
  ledger = await freshDatabase(postgres());
});
afterEach(() => {
  for (const machine of machines) machine.cleanup();
});
const [caixa2, here] = [() => machines[0]!.home, () => machines[1]!.home];

describe('two machines, one ledger', () => {
  // Every request takes 60 ms: a run of 40 rows lasts long enough for the other to overlap it.
  const served = servedSandboxForBlock('slow=1,slow-ms=60');
  const env = () => ({ ...served().env, PAYCTL_LEDGER_URL: ledger, PAYCTL_SETTLE_WINDOW: '5' });

  it('the same file run on both at once: each sale refunded once, each row by one machine', async () => {
    const sales = await Promise.all(Array.from({ length: 40 }, () => createCard(served().home, '10.00')));
    const csv = `id,amount\n${sales.map((s) => `${s.id},2.50`).join('\n')}\n`;
    const files = machines.map((m) => {
      const file = join(m.home, 'refunds-nov.csv');
      writeFileSync(file, csv);
      return file;
    });
    // One refund at a time on each (about 5 s for the file): they overlap for most of it.
    const a = spawnOnMachine('caixa-2', ['transactions', 'refund', '--file', files[0]!, '--yes', '--concurrency', '1'], caixa2(), env());
    await eventually(() => a.stdout().includes('\n'), 15_000, 'the first machine to refund a row');
    const b = spawnPayctl(['transactions', 'refund', '--file', files[1]!, '--yes', '--concurrency', '1'], here(), env());
    expect(await Promise.all([a.exited, b.exited]), a.stderr() + b.stderr()).toEqual([0, 0]);
    const byRow = new Map<number, string[]>();
    for (const l of [...lines(a.stdout()), ...lines(b.stdout())]) byRow.set(l.row, [...(byRow.get(l.row) ?? []), l.status]);
    expect([...byRow.values()].map((s) => s.sort().join())).toEqual(Array(40).fill('refunded,skipped'));
    // Both did part of the work.
    expect(lines(a.stdout()).filter((l) => l.status === 'refunded').length).toBeGreaterThan(0);
    expect(lines(b.stdout()).filter((l) => l.status === 'refunded').length).toBeGreaterThan(0);
    // What the second saw of the first: refunded by payctl, on caixa-2.
    expect(lines(b.stdout()).some((l) => l.status === 'skipped' && l.reason.includes(`(${user}@caixa-2, batch refunds-nov.csv)`))).toBe(true);
    for (const sale of sales) {
      const tx = await getTx(served().home, sale.id);
      expect([tx.amount, voids(tx)]).toEqual(['7.50', 1]);
    }
    // The ledger says who did what, from either machine.
    const listed = await run(here(), ['ledger', 'list', '--limit', '100', '-o', 'json'], { env: env() });
    const holders = new Set(z.parse(ledgerList, JSON.parse(listed.stdout)).map((i) => i.holder));
    expect(holders).toEqual(new Set([`${user}@caixa-2`, currentOwner().holder]));
  }, 90_000);

  it('the same refund on both at once: one refunds; the other stops (in flight) or finds it done; refunded once', async () => {
    const sale = await createCard(served().home, '10.00');
    const args = ['transactions', 'refund', sale.id, '--amount', '3.00', '--yes'];
    const a = spawnOnMachine('caixa-2', args, caixa2(), env());
    const b = spawnPayctl(args, here(), env());
    const codes = await Promise.all([a.exited, b.exited]);
    expect(codes.slice().sort(), a.stderr() + b.stderr()).toSatisfy((sorted: number[]) => sorted.join() === '0,8' || sorted.join() === '0,11');
    const loser = codes[0] === 0 ? b : a;
    const winner = codes[0] === 0 ? 'caixa-2' : currentOwner().holder.split('@')[1];
    expect(loser.stderr()).toMatch(
      new RegExp(
        `^error: (the refund of transaction ${sale.id} is already in flight in another payctl process \\(${user}@${winner}, pid \\d+, since .*; nothing was sent\\.|probable duplicate: transaction ${sale.id} was already refunded R\\$ 3,00 by payctl on \\d{4}-\\d\\d-\\d\\d at \\d\\d:\\d\\d:\\d\\d \\S+ \\(${user}@${winner}\\); nothing was sent\\.)`,
        'm',
      ),
    );
    const tx = await getTx(served().home, sale.id);
    expect([tx.amount, voids(tx)]).toEqual(['7.00', 1]);
  }, 30_000);
});

describe('a machine that dies with its requests in a queue', () => {
  // Half the changes get no answer and land 1.5 s later.
  const served = servedSandboxForBlock('late-apply=0.5,late-ms=1500');
  const env = () => ({ ...served().env, PAYCTL_LEDGER_URL: ledger, PAYCTL_SETTLE_WINDOW: '3' });

  it('killed mid-batch: the other machine waits out its leases, settles what it left in flight, and finishes the file once', async () => {
    const sales = await Promise.all(Array.from({ length: 30 }, () => createCard(served().home, '10.00')));
    const csv = `id,amount\n${sales.map((s) => `${s.id},1.00`).join('\n')}\n`;
    const file = (home: string) => {
      writeFileSync(join(home, 'refunds.csv'), csv);
      return join(home, 'refunds.csv');
    };
    const args = (home: string) => ['transactions', 'refund', '--file', file(home), '--yes', '--timeout', '0.5'];
    const dying = spawnOnMachine('caixa-2', args(caixa2()), caixa2(), env());
    await eventually(() => lines(dying.stdout()).length >= 5, 20_000, 'the first machine to settle five rows');
    dying.child.kill('SIGKILL');
    await dying.exited;

    const started = Date.now();
    const other = await run(here(), args(here()), { env: env() });
    expect(other.code, other.stderr).toBe(0);
    const results = lines(other.stdout);
    expect(results).toHaveLength(30);
    expect(results.every((l) => l.status === 'refunded' || (l.status === 'skipped' && l.reason.includes(`${user}@caixa-2`)))).toBe(true);
    // It could not ask caixa-2 whether its process lived: it waited for the leases to run out.
    expect(Date.now() - started).toBeLessThan(60_000);
    await new Promise((resolve) => setTimeout(resolve, 2000)); // anything still queued lands
    for (const sale of sales) expect(voids(await getTx(served().home, sale.id))).toBe(1);
  }, 90_000);
});

describe('the shared ledger goes away', () => {
  const served = servedSandboxForBlock('slow=1,slow-ms=50');
  const env = () => ({ ...served().env, PAYCTL_LEDGER_URL: ledger, PAYCTL_SETTLE_WINDOW: '3' });

  it('PostgreSQL stopped mid-batch: the batch stops, exit 8 naming the ledger; started again, the rerun refunds each row once', async () => {
    const sales = await Promise.all(Array.from({ length: 60 }, () => createCard(served().home, '10.00')));
    const file = join(here(), 'refunds.csv');
    writeFileSync(file, `id,amount\n${sales.map((s) => `${s.id},1.00`).join('\n')}\n`);
    const args = ['transactions', 'refund', '--file', file, '--yes'];
    const batch = spawnPayctl(args, here(), env());
    await eventually(() => lines(batch.stdout()).length >= 10, 20_000, 'ten rows refunded');
    await postgres().stop();
    try {
      expect(await batch.exited).toBe(8);
      const last = batch.stderr().trimEnd().split('\n').at(-1) as string;
      expect(last).toMatch(/^error: the batch stopped: the ledger postgres:\/\/payctl@127\.0\.0\.1:\d+\/test_\w+ cannot be reached \(.*\); no money moves without it\. .* refunded; rows not finished are checked first by the next run$/);
    } finally {
      await postgres().start();
    }
    const rerun = await run(here(), args, { env: env() });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(lines(rerun.stdout).every((l) => l.status === 'refunded' || l.status === 'skipped')).toBe(true);
    for (const sale of sales) {
      const tx = await getTx(served().home, sale.id);
      expect([tx.amount, voids(tx)]).toEqual(['9.00', 1]);
    }
  }, 90_000);

  it('a ledger that cannot be reached: no money moves (exit 8, one line naming it, password masked); reads still work', async () => {
    const sale = await createCard(served().home, '10.00');
    const unreachable = { ...served().env, PAYCTL_LEDGER_URL: 'postgres://payctl:s3cret@127.0.0.1:1/payctl' };
    const result = await run(here(), ['transactions', 'refund', sale.id, '--amount', '1.00', '--yes'], { env: unreachable });
    const line = expectError(result, 8, 'the ledger postgres://payctl:****@127.0.0.1:1/payctl cannot be reached', 'no money moves without it');
    expect(result.stderr).toBe(`${line}\n`);
    expect(result.stderr).not.toContain('s3cret');
    expect((await getTx(served().home, sale.id)).amount).toBe('10.00');
    const read = await run(here(), ['transactions', 'get', sale.id], { env: unreachable });
    expect(read.code, read.stderr).toBe(0);
    const who = await run(here(), ['whoami'], { env: unreachable });
    expect(JSON.parse(who.stdout)).toMatchObject({ ledger: 'postgres://payctl:****@127.0.0.1:1/payctl', settle_window: 120 });
    expect(who.stdout).not.toContain('s3cret');
  });
});

describe("a dead machine's lock", () => {
  // Each request waits 2.5 s before it is served: a refund is in flight long enough to kill its machine.
  const served = servedSandboxForBlock('slow=1,slow-ms=2500');
  const env = () => ({ ...served().env, PAYCTL_LEDGER_URL: ledger, PAYCTL_SETTLE_WINDOW: '8' });

  it('names its holder and lease; unlocked by hand, the next run settles the dead one\'s move before sending', async () => {
    const sale = await createCard(served().home, '10.00');
    const args = ['transactions', 'refund', sale.id, '--amount', '3.00', '--yes'];
    const dying = spawnOnMachine('caixa-2', args, caixa2(), env());
    // Its lookup (2.5 s), then its refund is sent: killed while the refund is still being served.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    dying.child.kill('SIGKILL');
    await dying.exited;
    const blocked = await run(here(), args, { env: env() });
    expectError(blocked, 8, `already in flight in another payctl process (${user}@caixa-2, pid ${dying.child.pid}, since`, 'Its lock is a lease until', `'payctl ledger unlock transaction:${sale.id} --force'`);
    const unlocked = await run(here(), ['ledger', 'unlock', `transaction:${sale.id}`, '--force'], { env: env() });
    expect(unlocked.code, unlocked.stderr).toBe(0);
    expect(unlocked.stderr).toMatch(new RegExp(`^Unlocked transaction:${sale.id}, held by ${user}@caixa-2, pid ${dying.child.pid}, since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC, lease until \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC\\.`));
    const rerun = await run(here(), args, { env: env() });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(`${user}@caixa-2, pid ${dying.child.pid}) left the refund of transaction ${sale.id} unresolved`);
    expect(rerun.stderr).toContain('Already done');
    const tx = await getTx(served().home, sale.id);
    expect([tx.amount, voids(tx)]).toEqual(['7.00', 1]);
  }, 60_000);
});

// A daily limit for the whole team: each move is counted and recorded under the limit's lock in
// the shared ledger, so what both machines send together never passes it.
describe("a team's daily limit, two machines at once", () => {
  // Every request takes 40 ms: the two runs overlap for most of their rows.
  const served = servedSandboxForBlock('slow=1,slow-ms=40');
  const env = () => ({ ...served().env, PAYCTL_LEDGER_URL: ledger });

  it('the total sent never passes it: R$ 100,00 a day, 2 × 10 refunds of R$ 15,00 → 6 sent in all, the rest refused naming the rule', async () => {
    const sales = await Promise.all(Array.from({ length: 20 }, () => createCard(served().home, '15.00')));
    const rule = await addRule(here(), { kind: 'daily_limit', amount_cents: 10_000, per: 'team' }, env());
    const files = machines.map((m, i) => {
      const file = join(m.home, 'refunds.csv');
      writeFileSync(file, `id,amount\n${sales.slice(i * 10, i * 10 + 10).map((s) => `${s.id},15.00`).join('\n')}\n`);
      return file;
    });
    const args = (file: string) => ['transactions', 'refund', '--file', file, '--yes', '--concurrency', '4'];
    const a = spawnOnMachine('caixa-2', args(files[0]!), caixa2(), env());
    const b = spawnPayctl(args(files[1]!), here(), env());
    const codes = await Promise.all([a.exited, b.exited]);
    expect(codes, a.stderr() + b.stderr()).toEqual([10, 10]);
    const rows = [...lines(a.stdout()), ...lines(b.stdout())];
    expect(rows.filter((r) => r.status === 'refunded')).toHaveLength(6);
    const refused = rows.filter((r) => r.status === 'failed');
    expect(refused).toHaveLength(14);
    for (const row of refused) expect(row.error).toContain(`would pass the team's daily limit (rule ${rule}: refunds by anyone: at most R$ 100,00 a day for the whole team); R$ 10,00 is left today`);
    const sent = await Promise.all(sales.map(async (s) => voids(await getTx(served().home, s.id))));
    expect(sent.reduce((a, b) => a + b, 0)).toBe(6);
  }, 90_000);
});
