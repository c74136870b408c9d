import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { addRule, factoryOn, withBook } from '../helpers/policy.js';
import type { Actor } from '../../src/ledger/actor.js';
import type { ApprovalRequest } from '../../src/ledger/policy/types.js';
import { createCard, getTx, run } from './helpers.js';
import type { Transaction } from '../../src/sandbox/types.js';

// A money move a rule sent for approval, waited for with --wait: the requester's command polls its
// request (every second at first) until a decision or the expiry, and reports what became of it.
// These wait on real clocks, so they run in the full lane (test/vitest.config.ts, WAITS).

const voids = (tx: Transaction) => tx.history.filter((h) => h.operation_type === 'void' && h.status === 'succeeded');
const refund = (home: string, id: string, ...args: string[]) => run(home, ['transactions', 'refund', id, ...args]);

describe('--wait', () => {
  /** Waits until the home's ledger has a pending request, and returns it. */
  async function pendingRequest(home: string): Promise<ApprovalRequest> {
    for (let tries = 0; tries < 100; tries += 1) {
      const [request] = await withBook(home, (book, now) => book.requests({ states: ['pending'], limit: 1 }, now));
      if (request) return request;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('no request was recorded');
  }
  const supervisor: Actor = { holder: 'supervisora@outra', name: 'Supervisora', kind: 'person' };

  it('denied: exit 4 saying by whom and why; nothing sent', async ({ home }) => {
    const sale = await createCard(home, '800.00');
    await addRule(home, { kind: 'above', amount_cents: 50_000 });
    const waiting = refund(home, sale.id, '--amount', '600', '--yes', '--wait');
    const request = await pendingRequest(home);
    await withBook(home, (book, now) => book.deny(request.id, supervisor, 'cliente desistiu do estorno', now));
    const denied = await waiting;
    expect(denied.code, denied.stderr).toBe(4);
    expect(denied.stderr.trimEnd().split('\n').at(-1)).toBe(`error: request ${request.id} was denied by Supervisora (supervisora@outra): cliente desistiu do estorno; nothing was sent`);
    // For scripts, the request as it ended.
    expect(JSON.parse(denied.stdout)).toMatchObject({ id: request.id, state: 'denied', reason: 'cliente desistiu do estorno', decided_by: 'supervisora@outra' });
    expect(denied.stderr).toContain(`waiting for approval: Refund R$ 600,00 of transaction ${sale.id}`);
    expect(denied.stderr).toMatch(new RegExp(`waiting for a decision on request ${request.id} \\(up to 2[34]:\\d\\d:\\d\\d, until \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC\\)…`));
    expect(voids(await getTx(home, sale.id))).toHaveLength(0);
  }, 30_000);

  it('expired without a decision: exit 4; nothing sent', async ({ home }) => {
    const sale = await createCard(home, '800.00');
    // A rule whose requests wait under two seconds.
    await addRule(home, { kind: 'above', amount_cents: 50_000, expires_hours: 0.0005 });
    const expired = await refund(home, sale.id, '--amount', '600', '--yes', '--wait');
    expect(expired.code, expired.stderr).toBe(4);
    expect(expired.stderr.trimEnd().split('\n').at(-1)).toMatch(/^error: request apr_\w+ expired at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC without a decision; nothing was sent\. Ask again by running the same command$/);
    expect(JSON.parse(expired.stdout)).toMatchObject({ state: 'expired' });
    expect(voids(await getTx(home, sale.id))).toHaveLength(0);
  }, 30_000);

  it("sent by its approver: exit 0, the sale printed as the command prints its own refund", async ({ home }) => {
    const sale = await createCard(home, '800.00');
    await addRule(home, { kind: 'above', amount_cents: 50_000 });
    const waiting = refund(home, sale.id, '--amount', '600', '--yes', '--wait', '-o', 'json');
    const request = await pendingRequest(home);
    await withBook(home, async (book, now) => expect((await book.approve(request.id, supervisor, now)).ok).toBe(true));
    // What approvals approve does: the move sent through the command's own code, approving set.
    const { ctx } = factoryOn(home);
    ctx.approving = (await withBook(home, (book, now) => book.request(request.id, now)))!;
    const { run: refundRun } = await import('../../src/commands/transactions/refund.js');
    await refundRun(ctx, [sale.id], { yes: true, amountCents: '60000' } as never).finally(() => ctx.close());
    const sent = await waiting;
    expect(sent.code, sent.stderr).toBe(0);
    expect(JSON.parse(sent.stdout)).toMatchObject({ id: sale.id, amount: '200.00' });
    expect(sent.stderr).toContain(`Refunded R$ 600,00 of transaction ${sale.id} (succeeded)`);
    expect(sent.stderr).toContain(`Request ${request.id} was approved by Supervisora (supervisora@outra) and sent.`);
    expect(voids(await getTx(home, sale.id))).toHaveLength(1);
  }, 30_000);
});
