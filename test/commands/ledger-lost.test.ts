import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { BIN, eventually, servedSandboxForBlock, spawnPayctl } from '../helpers/serve.js';
import { createCard, expectError, getTx, run } from './helpers.js';
import type { Transaction } from '../../src/sandbox/types.js';

// The ledger is what stops a rerun from moving money twice: one that is deleted, emptied, damaged
// or made anew stops money moves (exit 2, naming it and the choices) until it is restored or reset,
// and a disk that fills up under it is one line naming it. Reads keep working throughout.
const voids = (tx: Transaction) => tx.history.filter((h) => h.operation_type === 'void' && h.status === 'succeeded').length;
const ledgerFile = (home: string) => join(home, 'state', 'ledger', 'ledger.sqlite');
const removeLedger = (home: string) => {
  for (const file of readdirSync(join(home, 'state', 'ledger'))) rmSync(join(home, 'state', 'ledger', file));
};
const refund = (home: string, id: string, extra: string[] = []) => run(home, ['transactions', 'refund', id, '--amount', '1.00', '--yes', ...extra]);

describe('a lost ledger stops money moves until someone decides', () => {
  it.for<[string, (home: string) => void, string]>([
    ['deleted', removeLedger, 'is missing'],
    ['emptied', (home) => truncateSync(ledgerFile(home), 0), 'is empty'],
    ['overwritten with something else', (home) => (removeLedger(home), writeFileSync(ledgerFile(home), 'not a ledger at all, just text')), 'cannot be read (it is not a database)'],
  ])('%s: exit 2 naming it and the choices, nothing sent; reads work; reset --yes starts anew', async ([_name, lose, what], { home }) => {
    const [a, b] = [await createCard(home, '10.00'), await createCard(home, '10.00')];
    expect((await refund(home, a.id)).code).toBe(0);
    lose(home);
    const stopped = await refund(home, b.id);
    const line = expectError(stopped, 2, `the ledger ${ledgerFile(home)} ${what}, but payctl has kept its money moves there since`, 'nothing was sent', "run 'payctl ledger reset --yes' to start a new one", 'Reads still work');
    expect(stopped.stderr).toBe(`${line}\n`);
    expect((await getTx(home, b.id)).amount).toBe('10.00');
    expect((await run(home, ['transactions', 'get', b.id])).code).toBe(0);
    // The ledger's own reads say it is lost, then show what is there now.
    const listed = await run(home, ['ledger', 'list', '-o', 'json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stderr).toContain(`warning: the ledger ${ledgerFile(home)} ${what} (payctl has kept its money moves there since`);
    expect(JSON.parse(listed.stdout)).toEqual([]);
    expectError(await run(home, ['ledger', 'show', a.id]), 2, "there is no ledger to show a money move from; 'payctl ledger reset --yes' starts a new one");
    // Reset needs --yes; then money moves again, and what the lost ledger knew still shows in the sale's history.
    expectError(await run(home, ['ledger', 'reset']), 2, '--yes required to reset the ledger');
    const reset = await run(home, ['ledger', 'reset', '--yes']);
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stderr).toContain(`Started a new ledger at ${ledgerFile(home)}`);
    expect((await refund(home, b.id)).code).toBe(0);
    expectError(await refund(home, a.id), 11, "(in the sale's history, not in payctl's ledger)");
    expect([voids(await getTx(home, a.id)), voids(await getTx(home, b.id))]).toEqual([1, 1]);
  });

  it('a damaged file is moved aside by the reset, not deleted; ledger check says whether one is sound', async ({ home }) => {
    const sale = await createCard(home, '10.00');
    expect((await refund(home, sale.id)).code).toBe(0);
    const check = await run(home, ['ledger', 'check']);
    expect(check.code, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ ledger: ledgerFile(home), kind: 'sqlite', integrity: 'ok', open_outcomes: 0, locks: 0 });
    removeLedger(home);
    writeFileSync(ledgerFile(home), 'garbage');
    const lostCheck = await run(home, ['ledger', 'check']);
    expect(lostCheck.code).toBe(2);
    expect(JSON.parse(lostCheck.stdout)).toMatchObject({ ledger: ledgerFile(home), integrity: 'lost', lost: expect.stringMatching(/^cannot be read \(it is not a database\); known since /) });
    expect(lostCheck.stderr).toContain('cannot be read (it is not a database)');
    const reset = await run(home, ['ledger', 'reset', '--yes']);
    expect(reset.code, reset.stderr).toBe(0);
    const kept = readdirSync(join(home, 'state', 'ledger')).find((f) => f.startsWith('ledger.sqlite.damaged-')) as string;
    expect(readFileSync(join(home, 'state', 'ledger', kept), 'utf8')).toBe('garbage');
    expect(reset.stderr).toContain(`(the damaged one is kept as ${join(home, 'state', 'ledger', kept)})`);
    expect((await run(home, ['ledger', 'check'])).code).toBe(0);
    // A sound ledger is not reset.
    const again = await run(home, ['ledger', 'reset', '--yes']);
    expect(again.stderr).toContain('nothing to reset');
  });
});

describe('a ledger deleted or emptied under a running batch', () => {
  // Every request takes 30 ms: the batch is still running when its ledger goes.
  const served = servedSandboxForBlock('slow=1,slow-ms=30');

  const batchOf80 = async (home: string) => {
    const sales = await Promise.all(Array.from({ length: 80 }, () => createCard(served().home, '10.00')));
    const file = join(home, 'refunds.csv');
    writeFileSync(file, `id,amount\n${sales.map((s) => `${s.id},1.00`).join('\n')}\n`);
    const env = { ...served().env, PAYCTL_SETTLE_WINDOW: '3' };
    const batch = spawnPayctl(['transactions', 'refund', '--file', file, '--yes'], home, env);
    await eventually(() => batch.stdout().split('\n').length > 10, 10_000, 'ten rows refunded');
    return { sales, file, env, batch };
  };
  const lostAtTheEnd = (home: string, what: string) =>
    new RegExp(`^error: the ledger ${ledgerFile(home)} ${what} while this batch ran, but payctl has kept its money moves there since .*; \\d+ refunded \\(see the result lines\\), and the record of them went with it\\. .*'payctl ledger reset --yes'`);

  it('deleted (SQLite writes on into the deleted file): the batch ends with exit 2 saying so; money moves stop until a reset; each sale refunded once', async ({ home }) => {
    const { sales, file, env, batch } = await batchOf80(home);
    removeLedger(home);
    expect(await batch.exited, batch.stderr()).toBe(2);
    expect(batch.stderr().trimEnd().split('\n').at(-1)).toMatch(lostAtTheEnd(home, 'was deleted'));
    expectError(await run(home, ['transactions', 'refund', '--file', file, '--yes'], { env }), 2, `the ledger ${ledgerFile(home)} is missing`);
    expect((await run(home, ['ledger', 'reset', '--yes'], { env })).code).toBe(0);
    // The rows refunded before are in their sales' history: skipped, never sent again.
    const again = await run(home, ['transactions', 'refund', '--file', file, '--yes'], { env });
    expect(again.code, again.stderr).toBe(0);
    for (const sale of sales) expect(voids(await getTx(served().home, sale.id))).toBe(1);
  }, 60_000);

  it('emptied: the batch stops with one line, says at its end that the ledger was damaged under it (exit 2), or finds it whole again (SQLite writes it back from its log); never 1, nothing twice', async ({ home }) => {
    const { sales, file, env, batch } = await batchOf80(home);
    const other = await createCard(served().home, '10.00');
    truncateSync(ledgerFile(home), 0);
    const code = await batch.exited;
    if (code === 0) expect(JSON.parse((await run(home, ['ledger', 'check'], { env })).stdout)).toMatchObject({ integrity: 'ok' });
    else {
      expect(code).toBe(2);
      expect(batch.stderr().trimEnd().split('\n').at(-1)).toMatch(new RegExp(`^error: (the batch stopped: )?the ledger ${ledgerFile(home)} (cannot be used|was (emptied|damaged))`));
    }
    const later = await run(home, ['transactions', 'refund', other.id, '--amount', '1.00', '--yes'], { env });
    if (later.code !== 0) expectError(later, 2, `the ledger ${ledgerFile(home)}`, "'payctl ledger reset --yes'");
    // Run again, the batch refunds nothing twice, whichever it was.
    const again = await run(home, ['transactions', 'refund', '--file', file, '--yes'], { env });
    expect([0, 2]).toContain(again.code);
    for (const sale of sales) expect(voids(await getTx(served().home, sale.id))).toBe(1);
  }, 60_000);
});

describe('a full disk under the ledger', () => {
  // The sandbox is served from another home: only payctl's own state is on the small disk.
  const served = servedSandboxForBlock();

  it('a bulk refund on a 2 MB tmpfs home: stops with one line naming the ledger; with room, the rerun refunds each row once', async ({ home }) => {
    const sales = await Promise.all(Array.from({ length: 60 }, () => createCard(served().home, '10.00')));
    const file = join(home, 'refunds.csv');
    writeFileSync(file, `id,amount\n${sales.map((s) => `${s.id},1.00`).join('\n')}\n`);
    const tiny = join(home, 'tiny');
    const env = Object.entries({ ...served().env, PAYCTL_HOME: tiny, PAYCTL_SETTLE_WINDOW: '3', PATH: process.env.PATH ?? '' })
      .map(([k, v]) => `${k}='${v}'`)
      .join(' ');
    const payctl = `env -i ${env} TZ=UTC "${process.execPath}" "${BIN}" transactions refund --file "${file}" --yes --timeout 2`;
    // In a mount namespace of its own (nothing leaks out): a 2 MB disk, filled but for a few hundred
    // KB (the batch fills it as it goes), then room made.
    const script = [
      'set -u',
      `mkdir -p "${tiny}" && mount -t tmpfs -o size=2m none "${tiny}"`,
      `dd if=/dev/zero of="${tiny}/filler" bs=1k count=1650 2>/dev/null`,
      `${payctl} > "${home}/out1" 2> "${home}/err1"; echo "first=$?"`,
      `ls -A "${tiny}/state/ledger" | tr '\\n' ' '; echo`,
      `rm "${tiny}/filler"`,
      `${payctl} > "${home}/out2" 2> "${home}/err2"; echo "second=$?"`,
    ].join('\n');
    const unshare = ['--mount', ...(process.getuid?.() === 0 ? [] : ['--map-root-user'])];
    const result = spawnSync('unshare', [...unshare, 'sh', '-c', script], { encoding: 'utf8', timeout: 120_000 });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^first=2\n/);
    expect(result.stdout).toMatch(/\nsecond=0\n$/);
    const err1 = readFileSync(join(home, 'err1'), 'utf8');
    expect(err1.trimEnd().split('\n').at(-1)).toMatch(new RegExp(`^error: (the batch stopped: )?the ledger ${tiny}/state/ledger/ledger\\.sqlite cannot be used \\(the disk is full\\)`));
    // Nothing of payctl's own is left on the disk but the ledger's files.
    const left = (result.stdout.split('\n')[1] ?? '').trim().split(' ').filter(Boolean);
    expect(left.every((f) => /^ledger\.sqlite(-wal|-shm)?$/.test(f))).toBe(true);
    // The first run's rows were refunded or stopped, each saying so; the rerun refunds the rest and
    // skips what the first one refunded: each sale once.
    const rowsOf = (name: string) => readFileSync(join(home, name), 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { status: string; error: string | null });
    const first = rowsOf('out1');
    const refundedFirst = first.filter((r) => r.status === 'refunded').length;
    console.log(`2 MB tmpfs: the first run refunded ${refundedFirst} of 60 rows before the disk was full`);
    for (const row of first.filter((r) => r.status !== 'refunded')) expect(row.error).toMatch(/^not (finished|attempted|refunded)/);
    const second = rowsOf('out2');
    // (A row whose refund landed as the disk filled is found in its sale's history and skipped too.)
    const [refunded, skipped] = ['refunded', 'skipped'].map((status) => second.filter((r) => r.status === status).length) as [number, number];
    expect(refunded + skipped).toBe(60);
    expect(skipped).toBeGreaterThanOrEqual(refundedFirst);
    for (const sale of sales) expect(voids(await getTx(served().home, sale.id))).toBe(1);
  }, 120_000);
});

describe('a read-only file system under the ledger', () => {
  const served = servedSandboxForBlock();

  it('a refund stops with one line naming the ledger directory and saying nothing was sent (exit 2); reads work', async ({ home }) => {
    const [a, b] = [await createCard(served().home, '10.00'), await createCard(served().home, '10.00')];
    const ro = join(home, 'ro');
    const env = Object.entries({ ...served().env, PAYCTL_HOME: ro, PATH: process.env.PATH ?? '' })
      .map(([k, v]) => `${k}='${v}'`)
      .join(' ');
    const payctl = (args: string) => `env -i ${env} TZ=UTC "${process.execPath}" "${BIN}" ${args}`;
    // In a mount namespace of its own: a home with a ledger in use, then remounted read-only.
    const script = [
      'set -u',
      `mkdir -p "${ro}" && mount -t tmpfs -o size=8m none "${ro}"`,
      `${payctl(`transactions refund ${a.id} --amount 1.00 --yes`)} > /dev/null 2>&1; echo "first=$?"`,
      `mount -o remount,ro "${ro}"`,
      `${payctl(`transactions refund ${b.id} --amount 1.00 --yes`)} > /dev/null 2> "${home}/err"; echo "refund=$?"`,
      `${payctl(`transactions get ${b.id} -o json`)} > /dev/null 2>&1; echo "get=$?"`,
    ].join('\n');
    const unshare = ['--mount', ...(process.getuid?.() === 0 ? [] : ['--map-root-user'])];
    const result = spawnSync('unshare', [...unshare, 'sh', '-c', script], { encoding: 'utf8', timeout: 60_000 });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe('first=0\nrefund=2\nget=0\n');
    const err = readFileSync(join(home, 'err'), 'utf8');
    expect(err.trimEnd().split('\n').at(-1)).toBe(`error: state directory ${ro}/state/ledger is not writable (read-only file system); set PAYCTL_HOME to a writable directory. Nothing was sent`);
    expect([voids(await getTx(served().home, a.id)), voids(await getTx(served().home, b.id))]).toEqual([1, 0]);
  }, 60_000);
});
