import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { SANDBOX_API_KEY, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { currentOwner } from '../../src/platform/owner.js';
import { converse, KEY } from '../helpers/interactive.js';
import { recordingServer, sentFields, type RecordedRequest, type Reply } from '../helpers/recording-server.js';
import { eventually, servedSandboxForBlock, spawnPayctl } from '../helpers/serve.js';
import { createCard, expectError, getTx, run } from './helpers.js';
import type { Transaction } from '../../src/sandbox/types.js';

// What payctl already knows about a sale decides what it sends: a refund (capture, cancellation)
// it already made, by any command, batch or profile of the same account, is not made again
// without --again; an edited or re-saved bulk file refunds only what was not done; and a lost
// answer is settled only by a change that identifies that very move. Each case checks the
// sandbox's (or the recording server's) state, the exit code and the one stderr line.
const holder = currentOwner().holder;

const voids = (tx: Transaction) => tx.history.filter((h) => h.operation_type === 'void' && h.status === 'succeeded').length;
const lines = (stdout: string) => stdout.trimEnd().split('\n').filter(Boolean).map((l) => JSON.parse(l));
/** When an earlier move was made, as messages say it (tests run in UTC). */
const WHEN = 'on \\d{4}-\\d\\d-\\d\\d at \\d\\d:\\d\\d:\\d\\d UTC';

describe('the same refund twice', () => {
  it('off a terminal: exit 11, one line naming the earlier refund, nothing sent; --again refunds once more', async ({ home }) => {
    const sale = await createCard(home, '10.00');
    const args = ['transactions', 'refund', sale.id, '--amount', '3.00', '--yes'];
    expect((await run(home, args)).code).toBe(0);
    const twice = await run(home, args);
    const line = expectError(twice, 11);
    expect(line).toMatch(new RegExp(`^error: probable duplicate: transaction ${sale.id} was already refunded R\\$ 3,00 by payctl ${WHEN} \\(${holder}\\); nothing was sent\\. Pass --again to refund R\\$ 3,00 more$`));
    expect(twice.stderr).toBe(`${line}\n`);
    expect(voids(await getTx(home, sale.id))).toBe(1);

    const again = await run(home, [...args, '--again']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`Transaction ${sale.id} was already refunded R$ 3,00 by payctl on`);
    expect(again.stderr).toContain('sending it again (--again)');
    const tx = await getTx(home, sale.id);
    expect([tx.amount, voids(tx)]).toEqual(['4.00', 2]);
    // Now twice: the message says so.
    expectError(await run(home, args), 11, 'was already refunded R$ 3,00 by payctl on', 'and 1 more time before');
  });

  it('on a terminal: asks, naming the earlier refund; "no" sends nothing (exit 3), "yes" refunds', async ({ home }) => {
    const sale = await createCard(home, '10.00');
    expect((await run(home, ['transactions', 'refund', sale.id, '--amount', '3.00', '--yes'])).code).toBe(0);
    const question = new RegExp(`Transaction ${sale.id} was already refunded R\\$ 3,00 by payctl ${WHEN} \\(${holder}\\)\\. Refund R\\$ 3,00 more\\? \\[y/N\\]`);
    const declined = await converse(['transactions', 'refund', sale.id, '--amount', '3.00'], home, [{ prompt: question, keys: `n${KEY.enter}` }]);
    expect(declined.code).toBe(3);
    expect(voids(await getTx(home, sale.id))).toBe(1);
    // --yes answers the usual question, not this one.
    const accepted = await converse(['transactions', 'refund', sale.id, '--amount', '3.00', '--yes', '-o', 'json'], home, [{ prompt: question, keys: `y${KEY.enter}` }]);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(voids(await getTx(home, sale.id))).toBe(2);
  });

  it("a refund in the sale's own history, made without payctl's ledger, counts too", async ({ home }) => {
    const sale = await createCard(home, '10.00');
    // `payctl api` is the raw way in: it sends what it is given and keeps no ledger.
    const raw = await run(home, ['api', 'POST', `transactions/${sale.id}/void`, '-f', `on_behalf_of=${SANDBOX_SELLER_ID}`, '-F', 'amount=500']);
    expect(raw.code, raw.stderr).toBe(0);
    const result = await run(home, ['transactions', 'refund', sale.id, '--amount', '2.00', '--yes']);
    expectError(result, 11, `probable duplicate: transaction ${sale.id} was already refunded R$ 5,00 on`, "(in the sale's history, not in payctl's ledger); nothing was sent");
    expect((await getTx(home, sale.id)).amount).toBe('5.00');
  });

  it('a capture payctl already made: "already captured", exit 0, not a confusing "not pre_authorized" nor an offer of --again', async ({ home }) => {
    const created = await run(home, ['transactions', 'create', '--amount', '10.00', '--card-number', '4111111111111111', '--holder-name', 'Maria Silva', '--exp-month', '12', '--exp-year', '2031', '--cvv', '123', '--no-capture', '-o', 'json']);
    const sale = JSON.parse(created.stdout);
    expect((await run(home, ['transactions', 'capture', sale.id, '--yes'])).code).toBe(0);
    const twice = await run(home, ['transactions', 'capture', sale.id, '--yes']);
    expect(twice.code, twice.stderr).toBe(0);
    expect(twice.stderr).toMatch(new RegExp(`^Transaction ${sale.id} is already captured \\(R\\$ 10,00 by payctl ${WHEN} \\(${holder}\\)\\); nothing was sent\\.\\n$`));
    // An amount the sale can no longer give: exit 6, saying what was done, never --again.
    const more = await run(home, ['transactions', 'capture', sale.id, '--amount', '1', '--yes']);
    expectError(more, 6, `transaction ${sale.id} is succeeded; only a pre_authorized card transaction can be captured; it was already captured R$ 10,00 by payctl on`, 'nothing was sent');
    expect(more.stderr).not.toContain('--again');
    expect((await getTx(home, sale.id)).history.filter((h) => h.operation_type === 'capture')).toHaveLength(1);
  });
});

describe('an edited or re-saved bulk file refunds only what was not done', () => {
  const refundFile = (home: string, file: string, extra: string[] = []) => run(home, ['transactions', 'refund', '--file', file, '--yes', ...extra]);

  it('fixing the row payctl pointed to and adding one: only those two are refunded; the rest is skipped, saying why', async ({ home }) => {
    const sales = await Promise.all(Array.from({ length: 4 }, () => createCard(home, '10.00')));
    const file = join(home, 'refunds-nov.csv');
    writeFileSync(file, `id,amount\n${sales[0]!.id},1.00\n${sales[1]!.id},1.00\n${sales[2]!.id},1.0x\n`);
    const first = await refundFile(home, file);
    expect(first.code).toBe(10);
    expect(lines(first.stdout).map((l) => [l.row, l.status])).toEqual(expect.arrayContaining([[1, 'refunded'], [2, 'refunded'], [3, 'invalid']]));
    // The rows not refunded, beside the input, ready to be run again.
    const failed = join(home, 'refunds-nov.failed.csv');
    expect(first.stderr).toContain(`Rows not refunded: ${failed} (to retry only those: payctl transactions refund --file ${failed})`);
    // The row as it was (never turned into "all that remains"), with why it was not refunded.
    const [header, row, end] = readFileSync(failed, 'utf8').split('\n');
    expect([header, end]).toEqual(['id,amount,amount_cents,error', '']);
    expect(row).toBe(`${sales[2]!.id},1.0x,,"amount: ""1.0x"" is not an amount; use digits and one decimal point or comma, like 10.50"`);

    // Fixed in place, and a row added.
    writeFileSync(file, `id,amount\n${sales[0]!.id},1.00\n${sales[1]!.id},1.00\n${sales[2]!.id},1.00\n${sales[3]!.id},1.00\n`);
    const second = await refundFile(home, file);
    expect(second.code, second.stderr).toBe(0);
    const byRow = new Map(lines(second.stdout).map((l) => [l.row, l]));
    expect([...byRow.values()].map((l) => [l.row, l.status]).sort()).toEqual([[1, 'skipped'], [2, 'skipped'], [3, 'refunded'], [4, 'refunded']]);
    expect(byRow.get(1).reason).toMatch(new RegExp(`^already refunded R\\$ 1,00 by payctl ${WHEN} \\(${holder}, batch refunds-nov\\.csv\\)$`));
    expect(byRow.get(1).earlier).toEqual({ amount: '1.00', at: expect.stringMatching(/Z$/), by: 'payctl', holder, batch: 'refunds-nov.csv' });
    expect(second.stderr).toContain('Refunded 2 of 4 rows (R$ 2,00).\nSkipped 2 rows refunded earlier (--again refunds them).\n');
    for (const sale of sales) {
      const tx = await getTx(home, sale.id);
      expect([tx.amount, voids(tx)]).toEqual(['9.00', 1]);
    }

    // Saved again with CRLF line endings, then with a BOM: the same rows, all done.
    writeFileSync(file, `\ufeffid,amount\r\n${sales.map((s) => `${s.id},1.00`).join('\r\n')}\r\n`);
    const resaved = await refundFile(home, file);
    expect(resaved.code, resaved.stderr).toBe(0);
    expect(lines(resaved.stdout).every((l) => l.status === 'skipped')).toBe(true);
    expect(resaved.stderr).toContain('Refunded 0 of 4 rows (R$ 0,00).\nSkipped 4 rows refunded earlier');
    for (const sale of sales) expect(voids(await getTx(home, sale.id))).toBe(1);
  });

  it('the retry file touches only the rows that were not refunded', async ({ home }) => {
    const sales = await Promise.all(Array.from({ length: 3 }, () => createCard(home, '10.00')));
    const file = join(home, 'batch.csv');
    // Row 2 asks for more than the sale has: the service refuses it.
    writeFileSync(file, `id,amount\n${sales[0]!.id},1.00\n${sales[1]!.id},50.00\n${sales[2]!.id},1.00\n`);
    expect((await refundFile(home, file)).code).toBe(10);
    const failed = join(home, 'batch.failed.csv');
    expect(readFileSync(failed, 'utf8').split('\n')[1]).toMatch(new RegExp(`^${sales[1]!.id},,5000,`));
    // Mended in the failed file itself (as a spreadsheet would), then run: only that sale moves.
    writeFileSync(failed, readFileSync(failed, 'utf8').replace(',5000,', ',500,'));
    const retry = await refundFile(home, failed);
    expect(retry.code, retry.stderr).toBe(0);
    expect(lines(retry.stdout)).toMatchObject([{ row: 1, id: sales[1]!.id, status: 'refunded', refunded_amount: '5.00' }]);
    expect((await getTx(home, sales[0]!.id)).amount).toBe('9.00');
    expect((await getTx(home, sales[1]!.id)).amount).toBe('5.00');
  });

  it("the confirmation says how many rows payctl refunded before, not to be refunded twice", async ({ home }) => {
    const sales = await Promise.all(Array.from({ length: 3 }, () => createCard(home, '10.00')));
    expect((await run(home, ['transactions', 'refund', sales[0]!.id, '--amount', '1.00', '--yes'])).code).toBe(0);
    const file = join(home, 'three.csv');
    writeFileSync(file, `id,amount\n${sales.map((s) => `${s.id},1.00`).join('\n')}\n`);
    const result = await converse(['transactions', 'refund', '--file', file, '-o', 'ndjson'], home, [
      { prompt: /Refund 3 transactions \(R\$ 3,00\); 1 refunded earlier by payctl will not be refunded twice without --again\? \[y\/N\]/, keys: `y${KEY.enter}` },
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(lines(result.stdout).map((l) => l.status).sort()).toEqual(['refunded', 'refunded', 'skipped']);
  });
});

describe('one account, whatever the address or the profile', () => {
  // Changes land 3 s after their connection is dropped; payctl gives up on its own after 2 s.
  const served = servedSandboxForBlock('late-apply=1,late-ms=3000');
  const profiles = (homeDir: string) => {
    const port = new URL(served().url).port;
    const profile = (host: string) => ({ base_url: `http://${host}:${port}`, api_key: SANDBOX_API_KEY, seller_id: SANDBOX_SELLER_ID });
    writeFileSync(join(homeDir, 'config.json'), JSON.stringify({ current_profile: 'caixa', profiles: { caixa: profile('127.0.0.1'), financeiro: profile('localhost') } }), { mode: 0o600 });
  };
  const env = { PAYCTL_SETTLE_WINDOW: '8' };

  it('a refund killed while queued, run again through another profile and address: it waits for it and sends nothing', async ({ home }) => {
    profiles(home);
    // One account, whichever way it is reached: whoami names it the same.
    const accounts = await Promise.all(['caixa', 'financeiro'].map(async (p) => JSON.parse((await run(home, ['whoami', '--profile', p])).stdout).account));
    expect(accounts[0]).toMatch(/^test:key:[0-9a-f]{16}$/);
    expect(accounts[1]).toBe(accounts[0]);
    const sale = await createCard(served().home, '10.00');
    const killed = spawnPayctl(['transactions', 'refund', sale.id, '--amount', '4.00', '--yes', '--timeout', '0.5'], home, env);
    await eventually(() => killed.stderr().includes('may or may not have been applied'), 5000, 'the dropped refund');
    killed.child.kill('SIGKILL');
    await killed.exited;
    const rerun = await run(home, ['transactions', 'refund', sale.id, '--amount', '4.00', '--yes', '--profile', 'financeiro'], { env });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(`pid ${killed.child.pid}) left the refund of transaction ${sale.id} unresolved`);
    expect(rerun.stderr).toContain(`Already done: the refund of R$ 4,00 of transaction ${sale.id} was applied by an earlier run`);
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(voids(await getTx(served().home, sale.id))).toBe(1);
  }, 30_000);

  it('a bulk file run through one address, then the other: the second run refunds nothing', async ({ home }) => {
    profiles(home);
    const sales = await Promise.all(Array.from({ length: 5 }, () => createCard(served().home, '10.00')));
    const file = join(home, 'refunds.csv');
    writeFileSync(file, `id,amount\n${sales.map((s) => `${s.id},2.00`).join('\n')}\n`);
    const first = await run(home, ['transactions', 'refund', '--file', file, '--yes'], { env });
    expect(first.code, first.stderr).toBe(0);
    const other = await run(home, ['transactions', 'refund', '--file', file, '--yes', '--profile', 'financeiro'], { env });
    expect(other.code, other.stderr).toBe(0);
    expect(lines(other.stdout).map((l) => l.status)).toEqual(Array(5).fill('skipped'));
    await new Promise((resolve) => setTimeout(resolve, 3500));
    for (const sale of sales) expect(voids(await getTx(served().home, sale.id))).toBe(1);
  }, 40_000);
});

describe("proof means this move: someone else's refund is not proof of ours", () => {
  const ID = 'a'.repeat(32);
  const SELLER = 'b'.repeat(32);
  const base = { id: ID, resource: 'transaction', currency: 'BRL', payment_type: 'credit', on_behalf_of: SELLER };
  const auth = { id: 'h1', operation_type: 'authorization', status: 'succeeded', amount: '100.00' };
  const sale = { ...base, status: 'succeeded', amount: '100.00', history: [auth] };
  /** After another operator, outside this ledger, refunded R$ 5,00 while our answer was lost. */
  const theirs = { ...base, status: 'succeeded', amount: '95.00', history: [auth, { id: 'their-void', operation_type: 'void', status: 'succeeded', amount: '5.00' }] };
  // A window still open when payctl gives up on its own (2 s): no proof either way is exit 9.
  const env = (url: string) => ({ PAYCTL_BASE_URL: url, PAYCTL_API_KEY: 'zpk_test_proof', PAYCTL_MARKETPLACE_ID: '', PAYCTL_SETTLE_WINDOW: '60' });
  /** The first GET sees the sale as it was; every later one, as the other operator left it. POSTs never answer. */
  const server = () => {
    let gets = 0;
    return recordingServer((req): Reply => (req.method === 'POST' ? { hang: true } : { status: 200, body: gets++ === 0 ? sale : theirs }));
  };
  const posts = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'POST').length;

  it('a refund whose answer is lost, beside another R$ 5,00 void: not proven, exit 9, the intent kept', async ({ home }) => {
    const s = await server();
    try {
      const result = await run(home, ['transactions', 'refund', ID, '--amount', '3.00', '--yes', '--timeout', '0.5'], { env: env(s.url) });
      expectError(result, 9, `outcome unknown: the refund of transaction ${ID} may or may not have been applied`, 'it could still land until');
      expect(result.stderr).not.toContain('confirmed from the service');
      expect(posts(s.requests)).toBe(1);
      const shown = await run(home, ['ledger', 'show', ID, '-o', 'json'], { env: env(s.url) });
      expect(JSON.parse(shown.stdout).intents).toMatchObject([{ action: 'refund', amount: '3.00', state: 'unknown', proof: null }]);
    } finally {
      await s.close();
    }
  });

  it('the same in bulk: the row is an open outcome, never "refunded 1.00"', async ({ home }) => {
    const s = await server();
    try {
      // --no-wait: the row is not waited for at the end of the batch, with its window still open.
      const result = await run(home, ['transactions', 'refund', '--file', '-', '--yes', '--timeout', '0.5', '--no-wait'], { env: env(s.url), stdin: `id,amount\n${ID},1.00\n` });
      expect(result.code).toBe(10);
      expect(lines(result.stdout)).toMatchObject([{ row: 1, status: 'failed', refunded_amount: null, error: expect.stringMatching(/is not seen applied yet and could still land until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC; nothing was sent/) }]);
      expect(posts(s.requests)).toBe(1);
    } finally {
      await s.close();
    }
  });

  it('a capture whose answer is lost, on a pre-authorisation voided elsewhere: not "Captured", exit 9', async ({ home }) => {
    const preAuth = { ...base, status: 'pre_authorized', amount: '100.00', history: [{ ...auth, status: 'pre_authorized' }] };
    const voided = { ...preAuth, status: 'canceled', voided: true, history: [...preAuth.history, { id: 'their-void', operation_type: 'void', status: 'succeeded', amount: '100.00' }] };
    let gets = 0;
    const s = await recordingServer((req): Reply => (req.method === 'POST' ? { hang: true } : { status: 200, body: gets++ === 0 ? preAuth : voided }));
    try {
      const result = await run(home, ['transactions', 'capture', ID, '--yes', '--timeout', '0.5'], { env: env(s.url) });
      expectError(result, 9, `outcome unknown: the capture of transaction ${ID} may or may not have been applied`);
      expect(result.stderr).not.toContain('Captured');
    } finally {
      await s.close();
    }
  });

  it('an answer showing only the other void is not this refund either', async ({ home }) => {
    const s = await recordingServer((req): Reply => ({ status: 200, body: req.method === 'POST' ? theirs : sale }));
    try {
      const result = await run(home, ['transactions', 'refund', ID, '--amount', '3.00', '--yes', '--timeout', '0.5'], { env: env(s.url) });
      expectError(result, 9, 'outcome unknown');
      expect(result.stderr).toContain('the service answered, but not with the refund of transaction');
      expect(result.stderr).toContain('shows no new void of R$ 3,00');
    } finally {
      await s.close();
    }
  });
});

describe('a batch under a rate limit that never lifts', () => {
  const ID = 'c'.repeat(32);
  const sale = { id: ID, status: 'succeeded', amount: '10.00', currency: 'BRL', on_behalf_of: 'b'.repeat(32), history: [] };

  it('stops at --max-wait: exit 7 when nothing was done, one line, the rows kept for a retry', async ({ home }) => {
    const s = await recordingServer((req): Reply => (req.method === 'GET' ? { status: 200, body: sale } : { status: 429, headers: { 'retry-after': '1' }, body: { error: { status: 'Too Many Requests', status_code: 429, type: 'rate_limited', category: 'rate_limited', message: 'Slow down.' } } }));
    try {
      const started = Date.now();
      const failedOut = join(home, 'retry-later.csv');
      const result = await run(home, ['transactions', 'refund', '--file', '-', '--yes', '--max-wait', '3', '--concurrency', '1', '--failed-out', failedOut], {
        env: { PAYCTL_BASE_URL: s.url, PAYCTL_API_KEY: 'zpk_test_limit', PAYCTL_MARKETPLACE_ID: '' },
        stdin: `id,amount\n${ID},1.00\n${'d'.repeat(32)},1.00\n`,
      });
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(result.code).toBe(7);
      expect(result.stderr.trimEnd().split('\n').at(-1)).toMatch(/^error: the batch stopped at --max-wait: it has waited \d+ s in all on rate limits.*\(limit 3 s\); 0 refunded, 2 not\. Run the same command again to resume$/);
      expect(lines(result.stdout).map((l) => l.status)).toEqual(['failed', 'failed']);
      // Both rows, as they were, in the file asked for (in the order they finished): a rerun of it resumes.
      expect(readFileSync(failedOut, 'utf8').split('\n').slice(1, 3).map((l) => l.split(',').slice(0, 3).join(',')).sort()).toEqual([`${ID},,100`, `${'d'.repeat(32)},,100`]);
      expect(s.requests.filter((r) => r.method === 'POST').every((r) => sentFields(r).amount === 100)).toBe(true);
    } finally {
      await s.close();
    }
  });
});
