import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { addRule, factoryOn, withBook } from '../helpers/policy.js';
import type { Actor } from '../../src/ledger/actor.js';
import type { ApprovalRequest } from '../../src/ledger/policy/types.js';
import { currentOwner } from '../../src/platform/owner.js';
import { SANDBOX_BUYER_ID } from '../../src/provider/sandbox-account.js';
import { createCard, expectError, expectJson, getTx, run } from './helpers.js';
import type { Transaction } from '../../src/sandbox/types.js';

// The team's rules at the money guard (src/ledger/policy/gate.ts), through the commands users run,
// against the embedded sandbox: a move a rule sends for approval is a request and nothing is sent
// (exit 13); a block, or a move past a daily limit, is exit 4 naming the rule; a bulk run sends
// the rows no rule catches and files the others under the batch (exit 10); the move an approver
// sends must be the request's. Every case checks the sale's voids in the sandbox.

const holder = currentOwner().holder;
const voids = (tx: Transaction) => tx.history.filter((h) => h.operation_type === 'void' && h.status === 'succeeded');

const refund = (home: string, id: string, ...args: string[]) => run(home, ['transactions', 'refund', id, ...args]);

/** A run that recorded a request (exit 13) with -o json: its error line, and the request it printed. */
function expectRequest(result: { code: number; stdout: string; stderr: string }): { line: string; shown: Record<string, unknown> } {
  expect(result.code, result.stderr).toBe(13);
  const line = result.stderr.trimEnd().split('\n').at(-1) as string;
  expect(line.startsWith('error: waiting for approval: '), result.stderr).toBe(true);
  return { line, shown: JSON.parse(result.stdout) as Record<string, unknown> };
}

describe('a refund above a rule', () => {
  it('is a request, not a send: exit 13 naming it, the request on stdout for scripts, 0 voids; a rerun finds the same request', async ({ home }) => {
    const sale = await createCard(home, '800.00');
    const rule = await addRule(home, { kind: 'above', amount_cents: 50_000 });
    const { line, shown } = expectRequest(await refund(home, sale.id, '--amount', '600', '--yes', '-o', 'json'));
    expect(shown).toMatchObject({ state: 'pending', operation: 'refund', key: `transaction:${sale.id}`, amount_cents: 60_000, currency: 'BRL', rule_id: rule, requester: holder, requester_kind: 'script' });
    expect(shown.summary).toBe(`Refund R$ 600,00 of transaction ${sale.id} (Visa ••••1111, Maria Silva)`);
    expect(shown.replay).toEqual(['transactions', 'refund', sale.id, '--amount-cents', '60000']);
    expect(shown.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Date.parse(shown.expires_at as string) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    expect(line).toContain(`error: waiting for approval: Refund R$ 600,00 of transaction ${sale.id} (Visa ••••1111, Maria Silva) needs a second person (rule ${rule}: refunds above R$ 500,00 by anyone need approval); nothing was sent. Request ${shown.id as string}`);
    expect(line).toContain(`payctl approvals show ${shown.id as string}`);
    // All that remains is judged by what it is once the sale is read: R$ 800,00, also above the rule.
    const again = expectRequest(await refund(home, sale.id, '--amount', '600', '--yes', '-o', 'json'));
    expect(again.shown).toMatchObject({ id: shown.id });
    expect(again.line).toContain('asked before, still pending');
    expect(expectRequest(await refund(home, sale.id, '--yes', '-o', 'json')).shown).toMatchObject({ amount_cents: 80_000, replay: ['transactions', 'refund', sale.id, '--amount-cents', '80000'] });
    expect(voids(await getTx(home, sale.id))).toHaveLength(0);
    const requests = await withBook(home, (book, now) => book.requests({ states: ['pending'], limit: 10 }, now));
    expect(requests).toHaveLength(2);
    // Below the rule: sent as ever.
    const small = await refund(home, sale.id, '--amount', '100', '--yes');
    expect(small.code, small.stderr).toBe(0);
    expect(voids(await getTx(home, sale.id))).toHaveLength(1);
  }, 30_000);

  it('a table on a terminal prints nothing on stdout: the message names the request', async ({ home }) => {
    const sale = await createCard(home, '800.00');
    await addRule(home, { kind: 'above', amount_cents: 50_000 });
    const asked = await run(home, ['transactions', 'refund', sale.id, '--yes'], { tty: true });
    expectError(asked, 13, 'payctl approvals show apr_');
    expect(voids(await getTx(home, sale.id))).toHaveLength(0);
  }, 20_000);
});

describe('a block, and daily limits', () => {
  it('a blocked refund is exit 4 naming the rule; nothing sent', async ({ home }) => {
    const sale = await createCard(home, '50.00');
    const rule = await addRule(home, { kind: 'block' });
    const blocked = await refund(home, sale.id, '--amount', '1', '--yes');
    expect(expectError(blocked, 4)).toBe(`error: Refund R$ 1,00 of transaction ${sale.id} (Visa ••••1111, Maria Silva): not permitted by the team's policy (rule ${rule}: refunds by anyone are blocked); nothing was sent`);
    expect(voids(await getTx(home, sale.id))).toHaveLength(0);
  }, 20_000);

  it("an operator's daily limit: what would pass it is exit 4, naming what is left today and when it resets", async ({ home }) => {
    const sale = await createCard(home, '500.00');
    const rule = await addRule(home, { kind: 'daily_limit', amount_cents: 10_000, per: 'operator' });
    expect((await refund(home, sale.id, '--amount', '60', '--yes')).code).toBe(0);
    // --again: a second refund of a sale payctl refunded today is a probable duplicate first (exit 11).
    const over = await refund(home, sale.id, '--amount', '50', '--yes', '--again');
    const line = expectError(over, 4);
    expect(line).toContain(`it would pass ${holder}'s daily limit (rule ${rule}: refunds by anyone: at most R$ 100,00 a day for each operator); R$ 40,00 is left today, until the limit resets at `);
    expect(line).toMatch(/resets at \d{4}-\d\d-\d\d 00:00:00 UTC; nothing was sent$/);
    expect((await refund(home, sale.id, '--amount', '40', '--yes', '--again')).code).toBe(0);
    expect(voids(await getTx(home, sale.id)).map((v) => v.amount)).toEqual(['60.00', '40.00']);
  }, 20_000);
});

describe('the move an approver sends', () => {
  /** Sends `args` as `transactions refund` would with `approving` set, as `approvals approve` does; returns the exit code and stderr. */
  async function sendApproved(home: string, request: ApprovalRequest, args: [string], amountCents?: number) {
    const { ctx, stderr } = factoryOn(home);
    ctx.approving = request;
    const { run: refundRun } = await import('../../src/commands/transactions/refund.js');
    try {
      await refundRun(ctx, args, { yes: true, ...(amountCents !== undefined ? { amountCents: String(amountCents) } : {}) } as never);
      return { code: 0, stderr: stderr() };
    } catch (err) {
      return { code: (err as { exitCode?: number }).exitCode ?? 1, stderr: `${stderr()}error: ${(err as Error).message}` };
    } finally {
      await ctx.close();
    }
  }

  async function approvedRequest(home: string, sale: Transaction): Promise<ApprovalRequest> {
    await addRule(home, { kind: 'above', amount_cents: 50_000 });
    const id = expectRequest(await refund(home, sale.id, '--amount', '600', '--yes', '-o', 'json')).shown.id as string;
    const approver: Actor = { holder: 'supervisora@outra', name: 'Supervisora', kind: 'person' };
    return withBook(home, async (book, now) => {
      const taken = await book.approve(id, approver, now);
      expect(taken.ok).toBe(true);
      return taken.request;
    });
  }

  it('another amount than the one approved fails with the reason, nothing sent; the request is failed', async ({ home }) => {
    const sale = await createCard(home, '800.00');
    const request = await approvedRequest(home, sale);
    const other = await sendApproved(home, request, [sale.id], 70_000);
    expect(other.code).toBe(6);
    expect(other.stderr).toContain(`request ${request.id} was not sent: the move no longer stands as approved: it would move R$ 700,00 now, not the R$ 600,00 approved; nothing was sent`);
    expect(voids(await getTx(home, sale.id))).toHaveLength(0);
    expect(await withBook(home, (book, now) => book.request(request.id, now))).toMatchObject({ state: 'failed' });
  }, 30_000);

  it('the same move is sent once, and the request settled sent with its intent', async ({ home }) => {
    const sale = await createCard(home, '800.00');
    const request = await approvedRequest(home, sale);
    const sent = await sendApproved(home, request, [sale.id], 60_000);
    expect(sent.code, sent.stderr).toBe(0);
    expect(voids(await getTx(home, sale.id)).map((v) => v.amount)).toEqual(['600.00']);
    const settled = await withBook(home, (book, now) => book.request(request.id, now));
    expect(settled).toMatchObject({ state: 'sent', decided_by: 'supervisora@outra' });
    expect(settled?.intent_id).toBeTypeOf('number');
  }, 30_000);
});


describe('a bulk run', () => {
  const lines = (stdout: string) => stdout.trimEnd().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

  it('sends the rows no rule catches, files the others under the batch (exit 10 naming how many wait); a rerun asks nothing twice', async ({ home }) => {
    const sales = [await createCard(home, '100.00'), await createCard(home, '900.00'), await createCard(home, '50.00'), await createCard(home, '700.00')];
    await addRule(home, { kind: 'above', amount_cents: 50_000 });
    const file = join(home, 'estornos.csv');
    writeFileSync(file, `id;valor\n${sales.map((s) => `${s.id};tudo`).join('\n')}\n`);
    const first = await run(home, ['transactions', 'refund', '--file', file, '--yes']);
    expect(first.code, first.stderr).toBe(10);
    const rows = lines(first.stdout).sort((a, b) => (a.row as number) - (b.row as number));
    expect(rows.map((r) => r.status)).toEqual(['refunded', 'waiting_approval', 'refunded', 'waiting_approval']);
    expect(rows[1]).toMatchObject({ id: sales[1]!.id, request: expect.stringMatching(/^apr_/), refunded_amount: null });
    expect(rows[1]!.reason).toContain(`Refund R$ 900,00 of transaction ${sales[1]!.id}`);
    expect(first.stderr).toContain('2 rows wait for approval by the team\'s policy: nothing was sent for them');
    expect(first.stderr).toContain('payctl approvals approve --batch estornos.csv');
    expect(first.stderr).toMatch(/error: 2 of 4 rows wait for approval/);
    const filed = await withBook(home, (book, now) => book.requests({ batch: 'estornos.csv', limit: 10 }, now));
    expect(filed.map((r) => [r.row, r.target, r.amount_cents, r.state]).sort()).toEqual([
      [2, sales[1]!.id, 90_000, 'pending'],
      [4, sales[3]!.id, 70_000, 'pending'],
    ]);
    expect(await Promise.all(sales.map(async (s) => voids(await getTx(home, s.id)).length))).toEqual([1, 0, 1, 0]);

    const again = await run(home, ['transactions', 'refund', '--file', file, '--yes']);
    expect(again.code, again.stderr).toBe(10);
    const waiting = lines(again.stdout).filter((r) => r.status === 'waiting_approval');
    expect(waiting.map((r) => r.request).sort()).toEqual(filed.map((r) => r.id).sort());
    expect(await withBook(home, (book, now) => book.requests({ limit: 10 }, now))).toHaveLength(2);
  }, 30_000);

  it("rows on both sides of an operator's daily limit: those within it are sent, the rest fail naming the rule", async ({ home }) => {
    const sales = [await createCard(home, '40.00'), await createCard(home, '40.00'), await createCard(home, '40.00')];
    const rule = await addRule(home, { kind: 'daily_limit', amount_cents: 10_000, per: 'operator' });
    const file = join(home, 'refunds.csv');
    writeFileSync(file, `id,amount\n${sales.map((s) => `${s.id},40.00`).join('\n')}\n`);
    const ran = await run(home, ['transactions', 'refund', '--file', file, '--yes', '--concurrency', '3']);
    expect(ran.code, ran.stderr).toBe(10);
    const rows = lines(ran.stdout);
    expect(rows.filter((r) => r.status === 'refunded')).toHaveLength(2);
    const refused = rows.filter((r) => r.status === 'failed');
    expect(refused).toHaveLength(1);
    expect(refused[0]!.error).toContain(`daily limit (rule ${rule}`);
    expect(refused[0]!.error).toContain('R$ 20,00 is left today');
    const sent = await Promise.all(sales.map(async (s) => voids(await getTx(home, s.id)).length));
    expect(sent.reduce((a, b) => a + b, 0)).toBe(2);
  }, 30_000);
});

describe('every money command', () => {
  it('a capture and a create above a rule are requests (exit 13), a boleto and a subscription cancellation a block stops (exit 4); nothing sent', async ({ home }) => {
    const preauth = expectJson(await run(home, ['transactions', 'create', '--amount', '900', '--card-number', '4111111111111111', '--holder-name', 'Maria Silva', '--exp-month', '12', '--exp-year', '2030', '--cvv', '123', '--no-capture', '-o', 'json']));
    await addRule(home, { operation: 'capture', kind: 'above', amount_cents: 50_000 });
    const { shown } = expectRequest(await run(home, ['transactions', 'capture', preauth.id, '--yes', '-o', 'json']));
    expect(shown).toMatchObject({ operation: 'capture', amount_cents: 90_000, replay: ['transactions', 'capture', preauth.id, '--amount-cents', '90000'] });
    expect((await getTx(home, preauth.id)).status).toBe('pre_authorized');

    const boleto = expectJson(await run(home, ['transactions', 'create', '--payment-type', 'boleto', '--amount', '150', '--customer', SANDBOX_BUYER_ID, '-o', 'json']));
    const boletoRule = await addRule(home, { operation: 'boleto-cancel', kind: 'block' });
    expectError(await run(home, ['boletos', 'cancel', boleto.id, '--yes']), 4, `(rule ${boletoRule}: boleto cancellations by anyone are blocked); nothing was sent`);
    expect((await getTx(home, boleto.id)).status).not.toBe('canceled');

    const plan = expectJson(await run(home, ['plans', 'create', '--name', 'Mensal', '--amount', '29.90', '--frequency', 'monthly', '-o', 'json']));
    const due = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const sub = expectJson(await run(home, ['subscriptions', 'create', '--plan', plan.uuid, '--customer', SANDBOX_BUYER_ID, '--due-date', due, '-o', 'json']));
    const subRule = await addRule(home, { operation: 'subscription-cancel', kind: 'block' });
    expectError(await run(home, ['subscriptions', 'remove', sub.uuid, '--yes']), 4, `Cancel subscription ${sub.uuid} (`, `(rule ${subRule}: subscription cancellations by anyone are blocked); nothing was sent`);
    expect(expectJson(await run(home, ['subscriptions', 'get', sub.uuid, '-o', 'json']))).toMatchObject({ status: 'active' });

    // A new sale by a card on file: the request carries the command that makes exactly it, with its reference.
    await addRule(home, { operation: 'create', kind: 'above', amount_cents: 100_000 });
    const created = expectRequest(await run(home, ['transactions', 'create', '--amount', '1500', '--customer', SANDBOX_BUYER_ID, '--reference-id', 'pedido-77', '-o', 'json']));
    expect(created.shown).toMatchObject({ operation: 'create', key: 'reference:pedido-77', amount_cents: 150_000 });
    expect(created.shown.replay).toEqual(expect.arrayContaining(['transactions', 'create', '--amount-cents', '150000', '--reference-id', 'pedido-77', '--customer', SANDBOX_BUYER_ID]));
    expect(expectJson(await run(home, ['transactions', 'list', '--reference-id', 'pedido-77', '-o', 'json']))).toEqual([]);
  }, 30_000);
});
