import { describe, expect, it } from 'vitest';
import { SANDBOX_BUYER_ID } from '../../src/provider/sandbox-account.js';
import { currentOwner } from '../../src/platform/owner.js';
import { converse, KEY } from '../helpers/interactive.js';
import { createCard, expectError, expectJson, freshHomePerTest, getTx, run, type Tx } from './helpers.js';

// What a sale still allows is checked before what payctl remembers of it: a move that cannot
// succeed is refused naming what is left (exit 6), never offered --again; a refund of all that
// remains cannot move money twice, so it is never a probable duplicate; nor can a second cancel of
// a canceled boleto, which says so and offers nothing. Each case checks the exit
// code, the words on stderr and the sandbox's own state: the sale's amount and its voids.
const home = freshHomePerTest();
const holder = currentOwner().holder;

const voids = (tx: Tx) => tx.history.filter((h: Tx) => h.operation_type === 'void' && h.status === 'succeeded');
/** When an earlier move was made, as messages say it (tests run in UTC). */
const WHEN = 'on \\d{4}-\\d\\d-\\d\\d at \\d\\d:\\d\\d:\\d\\d UTC';
const refund = (id: string, ...args: string[]) => run(home(), ['transactions', 'refund', id, ...args]);

/** A sale, and a refund of part of it made by payctl. */
async function partlyRefunded(amount: string, refunded: string): Promise<Tx> {
  const sale = await createCard(home(), amount);
  expect((await refund(sale.id, '--amount', refunded, '--yes')).code).toBe(0);
  return sale;
}

describe('one command', () => {
  it('more than is left, after an earlier refund: exit 6 naming what is left and what was done, never --again; nothing sent', async () => {
    const sale = await partlyRefunded('322.40', '200');
    for (const extra of [[], ['--again']]) {
      const over = await refund(sale.id, '--amount', '200', '--yes', ...extra);
      const line = expectError(over, 6);
      expect(line).toMatch(
        new RegExp(`^error: R\\$ 200,00 is more than the R\\$ 122,40 left to refund on transaction ${sale.id}; it was already refunded R\\$ 200,00 by payctl ${WHEN} \\(${holder}\\); nothing was sent$`),
      );
      expect(over.stderr).toBe(`${line}\n`);
    }
    const tx = await getTx(home(), sale.id);
    expect([tx.amount, voids(tx).length]).toEqual(['122.40', 1]);
  });

  it('no amount after a partial refund: the rest is refunded, the question naming the earlier refund, when and by whom', async () => {
    const sale = await partlyRefunded('322.40', '200');
    // Longer than the terminal is wide: the prompt wraps it, at any space.
    const question = new RegExp(
      `Transaction ${sale.id} was already refunded R\\$ 200,00 by payctl ${WHEN} \\(${holder}\\)\\. Refund the R\\$ 122,40 left of transaction ${sale.id} \\(Visa ••••1111, Maria Silva\\)\\? \\[y/N\\]`.replaceAll(' ', '\\s+'),
    );
    const declined = await converse(['transactions', 'refund', sale.id], home(), [{ prompt: question, keys: `n${KEY.enter}` }]);
    expect(declined.code).toBe(3);
    expect(voids(await getTx(home(), sale.id))).toHaveLength(1);

    const accepted = await converse(['transactions', 'refund', sale.id, '-o', 'json'], home(), [{ prompt: question, keys: `y${KEY.enter}` }]);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stderr).toContain(`Refunded R$ 122,40 of transaction ${sale.id} (canceled)`);
    expect(accepted.stderr).not.toContain('--again');
    const tx = await getTx(home(), sale.id);
    expect([tx.amount, tx.status, voids(tx).map((v: Tx) => v.amount)]).toEqual(['0.00', 'canceled', ['200.00', '122.40']]);
  });

  it('no amount on a sale with nothing left: "already fully refunded", exit 0, no void sent', async () => {
    const sale = await partlyRefunded('21.90', '5');
    expectJson(await refund(sale.id, '--yes'));
    const before = await getTx(home(), sale.id);
    expect(voids(before)).toHaveLength(2);
    for (const extra of [[], ['--again']]) {
      const done = await refund(sale.id, '--yes', ...extra);
      expect(expectJson(done)).toMatchObject({ id: sale.id, amount: '0.00', status: 'canceled' });
      expect(done.stderr).toMatch(
        new RegExp(`^Transaction ${sale.id} is already fully refunded \\(R\\$ 16,90 by payctl ${WHEN} \\(${holder}\\), and 1 more time before\\); nothing was sent\\.\\n$`),
      );
    }
    expect(await getTx(home(), sale.id)).toEqual(before);
  });
});

describe('boletos cancel', () => {
  it('a second cancel of a canceled boleto says so, offers nothing, sends nothing: exit 0', async () => {
    const created = await run(home(), ['transactions', 'create', '--payment-type', 'boleto', '--amount', '150', '--customer', SANDBOX_BUYER_ID]);
    const boleto = expectJson(created);
    expect(expectJson(await run(home(), ['boletos', 'cancel', boleto.id, '--yes']))).toMatchObject({ status: 'Requested' });
    const canceled = await getTx(home(), boleto.id);
    expect(canceled.status).toBe('canceled');
    for (const extra of [[], ['--again']]) {
      const twice = await run(home(), ['boletos', 'cancel', boleto.id, '--yes', ...extra]);
      const message = `The boleto of transaction ${boleto.id} is already canceled \\(by payctl ${WHEN} \\(${holder}\\)\\); nothing was sent\\.`;
      expect(twice.stderr).toMatch(new RegExp(`^${message}\\n$`));
      expect(expectJson(twice)).toEqual({ status: 'canceled', message: expect.stringMatching(new RegExp(`^${message}$`)), transaction_id: boleto.id });
    }
    const after = await getTx(home(), boleto.id);
    expect(after).toEqual(canceled);
    expect(after.history.filter((h: Tx) => h.operation_type === 'cancellation')).toHaveLength(1);
  });
});
