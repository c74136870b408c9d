import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { SANDBOX_BUYER_ID } from '../../src/provider/sandbox-account.js';
import { currentOwner } from '../../src/platform/owner.js';
import { converse, KEY } from '../helpers/interactive.js';
import { SANDBOX_LINE, createCard, expectError, expectJson, getTx, run } from './helpers.js';
import type { Transaction } from '../../src/sandbox/types.js';

// What a sale still allows is checked before what payctl remembers of it: a move that cannot
// succeed is refused naming what is left (exit 6), never offered --again; a refund of all that
// remains cannot move money twice, so it is never a probable duplicate, nor can a second cancel of
// a canceled boleto; a bulk row asking more than was refunded before is held (exit 10), neither
// sent nor skipped. Each case checks the exit code, the words on stderr and the sandbox's own
// state: the sale's amount and its voids.
// Each case runs payctl several times in-process: its bound leaves room for a busy machine.
const holder = currentOwner().holder;

const voids = (tx: Transaction) => tx.history.filter((h) => h.operation_type === 'void' && h.status === 'succeeded');
const lines = (stdout: string) => stdout.trimEnd().split('\n').filter(Boolean).map((l) => JSON.parse(l));
/** When an earlier move was made, as messages say it (tests run in UTC). */
const WHEN = 'on \\d{4}-\\d\\d-\\d\\d at \\d\\d:\\d\\d:\\d\\d UTC';
const refund = (home: string, id: string, ...args: string[]) => run(home, ['transactions', 'refund', id, ...args]);

/** A sale, and a refund of part of it made by payctl. */
async function partlyRefunded(home: string, amount: string, refunded: string): Promise<Transaction> {
  const sale = await createCard(home, amount);
  expect((await refund(home, sale.id, '--amount', refunded, '--yes')).code).toBe(0);
  return sale;
}

describe('one command', () => {
  it('more than is left, after an earlier refund: exit 6 naming what is left and what was done, never --again; nothing sent', async ({ home }) => {
    const sale = await partlyRefunded(home, '322.40', '200');
    for (const extra of [[], ['--again']]) {
      const over = await refund(home, sale.id, '--amount', '200', '--yes', ...extra);
      const line = expectError(over, 6);
      expect(line).toMatch(
        new RegExp(`^error: R\\$ 200,00 is more than the R\\$ 122,40 left to refund on transaction ${sale.id}; it was already refunded R\\$ 200,00 by payctl ${WHEN} \\(${holder}\\); nothing was sent$`),
      );
      expect(over.stderr).toBe(`${line}\n`);
    }
    const tx = await getTx(home, sale.id);
    expect([tx.amount, voids(tx).length]).toEqual(['122.40', 1]);
  }, 20_000);

  it('no amount after a partial refund: the rest is refunded, the question naming the earlier refund, when and by whom', async ({ home }) => {
    const sale = await partlyRefunded(home, '322.40', '200');
    // Longer than the terminal is wide: the prompt wraps it, at any space.
    const question = new RegExp(
      `Transaction ${sale.id} was already refunded R\\$ 200,00 by payctl ${WHEN} \\(${holder}\\)\\. Refund the R\\$ 122,40 left of transaction ${sale.id} \\(Visa ••••1111, Maria Silva\\)\\? \\[y/N\\]`.replaceAll(' ', '\\s+'),
    );
    const declined = await converse(['transactions', 'refund', sale.id], home, [{ prompt: question, keys: `n${KEY.enter}` }]);
    expect(declined.code).toBe(3);
    expect(voids(await getTx(home, sale.id))).toHaveLength(1);

    const accepted = await converse(['transactions', 'refund', sale.id, '-o', 'json'], home, [{ prompt: question, keys: `y${KEY.enter}` }]);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stderr).toContain(`Refunded R$ 122,40 of transaction ${sale.id} (canceled)`);
    expect(accepted.stderr).not.toContain('--again');
    const tx = await getTx(home, sale.id);
    expect([tx.amount, tx.status, voids(tx).map((v) => v.amount)]).toEqual(['0.00', 'canceled', ['200.00', '122.40']]);
  }, 20_000);

  it('no amount on a sale with nothing left: "already fully refunded", exit 0, no void sent', async ({ home }) => {
    const sale = await partlyRefunded(home, '21.90', '5');
    expectJson(await refund(home, sale.id, '--yes'));
    const before = await getTx(home, sale.id);
    expect(voids(before)).toHaveLength(2);
    for (const extra of [[], ['--again']]) {
      const done = await refund(home, sale.id, '--yes', ...extra);
      expect(expectJson(done)).toMatchObject({ id: sale.id, amount: '0.00', status: 'canceled' });
      expect(done.stderr).toMatch(
        new RegExp(`^Transaction ${sale.id} is already fully refunded \\(R\\$ 16,90 by payctl ${WHEN} \\(${holder}\\), and 1 more time before\\); nothing was sent\\.\\n$`),
      );
    }
    expect(await getTx(home, sale.id)).toEqual(before);
  }, 20_000);
});

describe('in bulk', () => {
  it('--full on a sale refunded in part refunds the rest; on one with nothing left, "already fully refunded"; exit 0', async ({ home }) => {
    const part = await partlyRefunded(home, '21.90', '5');
    const spent = await partlyRefunded(home, '10.00', '10');
    const result = await run(home, ['transactions', 'refund', '--file', '-', '--full', '--yes'], { stdin: `id\n${part.id}\n${spent.id}\n` });
    expect(result.code, result.stderr).toBe(0);
    const byRow = new Map(lines(result.stdout).map((l) => [l.row, l]));
    expect(byRow.get(1)).toEqual({ row: 1, id: part.id, status: 'refunded', refunded_amount: '16.90', error: null });
    expect(byRow.get(2)).toMatchObject({ row: 2, id: spent.id, status: 'skipped', earlier: { amount: '10.00', by: 'payctl', holder } });
    expect(byRow.get(2).reason).toMatch(new RegExp(`^already fully refunded \\(R\\$ 10,00 by payctl ${WHEN} \\(${holder}\\)\\)$`));
    expect(result.stderr).toBe(
      `${SANDBOX_LINE}Refunded 1 of 2 rows (R$ 16,90).\nSkipped 1 row already refunded, with too little left to refund it again.\nLedger: ${join(home, 'state', 'ledger', 'ledger.sqlite')}\n`,
    );
    const [partNow, spentNow] = [await getTx(home, part.id), await getTx(home, spent.id)];
    expect([partNow.amount, voids(partNow).map((v) => v.amount)]).toEqual(['0.00', ['5.00', '16.90']]);
    expect([spentNow.amount, voids(spentNow).length]).toEqual(['0.00', 1]);
  }, 20_000);

  it('a row asking more than was refunded before is held: exit 10 naming it and what --again would send, nothing sent; --again sends it', async ({ home }) => {
    const asked = await partlyRefunded(home, '10.00', '1');
    const over = await partlyRefunded(home, '10.00', '1');
    const file = join(home, 'refunds.csv');
    writeFileSync(file, `id,amount\n${asked.id},2.00\n${over.id},20.00\n`);
    const result = await run(home, ['transactions', 'refund', '--file', file, '--yes']);
    expect(result.code, result.stderr).toBe(10);
    const byRow = new Map(lines(result.stdout).map((l) => [l.row, l]));
    const held = `asks R\\$ 2,00, more than the R\\$ 1,00 refunded of it before \\(already refunded R\\$ 1,00 by payctl ${WHEN} \\(${holder}\\)\\); nothing was sent for it\\. --again would send its R\\$ 2,00 in addition: payctl transactions refund ${asked.id} --amount 2\\.00 --again`;
    expect(byRow.get(1)).toMatchObject({ row: 1, id: asked.id, status: 'held', refunded_amount: null, earlier: { amount: '1.00', by: 'payctl', holder, batch: null } });
    expect(byRow.get(1).error).toMatch(new RegExp(`^${held}$`));
    // More than the sale has left is refused naming what is left: --again could not help it.
    expect(byRow.get(2)).toMatchObject({ row: 2, id: over.id, status: 'failed' });
    expect(byRow.get(2).error).toMatch(new RegExp(`^R\\$ 20,00 is more than the R\\$ 9,00 left to refund on transaction ${over.id}; it was already refunded R\\$ 1,00 by payctl ${WHEN} \\(${holder}\\); nothing was sent$`));
    expect(result.stderr).toContain('Held 1 row asking more than was refunded of its sale before: nothing was sent for it (its line says what --again would send).\n');
    expect(result.stderr.trimEnd().split('\n').at(-1)).toMatch(new RegExp(`^error: 2 of 2 rows were not refunded \\(see their result lines\\); row 1 \\(${asked.id}\\) ${held}$`));
    for (const sale of [asked, over]) {
      const tx = await getTx(home, sale.id);
      expect([tx.amount, voids(tx).length]).toEqual(['9.00', 1]);
    }
    const failed = join(home, 'refunds.failed.csv');
    expect(result.stderr).toContain(`Rows not refunded: ${failed} (to retry only those: payctl transactions refund --file ${failed}; a held row is sent only by the command its line gives)\n`);
    // Both are in the rows to retry, as they were asked.
    expect(readFileSync(failed, 'utf8').split('\n').slice(1, 3).map((l) => l.split(',').slice(0, 3).join(','))).toEqual([`${asked.id},,200`, `${over.id},,2000`]);

    const again = await run(home, ['transactions', 'refund', '--file', file, '--yes', '--again']);
    expect(again.code).toBe(10);
    expect(lines(again.stdout).find((l) => l.row === 1)).toEqual({ row: 1, id: asked.id, status: 'refunded', refunded_amount: '2.00', error: null });
    const tx = await getTx(home, asked.id);
    expect([tx.amount, voids(tx).map((v) => v.amount)]).toEqual(['7.00', ['1.00', '2.00']]);
    expect(voids(await getTx(home, over.id))).toHaveLength(1);
  }, 20_000);

  it('a row asking no more than was refunded before is skipped as done: exit 0, nothing sent', async ({ home }) => {
    const sale = await partlyRefunded(home, '10.00', '3');
    const result = await run(home, ['transactions', 'refund', '--file', '-', '--yes'], { stdin: `id,amount\n${sale.id},3.00\n` });
    expect(result.code, result.stderr).toBe(0);
    expect(lines(result.stdout)).toMatchObject([{ row: 1, status: 'skipped', reason: expect.stringMatching(/^already refunded R\$ 3,00 by payctl on /) }]);
    expect(result.stderr).toContain('Skipped 1 row refunded earlier (--again refunds them).');
    expect(voids(await getTx(home, sale.id))).toHaveLength(1);
  }, 20_000);
});

describe('boletos cancel', () => {
  it('a second cancel of a canceled boleto says so, offers nothing, sends nothing: exit 0', async ({ home }) => {
    const created = await run(home, ['transactions', 'create', '--payment-type', 'boleto', '--amount', '150', '--customer', SANDBOX_BUYER_ID]);
    const boleto = expectJson(created);
    expect(expectJson(await run(home, ['boletos', 'cancel', boleto.id, '--yes']))).toMatchObject({ status: 'Requested' });
    const canceled = await getTx(home, boleto.id);
    expect(canceled.status).toBe('canceled');
    for (const extra of [[], ['--again']]) {
      const twice = await run(home, ['boletos', 'cancel', boleto.id, '--yes', ...extra]);
      const message = `The boleto of transaction ${boleto.id} is already canceled \\(by payctl ${WHEN} \\(${holder}\\)\\); nothing was sent\\.`;
      expect(twice.stderr).toMatch(new RegExp(`^${message}\\n$`));
      expect(expectJson(twice)).toEqual({ status: 'canceled', message: expect.stringMatching(new RegExp(`^${message}$`)), transaction_id: boleto.id });
    }
    const after = await getTx(home, boleto.id);
    expect(after).toEqual(canceled);
    expect(after.history.filter((h) => h.operation_type === 'cancellation')).toHaveLength(1);
  }, 20_000);
});
