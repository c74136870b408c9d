import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import * as z from 'zod/mini';
import { it } from '../helpers/fixtures.js';
import { converse, KEY } from '../helpers/interactive.js';
import { approvalList, approvalRequest, approvalStatus, ledgerList, waitingRequest } from '../helpers/printed.js';
import { currentOwner } from '../../src/platform/owner.js';
import { typedAmount } from '../../src/commands/approvals/approve.js';
import { requestRefund } from './approvals-helpers.js';
import { PERSON, addRule, withBook } from '../helpers/policy.js';
import { createCard, expectError, expectUsage, getTx, run } from './helpers.js';
import type { Transaction } from '../../src/sandbox/types.js';

// `payctl approvals` on this machine's own ledger, in-process against the embedded sandbox: a
// request made by an AI agent (the one kind a person on the same machine may approve), approved on
// a terminal through the prompts' test seam. Across machines and OS users, on PostgreSQL:
// approvals-team.test.ts.
const holder = currentOwner().holder;
const voids = (tx: Transaction) => tx.history.filter((h) => h.operation_type === 'void' && h.status === 'succeeded').length;
const agentRefund = (home: string, id: string, cents: number | null, options = {}) => requestRefund(home, {}, id, cents, { kind: 'agent', ...options });
/** stderr as one line: a terminal's error is wrapped between words. */
const oneLine = (text: string) => text.replace(/\n +/g, ' ');
const status = async (home: string, id: string) => z.parse(approvalStatus, JSON.parse((await run(home, ['approvals', 'status', id])).stdout));

describe('payctl approvals list, show, status', () => {
  it("lists requests newest first; shows one with the sale as it is now; status in short", async ({ home }) => {
    const [a, b] = [await createCard(home, '1000.00'), await createCard(home, '50.00')];
    const first = await agentRefund(home, a.id, 60_000);
    const second = await agentRefund(home, b.id, null);

    const listed = z.parse(approvalList, JSON.parse((await run(home, ['approvals', 'list'])).stdout));
    expect(listed.map((r) => [r.id, r.state, r.operation, r.amount, r.target, r.requester, r.requester_kind])).toEqual([
      [second.id, 'pending', 'refund', null, b.id, holder, 'agent'],
      [first.id, 'pending', 'refund', '600.00', a.id, holder, 'agent'],
    ]);
    expect(JSON.parse((await run(home, ['approvals', 'list', '--state', 'sent,denied'])).stdout)).toEqual([]);
    expectUsage(await run(home, ['approvals', 'list', '--state', 'done']), '--state: "done" is not valid');

    const table = await run(home, ['approvals', 'list', '--no-color'], { tty: true, columns: 200 });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID +WHEN +REQUESTER +OPERATION +AMOUNT +SALE +STATE +EXPIRES/);
    expect(table.stdout).toContain('R$ 600,00');

    const shown = JSON.parse((await run(home, ['approvals', 'show', first.id])).stdout);
    expect(z.parse(approvalRequest, shown)).toMatchObject({ id: first.id, summary: first.summary, command: `payctl transactions refund ${a.id} --amount-cents 60000` });
    expect(shown.sale_now).toMatchObject({ id: a.id, status: 'succeeded', amount: '1000.00' });
    // On a terminal, as a person judges it: the move, who asked, the sale now, what approving sends.
    const view = await run(home, ['approvals', 'show', first.id, '--no-color'], { tty: true, columns: 200 });
    expect(view.stdout.split('\n').map((line) => line.trimEnd())).toEqual(
      expect.arrayContaining([`Approval request ${first.id}  pending`, `Move      ${first.summary}`, 'Amount    R$ 600,00', `Asked by  ${holder}, an AI agent`, '  Status  succeeded', '  Amount  R$ 1.000,00', `  Command      payctl transactions refund ${a.id} --amount-cents 60000`]),
    );

    expect(await status(home, first.id)).toEqual({ id: first.id, state: 'pending', summary: first.summary, expires_at: expect.any(String), decided_by: null, decided_by_name: null, decided_at: null, reason: null, intent_id: null, intent_state: null });
    expectError(await run(home, ['approvals', 'status', 'apr_nothere1']), 5, 'no approval request apr_nothere1 in the ledger');
    expectUsage(await run(home, ['approvals', 'show', 'transaction-1']), '<request-id>: "transaction-1" is not a request id');
  });
});

describe('payctl approvals approve', () => {
  it("an agent's refund above the rule waits; a person on this machine types the amount back (a wrong one is asked again); sent once, through the ledger", async ({ home }) => {
    const sale = await createCard(home, '1000.00');
    const rule = await addRule(home, { actor: 'agent', kind: 'above', amount_cents: 50_000 });
    const asked = await run(home, ['transactions', 'refund', sale.id, '--amount', '600', '--yes'], { env: { PAYCTL_ACTOR: 'agent' } });
    expect(asked.code, asked.stderr).toBe(13);
    expect(asked.stderr).toContain(`(rule ${rule}: refunds above R$ 500,00 by AI agents need approval); nothing was sent`);
    const request = z.parse(waitingRequest, JSON.parse(asked.stdout));
    expect(request).toMatchObject({ state: 'pending', requester: holder, requester_kind: 'agent', amount_cents: 60_000, replay: ['transactions', 'refund', sale.id, '--amount-cents', '60000'] });
    expect(voids(await getTx(home, sale.id))).toBe(0);
    expect((await run(home, ['config', 'set', 'operator_name', 'Bia Costa'])).code).toBe(0);
    const approved = await converse(['approvals', 'approve', request.id], home, [
      { prompt: /Type the amount \(R\$ 600,00\) to approve/, keys: `500,00${KEY.enter}` },
      { prompt: /type R\$ 600,00/, keys: `${'\x7f'.repeat(6)}600,00${KEY.enter}` },
    ]);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stderr).toContain(request.summary);
    expect(approved.stderr).toContain(`Request ${request.id} approved by you and sent`);
    const tx = await getTx(home, sale.id);
    expect([tx.amount, voids(tx)]).toEqual(['400.00', 1]);
    const done = await status(home, request.id);
    expect(done).toMatchObject({ state: 'sent', decided_by: holder, decided_by_name: 'Bia Costa', intent_id: expect.any(Number), intent_state: 'applied' });
    const intents = z.parse(ledgerList, JSON.parse((await run(home, ['ledger', 'list', '--transaction', sale.id])).stdout));
    expect(intents.filter((i) => i.action === 'refund').map((i) => [i.id, i.amount, i.state])).toEqual([[done.intent_id, '600.00', 'applied']]);

    // Decided: approving again sends nothing.
    const again = await converse(['approvals', 'approve', request.id], home, []);
    expectError(again, 4, `request ${request.id} was already approved by Bia Costa (${holder})`, 'and sent');
    expect(voids(await getTx(home, sale.id))).toBe(1);
  });

  it('two approvers at once: one takes it and sends it, the other is told who took it; one void', async ({ home }) => {
    const sale = await createCard(home, '1000.00');
    const request = await agentRefund(home, sale.id, 60_000);
    const both = await Promise.all([0, 1].map(() => converse(['approvals', 'approve', request.id], home, [{ prompt: /Type the amount/, keys: `600,00${KEY.enter}` }])));
    expect(both.map((r) => r.code).sort(), both.map((r) => r.stderr).join('\n')).toEqual([0, 4]);
    expect(oneLine(both.find((r) => r.code === 4)!.stderr)).toMatch(new RegExp(`error: request ${request.id} was already approved by ${holder}( at [^;]*)?(, who is sending it| and sent[^;]*); nothing was sent by you`));
    const tx = await getTx(home, sale.id);
    expect([tx.amount, voids(tx)]).toEqual(['400.00', 1]);
  });

  it('refuses anyone but a person on a terminal: prompts off, an agent, --dry-run (exit 2), nothing sent', async ({ home }) => {
    const sale = await createCard(home, '1000.00');
    const request = await agentRefund(home, sale.id, 60_000);
    expectUsage(await run(home, ['approvals', 'approve', request.id]), 'approving needs a person on a terminal (neither stdin nor stdout is a terminal)');
    expectUsage(await run(home, ['approvals', 'approve', request.id, '--yes', '--no-input'], { tty: true }), 'approving needs a person on a terminal (--no-input was given)');
    expectUsage(await run(home, ['approvals', 'approve', request.id], { tty: true, env: { CLAUDECODE: '1' } }), "an AI agent's shell (CLAUDECODE is set) cannot approve a request");
    expectUsage(await run(home, ['approvals', 'deny', request.id, '--reason', 'no'], { env: { PAYCTL_ACTOR: 'agent' } }), "an AI agent's shell (PAYCTL_ACTOR=agent) cannot deny a request");
    expectUsage(await run(home, ['approvals', 'approve', request.id, '--dry-run'], { tty: true }), '--dry-run cannot approve');
    expectUsage(await run(home, ['approvals', 'approve'], { tty: true }), "give the request's id (apr_…) or --batch <name>");
    expect(await status(home, request.id)).toMatchObject({ state: 'pending' });
    expect(voids(await getTx(home, sale.id))).toBe(0);
  });

  it("a person's request on this machine's own ledger: four eyes need a shared ledger (exit 2)", async ({ home }) => {
    const sale = await createCard(home, '1000.00');
    const request = await requestRefund(home, {}, sale.id, 60_000);
    const refused = await converse(['approvals', 'approve', request.id], home, []);
    expectError(refused, 2, `request ${request.id} was made by ${holder}, a person: four eyes need a second person, so a ledger the team shares ('payctl config set ledger_url postgres://…' on every operator's machine); this machine's own ledger (`, 'is only ever one person\'s');
    expectError(await run(home, ['approvals', 'deny', request.id, '--reason', 'no']), 2, 'four eyes need a second person');
    expect(await status(home, request.id)).toMatchObject({ state: 'pending' });
  });

  it('the sale refunded elsewhere meanwhile: the command says why, the request is failed, nothing more is sent (exit 6)', async ({ home }) => {
    const sale = await createCard(home, '1000.00');
    const request = await agentRefund(home, sale.id, 60_000);
    expect((await run(home, ['transactions', 'refund', sale.id, '--amount', '700.00', '--yes'])).code).toBe(0);
    const late = await converse(['approvals', 'approve', request.id], home, [{ prompt: /Type the amount/, keys: `600,00${KEY.enter}` }]);
    expect(late.code, late.stderr).toBe(6);
    expect(oneLine(late.stderr)).toContain(`error: request ${request.id} failed, and is marked so: R$ 600,00 is more than the R$ 300,00 left to refund on transaction ${sale.id}; it was already refunded R$ 700,00 by payctl`);
    expect(await status(home, request.id)).toMatchObject({ state: 'failed', decided_by: holder, intent_id: null, reason: expect.stringContaining('R$ 300,00 left to refund') });
    const tx = await getTx(home, sale.id);
    expect([tx.amount, voids(tx)]).toEqual(['300.00', 1]);
  });

  it('expired: refused naming when; denied: refused naming who and why', async ({ home }) => {
    const sale = await createCard(home, '1000.00');
    const expired = await agentRefund(home, sale.id, 60_000, { expiresInMs: -1000 });
    expectError(await converse(['approvals', 'approve', expired.id], home, []), 4, `request ${expired.id} expired at `, 'undecided; nothing was sent');
    expect(await status(home, expired.id)).toMatchObject({ state: 'expired' });

    // A buyer's name is what a buyer typed: nothing in it acts on the terminal.
    const denied = await agentRefund(home, sale.id, 10_000, { summary: `Refund R$ 100,00 of transaction ${sale.id} (Visa ••••1111, Maria\u001b]0;pwned\u0007 Silva\u001b[2J)` });
    expectUsage(await run(home, ['approvals', 'deny', denied.id]), '--reason');
    expectUsage(await run(home, ['approvals', 'deny', denied.id, '--reason', ' \u001b[2J ']), '--reason: say why');
    const ok = await run(home, ['approvals', 'deny', denied.id, '--reason', 'refund agreed\nat R$ 50\u001b[31m']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toBe(`Denied request ${denied.id} (Refund R$ 100,00 of transaction ${sale.id} (Visa ••••1111, Maria Silva)): nothing was sent.\n`);
    expect(await status(home, denied.id)).toMatchObject({ state: 'denied', decided_by: holder, reason: 'refund agreed at R$ 50' });
    expectError(await converse(['approvals', 'approve', denied.id], home, []), 4, `request ${denied.id} was denied by ${holder}`, 'refund agreed at R$ 50');
    expect(voids(await getTx(home, sale.id))).toBe(0);
  });

  it('an approver whose command died after taking a request approves again: it finishes, and the ledger sends it once', async ({ home }) => {
    const sale = await createCard(home, '1000.00');
    const request = await agentRefund(home, sale.id, 60_000);
    // Taken, then the refund sent, then the command died before it settled the request.
    expect((await withBook(home, (book, now) => book.approve(request.id, PERSON, now))).ok).toBe(true);
    expect((await run(home, ['transactions', 'refund', sale.id, '--amount-cents', '60000', '--yes'])).code).toBe(0);
    const resumed = await converse(['approvals', 'approve', request.id], home, [{ prompt: /Type the amount/, keys: `600${KEY.enter}` }]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`you approved request ${request.id} at`);
    expect(await status(home, request.id)).toMatchObject({ state: 'sent', intent_id: expect.any(Number) });
    const tx = await getTx(home, sale.id);
    expect([tx.amount, voids(tx)]).toEqual(['400.00', 1]);
  });

  it("--batch: an agent's bulk refund waits; the count and total first, the total typed once, a line each; exit 10 when one failed", async ({ home }) => {
    const sales = [await createCard(home, '100.00'), await createCard(home, '100.00'), await createCard(home, '100.00')];
    await addRule(home, { actor: 'agent', kind: 'above', amount_cents: 5_000 });
    const file = join(home, 'refunds-nov.csv');
    writeFileSync(file, `id;amount\n${sales.map((sale) => `${sale.id};60,00`).join('\n')}\n`);
    const bulk = await run(home, ['transactions', 'refund', '--file', file, '--yes', '--concurrency', '1'], { env: { PAYCTL_ACTOR: 'agent' } });
    expect(bulk.code, bulk.stderr).toBe(10);
    const requests = bulk.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { status: string; request: string });
    expect(requests.map((r) => r.status)).toEqual(['waiting_approval', 'waiting_approval', 'waiting_approval']);
    expect(voids(await getTx(home, sales[0]!.id))).toBe(0);
    // Meanwhile the second sale is refunded in full elsewhere.
    expect((await run(home, ['transactions', 'refund', sales[1]!.id, '--yes'])).code).toBe(0);
    const ran = await converse(['approvals', 'approve', '--batch', 'refunds-nov.csv', '-o', 'ndjson'], home, [{ prompt: /Type the amount \(R\$ 180,00\) to approve/, keys: `180,00${KEY.enter}` }]);
    expect(ran.code, ran.stderr).toBe(10);
    expect(ran.stderr).toContain(`Batch refunds-nov.csv: 3 requests, R$ 180,00 in all, asked by an AI agent (shell: PAYCTL_ACTOR=agent) as ${holder}.`);
    const lines = ran.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.id, l.state, l.row])).toEqual([
      [requests[0]!.request, 'sent', 1],
      [requests[1]!.request, 'failed', 2],
      [requests[2]!.request, 'sent', 3],
    ]);
    expect(lines[1].reason).toContain('left to refund');
    expect(ran.stderr).toContain('Sent 2 of 3 requests (R$ 120,00); 1 failed.');
    const after = await Promise.all(sales.map((s) => getTx(home, s.id)));
    expect(after.map((tx) => [tx.amount, voids(tx)])).toEqual([
      ['40.00', 1],
      ['0.00', 1],
      ['40.00', 1],
    ]);
  });
});

describe('typing the amount back', () => {
  it.for([
    ['600,00', true],
    ['600.00', true],
    ['600', true],
    ['R$ 600,00', true],
    ['R$600,00', true],
    ['600,01', false],
    ['60000', false],
    ['', false],
  ] as const)('%s for R$ 600,00: %s', ([typed, ok]) => {
    expect(typedAmount(typed, 60_000)).toBe(ok);
  });
  it('thousands as written in Brazil', () => {
    expect(typedAmount('1.234,56', 123_456)).toBe(true);
    expect(typedAmount('1234,56', 123_456)).toBe(true);
  });
});
