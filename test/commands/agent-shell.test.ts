import { describe, expect } from 'vitest';
import * as z from 'zod/mini';
import { it } from '../helpers/fixtures.js';
import { converse, KEY } from '../helpers/interactive.js';
import { approvalList, ledgerList, waitingRequest } from '../helpers/printed.js';
import { addRule } from '../helpers/policy.js';
import { currentOwner } from '../../src/platform/owner.js';
import { createCard, expectError, expectUsage, getTx, run } from './helpers.js';
import type { Transaction } from '../../src/sandbox/types.js';

// The CLI run from an AI agent's shell (PAYCTL_ACTOR=agent, as CLAUDECODE and the others) is an
// agent: its every money move waits for a person unless a rule lets a client confirm it (a shell
// has no client to ask), its blocks and daily limits refuse with nothing sent, it never forces a
// repeat (--again), and it never approves. In-process against the embedded sandbox; each case
// counts the sale's voids.

const holder = currentOwner().holder;
const AGENT = { env: { PAYCTL_ACTOR: 'agent' } };
const voids = (tx: Transaction) => tx.history.filter((h) => h.operation_type === 'void' && h.status === 'succeeded').length;
const refund = (home: string, id: string, ...args: string[]) => run(home, ['transactions', 'refund', id, ...args, '--yes', '-o', 'json'], AGENT);

describe("an agent's shell", () => {
  it('a refund with no rule at all is a request (exit 13), recorded as the agent; a rerun finds it; a person approves it, once', async ({ home }) => {
    const sale = await createCard(home, '100.00');
    const asked = await refund(home, sale.id, '--amount', '30');
    expect(asked.code, asked.stderr).toBe(13);
    expect(asked.stderr).toContain("needs a person's approval (every money move by an AI agent needs a person's approval unless a rule lets the person at its client confirm it); nothing was sent");
    const request = z.parse(waitingRequest, JSON.parse(asked.stdout));
    expect(request).toMatchObject({ requester: holder, requester_kind: 'agent', rule_id: null, amount_cents: 3_000 });
    expect(asked.stderr).toContain(`payctl approvals approve ${request.id}`);
    const again = await refund(home, sale.id, '--amount', '30');
    expect(again.code).toBe(13);
    expect(JSON.parse(again.stdout)).toMatchObject({ id: request.id });
    expect(again.stderr).toContain('asked before, still pending');
    expect(voids(await getTx(home, sale.id))).toBe(0);

    const listed = z.parse(approvalList, JSON.parse((await run(home, ['approvals', 'list'])).stdout));
    expect(listed.map((r) => [r.id, r.requester_kind, (r as Record<string, unknown>).requester_agent])).toEqual([[request.id, 'agent', 'shell: PAYCTL_ACTOR=agent']]);
    const shown = JSON.parse((await run(home, ['approvals', 'show', request.id])).stdout) as Record<string, unknown>;
    expect(shown).toMatchObject({ requester_agent: 'shell: PAYCTL_ACTOR=agent', rule: null, rule_text: "every money move by an AI agent needs a person's approval unless a rule lets the person at its client confirm it" });
    const table = await run(home, ['approvals', 'list', '--no-color'], { tty: true, columns: 200 });
    expect(table.stdout).toContain(`${holder}, an agent's shell`);

    // Approving needs a person on a terminal: never PAYCTL_ACTOR=agent, even on one.
    expectUsage(await run(home, ['approvals', 'approve', request.id], { tty: true, ...AGENT }), "an AI agent's shell (PAYCTL_ACTOR=agent) cannot approve a request");
    const approved = await converse(['approvals', 'approve', request.id], home, [{ prompt: /Type the amount \(R\$ 30,00\) to approve/, keys: `30${KEY.enter}` }]);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stderr).toContain(`asked by an AI agent (shell: PAYCTL_ACTOR=agent) as ${holder}`.replace('asked', 'Asked'));
    expect(voids(await getTx(home, sale.id))).toBe(1);
    // The applied refund was the approver's: the ledger names the person, not the agent.
    const intents = z.parse(ledgerList, JSON.parse((await run(home, ['ledger', 'list', '--transaction', sale.id])).stdout));
    expect(intents.map((i) => [i.state, (i as Record<string, unknown>).agent])).toEqual([['applied', null]]);
  });

  it('a rule that lets the client confirm still makes a request: a shell has no client to ask', async ({ home }) => {
    const sale = await createCard(home, '100.00');
    const rule = await addRule(home, { actor: 'agent', kind: 'above', amount_cents: 5_000, confirm_up_to_cents: 5_000 });
    const asked = await refund(home, sale.id, '--amount', '30');
    expect(asked.code, asked.stderr).toBe(13);
    expect(asked.stderr).toContain(`(rule ${rule}: refunds above R$ 50,00 by AI agents need approval; up to R$ 50,00 the person at the agent's client confirms instead; the agent's client cannot ask its person to confirm)`);
    expect(voids(await getTx(home, sale.id))).toBe(0);
  });

  it('a block, or a daily limit for agents already used, refuses (exit 4), nothing sent and nothing asked', async ({ home }) => {
    const sale = await createCard(home, '100.00');
    const limit = await addRule(home, { actor: 'agent', kind: 'daily_limit', amount_cents: 2_000, per: 'operator' });
    expectError(await refund(home, sale.id, '--amount', '30'), 4, `would pass ${holder}'s agents' daily limit (rule ${limit}: refunds by AI agents: at most R$ 20,00 a day for each operator)`, 'nothing was sent');
    // A person's refunds do not count toward the agents' limit, nor does it hold them.
    expect((await run(home, ['transactions', 'refund', sale.id, '--amount', '30', '--yes'])).code).toBe(0);
    const block = await addRule(home, { actor: 'agent', kind: 'block' });
    const other = await createCard(home, '100.00');
    expectError(await refund(home, other.id, '--amount', '10'), 4, `not permitted by the team's policy (rule ${block}: refunds by AI agents are blocked); nothing was sent`);
    expect([voids(await getTx(home, sale.id)), voids(await getTx(home, other.id))]).toEqual([1, 0]);
    expect(z.parse(approvalList, JSON.parse((await run(home, ['approvals', 'list'])).stdout))).toEqual([]);
  });

  it('--again is refused (exit 4): only a person can force a repeat', async ({ home }) => {
    const sale = await createCard(home, '100.00');
    expect((await run(home, ['transactions', 'refund', sale.id, '--amount', '10', '--yes'])).code).toBe(0);
    for (const env of [{ PAYCTL_ACTOR: 'agent' }, { CLAUDECODE: '1' }]) {
      const forced = await run(home, ['transactions', 'refund', sale.id, '--amount', '10', '--yes', '--again'], { env });
      expectError(forced, 4, 'cannot force a repeat of a money move; only a person can', 'Nothing was sent');
    }
    expect(voids(await getTx(home, sale.id))).toBe(1);
  });
});
