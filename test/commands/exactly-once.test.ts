import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { providerError, recordingServer, type RecordedRequest, type Reply } from '../helpers/recording-server.js';
import { tempHome } from '../helpers/run.js';
import { eventually, servedSandboxForBlock, spawnPayctl } from '../helpers/serve.js';
import { SANDBOX_BUYER_ID } from '../../src/provider/sandbox-account.js';
import { currentOwner } from '../../src/platform/owner.js';
import { cardFlags, createCard, EXP_YEAR, expectError, expectJson, getTx, present, run, VISA } from './helpers.js';
import type { Transaction } from '../../src/sandbox/types.js';

/** A moment in a message: its date, time and zone (the processes here run in UTC). */
const AT = '\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC';

// Money moves exactly once across processes, reruns and late answers: each case drives payctl as
// a user or a script would (in-process, or bin/payctl in processes of its own) and checks what
// the service holds afterwards, not only what payctl printed.
/** `user@host` of this machine, as the ledger names a holder. */
const holder = currentOwner().holder;

const voids = (tx: Transaction) => tx.history.filter((h) => h.operation_type === 'void' && h.status === 'succeeded').length;
const lines = (stdout: string) => stdout.trimEnd().split('\n').filter(Boolean).map((l) => JSON.parse(l));
const byReference = async (serverHome: string, reference: string) => {
  const result = await run(serverHome, ['transactions', 'list', '--reference-id', reference, '--all']);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
};

describe('a request sitting 5 s in the queue while payctl waits 4 s (--timeout 1; sandbox serve --faults late-apply)', () => {
  // Every change is dropped unanswered and lands 5 s later. With --timeout 1 a run looks for its
  // own lost answer for 4 s, gives up (exit 9) and says until when it could still land: the
  // settle window (10 s here), which has nothing to do with --timeout. The rerun its message
  // advises waits for the window and sends nothing once the change shows.
  const served = servedSandboxForBlock('late-apply=1,late-ms=5000');
  const window = { PAYCTL_SETTLE_WINDOW: '10' };

  it('partial refund: exit 9 naming when it could still land; the rerun waits for it and sends nothing', async ({ home }) => {
    const sale = await createCard(served().home, '10.00');
    const args = ['transactions', 'refund', sale.id, '--amount', '4.00', '--yes', '--timeout', '1'];
    const first = await run(home, args, { env: { ...served().env, ...window } });
    const line = expectError(first, 9, 'outcome unknown', `the refund of transaction ${sale.id}`, 'it could still land until', 'Run the same command again: it waits until then');
    expect(line).not.toContain('undefined');
    expect(first.stderr).not.toContain('safe to run');
    expect((await getTx(served().home, sale.id)).amount).toBe('10.00'); // still queued

    const again = await run(home, args, { env: { ...served().env, ...window } });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(new RegExp(`waiting for the refund of transaction ${sale.id} \\(sent ${AT} by \\S+@\\S+\\) to show \\(up to \\d+ s, until ${AT}\\)`));
    expect(JSON.parse(again.stdout)).toMatchObject({ id: sale.id, amount: '6.00' });
    expect(again.stderr).toContain(`Already done: the refund of R$ 4,00 of transaction ${sale.id} was applied by an earlier run`);
    expect(again.stderr).toContain('nothing was sent');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = await getTx(served().home, sale.id);
    expect([after.amount, voids(after)]).toEqual(['6.00', 1]);
  }, 30_000);

  it('in bulk, a row whose answer is lost is taken up again at the end of the batch, its window waited out: refunded once, exit 0', async ({ home }) => {
    const sales = await Promise.all(Array.from({ length: 3 }, () => createCard(served().home, '10.00')));
    const csv = `id,amount\n${sales.map((s) => `${s.id},2.00`).join('\n')}\n`;
    const result = await run(home, ['transactions', 'refund', '--file', '-', '--yes', '--timeout', '1'], { env: { ...served().env, ...window }, stdin: csv });
    expect(result.code, result.stderr).toBe(0);
    expect(lines(result.stdout).map((l) => [l.status, l.refunded_amount])).toEqual(Array(3).fill(['refunded', '2.00']));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const sale of sales) {
      const tx = await getTx(served().home, sale.id);
      expect([tx.amount, voids(tx)]).toEqual(['8.00', 1]);
    }
  }, 30_000);

  it('on a terminal the rerun counts down the window it waits for', async ({ home }) => {
    const sale = await createCard(served().home, '10.00');
    const args = ['transactions', 'refund', sale.id, '--amount', '4.00', '--yes', '--timeout', '1'];
    expectError(await run(home, args, { env: { ...served().env, ...window } }), 9, 'outcome unknown');
    const again = await run(home, args, { env: { ...served().env, ...window }, stderrTty: true });
    expect(again.code, again.stderr).toBe(0);
    // Redrawn in place each second ("0:03 left: …", then "0:02 left: …"), cut to the terminal's width.
    const drawn = [...again.stderr.matchAll(/\r\x1b\[2K(\d+:\d\d left: [^\r\n\x1b]*)/g)].map((m) => m[1] as string);
    const ticks = drawn.filter((line) => new RegExp(`^\\d+:\\d\\d left: waiting for the refund of transaction ${sale.id} \\(sent ${AT}`).test(line));
    expect(drawn.every((line) => line.length <= 119)).toBe(true);
    expect(ticks.length).toBeGreaterThan(0);
    expect(again.stderr).toContain('Already done');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(voids(await getTx(served().home, sale.id))).toBe(1);
  }, 30_000);

  it('Ctrl-C while the rerun waits: exit 3, saying nothing was sent and until when the earlier refund could land', async ({ home }) => {
    const sale = await createCard(served().home, '10.00');
    const args = ['transactions', 'refund', sale.id, '--amount', '4.00', '--yes', '--timeout', '1'];
    expectError(await run(home, args, { env: { ...served().env, ...window } }), 9, 'outcome unknown');
    const waiting = spawnPayctl(args, home, { ...served().env, ...window });
    await eventually(() => waiting.stderr().includes('waiting for the refund'), 5000, 'the rerun to wait');
    waiting.child.kill('SIGINT');
    expect(await waiting.exited).toBe(3);
    expect(waiting.stderr()).toMatch(new RegExp(`\\ncancelled: nothing was sent; the refund of transaction ${sale.id} \\(sent ${AT} by \\S+\\) could still land until ${AT}\\. Run the same command again to wait for it\\n$`));
    await eventually(async () => (await getTx(served().home, sale.id)).amount === '6.00', 8000, 'the late refund to land');
    expect(voids(await getTx(served().home, sale.id))).toBe(1);
  }, 30_000);

  it('--no-wait: the rerun exits 9 at once, naming when to come back; nothing is sent', async ({ home }) => {
    const sale = await createCard(served().home, '10.00');
    const args = ['transactions', 'refund', sale.id, '--amount', '4.00', '--yes', '--timeout', '1'];
    expectError(await run(home, args, { env: { ...served().env, ...window } }), 9, 'outcome unknown');
    const started = Date.now();
    const hurried = await run(home, [...args, '--no-wait'], { env: { ...served().env, ...window } });
    expectError(hurried, 9, `the refund of transaction ${sale.id} (sent `, 'could still land until', 'nothing was sent. Run the same command again after', 'or without --no-wait to wait for it');
    expect(Date.now() - started).toBeLessThan(2000);
    await eventually(async () => (await getTx(served().home, sale.id)).amount === '6.00', 8000, 'the late refund to land');
    const after = await getTx(served().home, sale.id);
    expect(voids(after)).toBe(1);
  }, 30_000);

  it('create with --reference-id: exit 9, then the rerun returns the transaction instead of charging again', async ({ home }) => {
    const reference = `order-${Math.random().toString(36).slice(2, 10)}`;
    const args = ['transactions', 'create', '--amount', '25.00', ...cardFlags(), '--reference-id', reference, '--timeout', '1'];
    const first = await run(home, args, { env: { ...served().env, ...window } });
    expectError(first, 9, 'outcome unknown', `reference_id ${reference}`, 'Run the same command again');

    const again = await run(home, args, { env: { ...served().env, ...window } });
    expect(again.code, again.stderr).toBe(0);
    const tx = JSON.parse(again.stdout);
    expect(tx.reference_id).toBe(reference);
    expect(again.stderr).toMatch(new RegExp(`transaction ${tx.id} with reference_id ${reference} was already created at \\S+; not charging again`));
    await new Promise((resolve) => setTimeout(resolve, 6000)); // anything the rerun sent would have landed by now
    expect(await byReference(served().home, reference)).toHaveLength(1);
    // The card number never reached the state directory, the ledger included.
    for (const file of readdirSync(join(home, 'state'), { recursive: true }) as string[]) {
      const path = join(home, 'state', file);
      try {
        expect(readFileSync(path).includes(VISA)).toBe(false);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EISDIR') throw err;
      }
    }
  }, 40_000);

  it('create without --reference-id: the rerun takes the earlier reference back from the ledger', async ({ home }) => {
    const args = ['transactions', 'create', '--amount', '31.17', ...cardFlags(), '--description', 'no reference given', '--timeout', '1'];
    const first = await run(home, args, { env: { ...served().env, ...window } });
    const line = expectError(first, 9, 'outcome unknown');
    const reference = /reference_id (payctl-[0-9a-f-]+)/.exec(line)?.[1] as string;
    expect(reference).toBeDefined();

    const again = await run(home, args, { env: { ...served().env, ...window } });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`sent the same transaction with reference_id ${reference} and its outcome is unknown`);
    expect(JSON.parse(again.stdout).reference_id).toBe(reference);
    await new Promise((resolve) => setTimeout(resolve, 6000));
    expect(await byReference(served().home, reference)).toHaveLength(1);
  }, 40_000);
});

describe('a request applied late, within the wait (late-apply landing 1 s after the drop)', () => {
  const served = servedSandboxForBlock('late-apply=1,late-ms=1000');
  const env = () => ({ ...served().env, PAYCTL_SETTLE_WINDOW: '5' });

  it('a refund whose connection was dropped is found applied by the same run: exit 0, applied once', async ({ home }) => {
    const sale = await createCard(served().home, '10.00');
    const result = await run(home, ['transactions', 'refund', sale.id, '--amount', '4.00', '--yes', '--timeout', '1'], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: sale.id, amount: '6.00' });
    // Confirmed by the void that is its own: of its amount, new since it was sent.
    const voidId = (await getTx(served().home, sale.id)).history.find((h) => h.operation_type === 'void')!.id;
    expect(result.stderr).toContain(`The refund of transaction ${sale.id} was applied (confirmed from the service: ${voidId}).`);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(voids(await getTx(served().home, sale.id))).toBe(1);
  }, 15_000);

  it('twelve R$ 1,00 refunds in bulk, every POST applied late: each exactly once', async ({ home }) => {
    const sales = await Promise.all(Array.from({ length: 12 }, () => createCard(served().home, '10.00')));
    const csv = `id,amount\n${sales.map((s) => `${s.id},1.00`).join('\n')}\n`;
    const result = await run(home, ['transactions', 'refund', '--file', '-', '--yes', '--timeout', '1'], { env: env(), stdin: csv });
    expect(result.code, result.stderr).toBe(0);
    expect(lines(result.stdout).map((l) => l.status)).toEqual(Array(12).fill('refunded'));
    expect(result.stderr).toContain('Refunded 12 of 12 rows (R$ 12,00)');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (const sale of sales) {
      const tx = await getTx(served().home, sale.id);
      expect([tx.amount, voids(tx)]).toEqual(['9.00', 1]);
    }
  }, 30_000);

  it('killed with SIGKILL while its refund is still queued: the rerun waits for it and sends nothing', async ({ home }) => {
    const sale = await createCard(served().home, '10.00');
    const args = ['transactions', 'refund', sale.id, '--amount', '4.00', '--yes', '--timeout', '1'];
    const killed = spawnPayctl(args, home, env());
    await eventually(() => killed.stderr().includes('may or may not have been applied'), 5000, 'the dropped refund');
    killed.child.kill('SIGKILL');
    await killed.exited;
    expect((await getTx(served().home, sale.id)).amount).toBe('10.00'); // still queued

    const rerun = await run(home, args, { env: env() });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toMatch(new RegExp(`an earlier run \\(${AT}, \\S+@\\S+, pid ${killed.child.pid}\\) left the refund of transaction ${sale.id} unresolved; checking it before sending anything`));
    expect(rerun.stderr).toContain('Already done');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const tx = await getTx(served().home, sale.id);
    expect([tx.amount, voids(tx)]).toEqual(['6.00', 1]);
  }, 20_000);
});

describe('two processes at once', () => {
  // Every request takes 80 ms, so a run of 60 rows lasts long enough for a second one to overlap it.
  const served = servedSandboxForBlock('slow=1,slow-ms=80');

  it('two runs of the same bulk file: they share the work row by row, every sale refunded once', async ({ home }) => {
    const sales = await Promise.all(Array.from({ length: 60 }, () => createCard(served().home, '10.00')));
    const file = join(home, 'refunds.csv');
    writeFileSync(file, `id,amount\n${sales.map((s) => `${s.id},4.00`).join('\n')}\n`);
    const args = ['transactions', 'refund', '--file', file, '--yes'];
    const first = spawnPayctl(args, home, served().env);
    await eventually(() => first.stdout().includes('\n'), 10_000, 'the first run to refund a row');
    const second = spawnPayctl(args, home, served().env);
    expect(await Promise.all([first.exited, second.exited]), first.stderr() + second.stderr()).toEqual([0, 0]);
    // Each row refunded by exactly one of them; the other found it done (by payctl, this same file) and skipped it.
    const byRow = new Map<number, string[]>();
    for (const l of [...lines(first.stdout()), ...lines(second.stdout())]) byRow.set(l.row, [...(byRow.get(l.row) ?? []), l.status]);
    expect([...byRow.values()].every((statuses) => statuses.sort().join() === 'refunded,skipped')).toBe(true);
    expect(lines(second.stdout()).filter((l) => l.status === 'skipped').every((l) => /^already refunded R\$ 4,00 by payctl on .*batch refunds\.csv\)/.test(l.reason))).toBe(true);
    for (const sale of sales) {
      const tx = await getTx(served().home, sale.id);
      expect([tx.amount, voids(tx)]).toEqual(['6.00', 1]);
    }
    // Run once more when both are done: everything is skipped, nothing is sent.
    const third = await run(home, args, { env: served().env });
    expect(third.code, third.stderr).toBe(0);
    expect(lines(third.stdout).every((l) => l.status === 'skipped')).toBe(true);
    expect(third.stderr).toContain('Refunded 0 of 60 rows (R$ 0,00).\nSkipped 60 rows refunded earlier');
    expect((await getTx(served().home, sales[0]!.id)).amount).toBe('6.00');
  }, 60_000);

  it('two refunds of all that remains at once: the rest is refunded once; the other stops (in flight) or finds nothing left', async ({ home }) => {
    const sale = await createCard(served().home, '10.00');
    expect((await run(home, ['transactions', 'refund', sale.id, '--amount', '4.00', '--yes'], { env: served().env })).code).toBe(0);
    const args = ['transactions', 'refund', sale.id, '--yes'];
    const both = [spawnPayctl(args, home, served().env), spawnPayctl(args, home, served().env)];
    const codes = await Promise.all(both.map((p) => p.exited));
    const stderr = both.map((p) => p.stderr());
    expect(codes.slice().sort(), stderr.join('')).toSatisfy((sorted: number[]) => sorted.join() === '0,0' || sorted.join() === '0,8');
    expect(stderr.filter((e) => e.includes(`Refunded R$ 6,00 of transaction ${sale.id}`))).toHaveLength(1);
    const loser = stderr.find((e) => !e.includes('Refunded R$ 6,00')) as string;
    expect(loser).toMatch(new RegExp(`(is already in flight in another payctl process .*nothing was sent|Transaction ${sale.id} is already fully refunded \\(R\\$ 6,00 by payctl on .*\\); nothing was sent\\.)`));
    const tx = await getTx(served().home, sale.id);
    expect([tx.amount, tx.history.filter((h) => h.operation_type === 'void').map((h) => h.amount)]).toEqual(['0.00', ['4.00', '6.00']]);
  }, 30_000);
});

describe('a boleto subscription across processes (bin/payctl, one embedded sandbox)', () => {
  const json = async <const A extends readonly string[]>(home: string, args: A) => expectJson(await run(home, [...args, '-o', 'json']));

  it('two advances at once bill the due date once; two payments at once pay the boleto and its invoice once', async ({ home }) => {
    const today = (await json(home, ['sandbox', 'clock'])).now.slice(0, 10) as string;
    const due = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const plan = await json(home, ['plans', 'create', '--name', 'Mensal boleto', '--amount', '19.90', '--frequency', 'monthly', '--payment-method', 'boleto']);
    const sub = await json(home, ['subscriptions', 'create', '--plan', plan.uuid, '--customer', SANDBOX_BUYER_ID, '--payment-method', 'boleto', '--due-date', due]);

    const advances = [spawnPayctl(['sandbox', 'advance', '--days', '1', '-q'], home, {}), spawnPayctl(['sandbox', 'advance', '--days', '1', '-q'], home, {})];
    expect(await Promise.all(advances.map((a) => a.exited)), advances.map((a) => a.stderr()).join('')).toEqual([0, 0]);
    const invoices = await json(home, ['invoices', 'list', '--subscription', sub.uuid, '--all']);
    expect(invoices.map((i) => [i.due_date, i.status])).toEqual([[due, expect.stringMatching(/^(pending|over-due)$/)]]);
    const boletos = (await json(home, ['transactions', 'list', '--all', '--payment-type', 'boleto'])).filter((t) => t.metadata?.subscription === sub.uuid);
    expect(boletos.map((t) => t.id)).toEqual([invoices[0]!.transaction]);
    const boleto = present(boletos[0], 'the boleto');

    const pays = [spawnPayctl(['sandbox', 'pay', boleto.id], home, {}), spawnPayctl(['sandbox', 'pay', boleto.id], home, {})];
    const codes = await Promise.all(pays.map((p) => p.exited));
    expect(codes.sort(), pays.map((p) => p.stderr()).join('')).toEqual([0, 6]);
    expect(pays.map((p) => p.stderr()).join('')).toContain(`Invoice ${invoices[0]!.id}: paid`);
    const paid = await json(home, ['transactions', 'get', boleto.id]);
    expect(paid.history.filter((h) => h.operation_type === 'paid')).toHaveLength(1);
    expect(await json(home, ['invoices', 'get', invoices[0]!.id])).toMatchObject({ status: 'paid', paid_at: expect.any(String) });
    const events = await json(home, ['events', 'list', '--type', 'invoice.paid', '--all']);
    expect(events.filter((e) => e.payload.object.id === invoices[0]!.id)).toHaveLength(1);
  }, 30_000);
});

describe('one transaction held by another process', () => {
  const ID = 'a'.repeat(32);
  const transaction = (amount: string, history: Array<Record<string, string>>) => ({
    id: ID,
    resource: 'transaction',
    status: 'succeeded',
    amount,
    currency: 'BRL',
    payment_type: 'credit',
    on_behalf_of: 'b'.repeat(32),
    history,
  });
  const sale = transaction('10.00', [{ id: 'h1', operation_type: 'authorization', status: 'succeeded', amount: '10.00' }]);
  const refunded = transaction('6.00', [...sale.history, { id: 'h2', operation_type: 'void', status: 'succeeded', amount: '4.00' }]);
  // A settle window of 3 s: a request not seen applied 3 s after its send can no longer land.
  const env = (url: string) => ({ PAYCTL_BASE_URL: url, PAYCTL_API_KEY: 'zpk_test_lock', PAYCTL_MARKETPLACE_ID: '', PAYCTL_SETTLE_WINDOW: '3' });
  const posts = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'POST').length;
  const args = ['transactions', 'refund', ID, '--amount', '4.00', '--yes', '--timeout', '1'];
  /** Lookups show the sale unchanged; the first refund never gets an answer, later ones succeed. */
  const firstRefundHangs = () => {
    let answered = 0;
    return recordingServer((req): Reply => {
      if (req.method === 'GET') return { status: 200, body: sale };
      return answered++ === 0 ? { hang: true } : { status: 200, body: refunded };
    });
  };

  it('a second refund while the first is in flight: exit 8, nothing sent; the first, not seen by the end of its window, is not applied; the next run sends', async ({ home }) => {
    const server = await firstRefundHangs();
    try {
      const first = spawnPayctl(args, home, env(server.url));
      await eventually(() => posts(server.requests) === 1, 5000, 'the first refund to be sent');
      const second = await run(home, args, { env: env(server.url) });
      expectError(second, 8, `the refund of transaction ${ID} is already in flight in another payctl process (${holder}, pid ${first.child.pid}, since `, 'nothing was sent');
      expect(posts(server.requests)).toBe(1);

      expect(await first.exited).toBe(8);
      expect(first.stderr()).toMatch(new RegExp(`error: the refund of transaction ${ID} was not applied: not seen in the service by ${AT}, the end of its settle window, so it can no longer land; nothing moved\\. Run the same command again to send it again\\n$`));
      const third = await run(home, args, { env: env(server.url) });
      expect(third.code, third.stderr).toBe(0);
      expect(third.stderr).not.toContain('unresolved');
      expect(posts(server.requests)).toBe(2);
    } finally {
      await server.close();
    }
  }, 20_000);

  it('killed mid-request: its lock does not outlive it, and the rerun settles its intent before sending', async ({ home }) => {
    const server = await firstRefundHangs();
    try {
      const killed = spawnPayctl(args, home, env(server.url));
      await eventually(() => posts(server.requests) === 1, 5000, 'the refund to be sent');
      killed.child.kill('SIGKILL');
      await killed.exited;
      const started = Date.now();
      const rerun = await run(home, args, { env: env(server.url) });
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(rerun.stderr).toContain(`pid ${killed.child.pid}) left the refund of transaction ${ID} unresolved`);
      // It waited out the killed request's settle window (3 s from its send) before sending.
      expect(rerun.stderr).toContain(`waiting for the refund of transaction ${ID} (sent `);
      expect(Date.now() - started).toBeGreaterThan(1500);
      expect(posts(server.requests)).toBe(2);
    } finally {
      await server.close();
    }
  }, 20_000);

  it('Ctrl-C while the refund is in flight says it may have happened; the rerun settles it before sending', async ({ home }) => {
    const server = await firstRefundHangs();
    try {
      const interrupted = spawnPayctl(args, home, env(server.url));
      await eventually(() => posts(server.requests) === 1, 5000, 'the refund to be sent');
      interrupted.child.kill('SIGINT');
      expect(await interrupted.exited).toBe(3);
      expect(interrupted.stderr()).toContain(
        `cancelled: the refund of transaction ${ID} was in flight: it may or may not have been applied. Run the same command again: it checks first and sends only if it did not go through\n`,
      );
      const rerun = await run(home, args, { env: env(server.url) });
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(rerun.stderr).toContain(`pid ${interrupted.child.pid}) left the refund of transaction ${ID} unresolved`);
      expect(posts(server.requests)).toBe(2);
    } finally {
      await server.close();
    }
  }, 20_000);

  it('two creates with one --reference-id at once: the second stops (exit 8); run again, it returns the first one\'s charge', async ({ home }) => {
    let created: Record<string, unknown> | undefined;
    const server = await recordingServer((req): Reply => {
      if (req.method === 'GET') return { status: 200, body: { items: created ? [created] : [], has_more: false } };
      // The sale the create asked for: its reference, amount and card.
      const card = { resource: 'card', card_brand: 'Visa', first4_digits: '4111', last4_digits: '1111', expiration_month: '12', expiration_year: EXP_YEAR };
      created = { ...sale, id: 'f'.repeat(32), reference_id: 'order-42', created_at: '2026-11-23T12:00:00.000Z', payment_method: card };
      return { status: 201, body: created, delayMs: 1500 };
    });
    try {
      const create = ['transactions', 'create', '--amount', '10.00', ...cardFlags(), '--on-behalf-of', 'b'.repeat(32), '--reference-id', 'order-42'];
      const first = spawnPayctl(create, home, env(server.url));
      await eventually(() => posts(server.requests) === 1, 5000, 'the first create to be sent');
      const second = await run(home, create, { env: env(server.url) });
      expectError(second, 8, `the transaction with reference_id order-42 is already in flight in another payctl process (${holder}, pid ${first.child.pid}, since `, 'nothing was sent');
      expect(await first.exited, first.stderr()).toBe(0);
      const again = await run(home, create, { env: env(server.url) });
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout).id).toBe('f'.repeat(32));
      expect(again.stderr).toContain('with reference_id order-42 was already created at 2026-11-23T12:00:00.000Z; not charging again');
      expect(posts(server.requests)).toBe(1);
    } finally {
      await server.close();
    }
  }, 20_000);

  it('a refusal is proof: the intent is closed, and a rerun sends again without waiting', async ({ home }) => {
    const server = await recordingServer((req): Reply => {
      if (req.method === 'GET') return { status: 200, body: sale };
      return { status: 402, body: providerError(402, 'insufficient_funds', 'Not enough balance to refund.') };
    });
    try {
      const args = ['transactions', 'refund', ID, '--amount', '4.00', '--yes'];
      expectError(await run(home, args, { env: env(server.url) }), 6, 'Not enough balance');
      const again = await run(home, args, { env: env(server.url) });
      expectError(again, 6, 'Not enough balance');
      expect(again.stderr).not.toContain('unresolved');
      expect(posts(server.requests)).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('a connection that never opened is the one "not applied, safe to run again" (exit 8)', async ({ home }) => {
    const server = await recordingServer([]); // only for a port that was just free
    const url = server.url;
    await server.close();
    // A create with no reference given looks nothing up first: its POST is the first request.
    const result = await run(home, ['transactions', 'create', '--amount', '10.00', ...cardFlags(), '--on-behalf-of', 'b'.repeat(32)], { env: env(url) });
    expectError(result, 8, 'connection refused', 'was not sent, so nothing was applied: it is safe to run the command again');
  });
});

describe('an answer that is not what was asked for is an unknown outcome (exit 9), never success', () => {
  const ID = 'c'.repeat(32);
  const sale = { id: ID, status: 'succeeded', amount: '10.00', currency: 'BRL', on_behalf_of: 'b'.repeat(32), history: [{ id: 'h1', operation_type: 'authorization' }] };
  const env = (url: string) => ({ PAYCTL_BASE_URL: url, PAYCTL_API_KEY: 'zpk_test_odd', PAYCTL_MARKETPLACE_ID: '' });
  const odd: Array<[string, Reply]> = [
    ['302 redirect', { status: 302, headers: { location: 'https://elsewhere.example/v1/transactions/x' } }],
    ['307 redirect', { status: 307, headers: { location: '/v1/other' } }],
    ['304', { status: 304 }],
    ['204 no content', { status: 204 }],
    ['[]', { status: 200, raw: '[]' }],
    ['42', { status: 200, raw: '42' }],
    ['null', { status: 200, raw: 'null' }],
    ['an object with no id', { status: 200, body: { status: 'succeeded', amount: '6.00' } }],
    ['an amount that is a number', { status: 200, body: { id: ID, status: 'succeeded', amount: 6 } }],
    ['not JSON', { status: 200, raw: '<html>ok</html>' }],
  ];

  // Each answer is looked into for 2 s (four timeouts of 0.3 s) within a window that is still
  // open: exit 9. Each case has its own home and server, so they run side by side.
  const refundCases: Array<[string, Reply]> = [
    ...odd,
    ['another sale', { status: 200, body: { ...sale, id: 'd'.repeat(32), amount: '6.00' } }],
    ['the sale, unchanged', { status: 200, body: sale }],
  ];
  it.concurrent.each(refundCases)('refund answered with %s', async (_name, reply) => {
    const own = tempHome();
    const server = await recordingServer((req): Reply => (req.method === 'GET' ? { status: 200, body: sale } : reply));
    try {
      const result = await run(own.home, ['transactions', 'refund', ID, '--amount', '4.00', '--yes', '--timeout', '0.3'], { env: env(server.url) });
      const line = expectError(result, 9, `outcome unknown: the refund of transaction ${ID}`, 'Run the same command again');
      expect(result.stderr).not.toContain('undefined');
      expect(line).not.toContain('safe to run');
      expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    } finally {
      await server.close();
      own.cleanup();
    }
  });

  it.concurrent.each([...odd, ['a sale with another reference', { status: 201, body: { ...sale, reference_id: 'someone-else' } }] as [string, Reply]])('create answered with %s', async (_name, reply) => {
    const own = tempHome();
    const server = await recordingServer((req): Reply => (req.method === 'GET' ? { status: 200, body: { items: [], has_more: false } } : reply));
    try {
      const result = await run(own.home, ['transactions', 'create', '--amount', '10.00', ...cardFlags(), '--on-behalf-of', 'b'.repeat(32), '--timeout', '0.3'], { env: env(server.url) });
      expectError(result, 9, 'outcome unknown: the transaction with reference_id payctl-');
      expect(result.stderr).not.toContain('undefined');
      expect(result.stdout).toBe('');
      expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    } finally {
      await server.close();
      own.cleanup();
    }
  });
});

describe('invoices and boletos go through the ledger too', () => {
  const INVOICE = 'd'.repeat(32);
  const TX = 'e'.repeat(32);
  const env = (url: string) => ({ PAYCTL_BASE_URL: url, PAYCTL_API_KEY: 'zpk_test_inv', PAYCTL_MARKETPLACE_ID: '' });
  const invoice = (status: string, extra: Record<string, unknown> = {}) => ({ status: 200, body: { id: INVOICE, status, amount: 1990, currency: 'BRL', ...extra } });

  it('invoices refund (a DELETE) whose answer is lost: not resent blindly, confirmed from the invoice', async ({ home }) => {
    let gets = 0;
    const server = await recordingServer((req): Reply => {
      if (req.method === 'DELETE') return { destroy: true };
      gets += 1;
      return gets === 1 ? invoice('paid') : invoice('canceled', { voided_at: '2026-11-23T10:00:00Z' });
    });
    try {
      const result = await run(home, ['invoices', 'refund', INVOICE, '--yes', '--timeout', '0.5'], { env: env(server.url) });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(`The refund of invoice ${INVOICE} was applied (confirmed from the service).`);
      expect(server.requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('invoices approve with no proof is exit 9; the rerun finds it paid and charges nothing', async ({ home }) => {
    let paid = false;
    const server = await recordingServer((req): Reply => (req.method === 'POST' ? { hang: true } : invoice(paid ? 'paid' : 'pending')));
    try {
      const args = ['invoices', 'approve', INVOICE, '--yes', '--timeout', '0.3'];
      expectError(await run(home, args, { env: env(server.url) }), 9, `outcome unknown: the approve of invoice ${INVOICE}`);
      paid = true; // it landed after all
      const again = await run(home, args, { env: env(server.url) });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain(`Already done: invoice ${INVOICE} was approved by an earlier run`);
      expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('boletos cancel whose answer is lost: confirmed from the transaction, sent once', async ({ home }) => {
    let gets = 0;
    const boleto = (status: string) => ({ status: 200, body: { id: TX, status, amount: '150.00', currency: 'BRL', payment_type: 'boleto' } });
    const server = await recordingServer((req): Reply => {
      if (req.method === 'POST') return { destroy: true };
      gets += 1;
      return boleto(gets === 1 ? 'pending' : 'canceled');
    });
    try {
      const result = await run(home, ['boletos', 'cancel', TX, '--yes', '--timeout', '0.5'], { env: { ...env(server.url), PAYCTL_MARKETPLACE_ID: 'f'.repeat(32) } });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(`The cancellation of the boleto of transaction ${TX} was applied (confirmed from the service).`);
      expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
