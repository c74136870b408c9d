import { describe, expect } from 'vitest';
import type { CallToolResult, ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { it } from '../helpers/fixtures.js';
import { converse, KEY } from '../helpers/interactive.js';
import { startMcp, type McpOptions, type McpSession } from '../helpers/mcp.js';
import { addRule } from '../helpers/policy.js';
import { serveSandbox } from '../helpers/serve.js';
import { createCard, getTx, run } from '../commands/helpers.js';
import type { Transaction } from '../../src/sandbox/types.js';

// An agent's money moves through `payctl mcp`, driven by the SDK's own client over its stdio
// transport (bin/payctl.js spawned), against the embedded sandbox and `sandbox serve --faults`:
// every move waits for a person unless a rule lets the person at the client confirm it; a person
// approves with the CLI on a terminal; the ledger makes a repeated call a no-op and settles a lost
// answer. Each case counts the sale's voids in the sandbox, not only what the tool said.

const voids = (tx: Transaction) => tx.history.filter((h) => h.operation_type === 'void' && h.status === 'succeeded').length;
const textOf = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
const requestIdIn = (result: CallToolResult) => /apr_[a-z2-9]{8}/.exec(textOf(result))?.[0];

async function withMcp<T>(options: McpOptions, work: (session: McpSession) => Promise<T>): Promise<T> {
  const session = await startMcp({ args: ['--allow', 'refunds'], ...options });
  try {
    return await work(session);
  } finally {
    await session.close();
  }
}

const refund = (session: McpSession, id: string, amountCents: number) =>
  session.client.callTool({ name: 'transactions_refund', arguments: { id, amount_cents: amountCents } }) as Promise<CallToolResult>;

/** A person at the client who answers each confirmation `answer`, and what they were shown. */
function personAnswering(action: 'accept' | 'decline' | 'cancel', confirm = true): { onElicit: McpOptions['onElicit']; shown: ElicitRequest['params'][] } {
  const shown: ElicitRequest['params'][] = [];
  return {
    shown,
    onElicit: (request) => {
      shown.push(request.params);
      return action === 'accept' ? { action, content: { confirm } } : { action };
    },
  };
}

describe('payctl mcp: an agent refunds', () => {
  it('with no rule: an approval request, the same one however often it is called, 0 voids; a person approves it on a terminal: exactly 1 void, and the agent polls it sent', async ({ home }) => {
    const sale = await createCard(home, '100.00');
    await withMcp({ home, clientName: 'claude-code' }, async (session) => {
      const ids = [];
      for (let call = 0; call < 3; call += 1) {
        const result = await refund(session, sale.id, 3_000);
        expect(result.isError, textOf(result)).toBe(true);
        expect(textOf(result)).toContain('payctl approvals approve apr_');
        expect(result.structuredContent).toMatchObject({ outcome: 'waiting_for_approval', request: { id: requestIdIn(result), state: 'pending' } });
        ids.push(requestIdIn(result));
      }
      const id = ids[0]!;
      expect(ids).toEqual([id, id, id]);
      expect(voids(await getTx(home, sale.id))).toBe(0);

      const listed = JSON.parse((await run(home, ['approvals', 'list'])).stdout) as Record<string, unknown>[];
      expect(listed).toMatchObject([{ id, state: 'pending', requester_kind: 'agent', requester_agent: 'claude-code', amount: '30.00', command: `payctl transactions refund ${sale.id} --amount-cents 3000` }]);

      const approved = await converse(['approvals', 'approve', id], home, [{ prompt: /Type the amount \(R\$ 30,00\) to approve/, keys: `30,00${KEY.enter}` }]);
      expect(approved.code, approved.stderr).toBe(0);
      expect(approved.stderr).toContain(`an AI agent (claude-code) as `);
      expect(voids(await getTx(home, sale.id))).toBe(1);

      const polled = (await session.client.callTool({ name: 'approvals_status', arguments: { request_id: id } })) as CallToolResult;
      expect(polled.isError, textOf(polled)).toBeFalsy();
      expect(polled.structuredContent).toMatchObject({ id, state: 'sent', intent_state: 'applied' });
      // Called again after it was sent: nothing more moves, and the agent is told it is done.
      const after = await refund(session, sale.id, 3_000);
      expect(after.isError, textOf(after)).toBeFalsy();
      expect(after.structuredContent).toMatchObject({ outcome: 'already_done', transaction: { id: sale.id, amount: '70.00' } });
      expect(voids(await getTx(home, sale.id))).toBe(1);
    });
  }, 60_000);

  it('within a rule the client may confirm: accepted, 1 void however often it is called; declined, 0 voids; asked with the amount, card and buyer', async ({ home }) => {
    await addRule(home, { actor: 'agent', kind: 'above', amount_cents: 5_000, confirm_up_to_cents: 5_000 });
    const [yes, no] = [await createCard(home, '100.00'), await createCard(home, '100.00')];
    const accepting = personAnswering('accept');
    await withMcp({ home, onElicit: accepting.onElicit }, async (session) => {
      const results = [await refund(session, yes.id, 3_000), await refund(session, yes.id, 3_000), await refund(session, yes.id, 3_000)];
      expect(results[0]!.isError, textOf(results[0]!)).toBeFalsy();
      expect(results[0]!.structuredContent).toMatchObject({ outcome: 'applied', transaction: { id: yes.id, amount: '70.00' } });
      for (const repeat of results.slice(1)) expect(repeat.structuredContent).toMatchObject({ outcome: 'already_done', transaction: { id: yes.id } });
      expect(voids(await getTx(home, yes.id))).toBe(1);
      expect(accepting.shown).toHaveLength(1);
      expect(accepting.shown[0]).toMatchObject({ mode: 'form', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } });
      expect(accepting.shown[0]!.message).toContain(`Refund R$ 30,00 of transaction ${yes.id} (Visa ••••1111, Maria Silva)`);
    });
    const declining = personAnswering('decline');
    await withMcp({ home, onElicit: declining.onElicit }, async (session) => {
      const result = await refund(session, no.id, 3_000);
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ outcome: 'refused' });
      expect(textOf(result)).toContain("the person at the agent's client (payctl-test-agent) declined it; nothing was sent");
      expect(declining.shown).toHaveLength(1);
    });
    // Confirmed without confirm true is no confirmation.
    await withMcp({ home, onElicit: personAnswering('accept', false).onElicit }, async (session) => {
      expect(textOf(await refund(session, no.id, 3_000))).toContain('declined it; nothing was sent');
    });
    expect(voids(await getTx(home, no.id))).toBe(0);
    // A client that cannot ask: the approval request.
    await withMcp({ home }, async (session) => {
      const result = await refund(session, no.id, 3_000);
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ outcome: 'waiting_for_approval', request: { id: requestIdIn(result), state: 'pending' } });
    });
    expect(voids(await getTx(home, no.id))).toBe(0);
  }, 60_000);

  it("an agents' daily limit reached: refused, nothing sent, the person not asked", async ({ home }) => {
    await addRule(home, { actor: 'agent', kind: 'daily_limit', amount_cents: 5_000, per: 'team', confirm_up_to_cents: 5_000 });
    const [first, second] = [await createCard(home, '100.00'), await createCard(home, '100.00')];
    const accepting = personAnswering('accept');
    await withMcp({ home, onElicit: accepting.onElicit }, async (session) => {
      expect((await refund(session, first.id, 4_000)).isError).toBeFalsy();
      const refused = await refund(session, second.id, 2_000);
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({ outcome: 'refused' });
      expect(textOf(refused)).toContain("would pass the team's agents' daily limit");
      expect(textOf(refused)).toContain('nothing was sent');
    });
    expect(accepting.shown).toHaveLength(1);
    expect([voids(await getTx(home, first.id)), voids(await getTx(home, second.id))]).toEqual([1, 0]);
  }, 60_000);

  it('at most 10 money tool calls a minute in a session: the 11th is refused with nothing run; reading tools are not counted', async ({ home }) => {
    const sale = await createCard(home, '100.00');
    await withMcp({ home }, async (session) => {
      for (let call = 0; call < 10; call += 1) {
        const missing = await refund(session, 'f'.repeat(32), 100);
        expect(textOf(missing)).not.toContain('too many money tool calls');
      }
      const refused = await refund(session, sale.id, 100);
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({ outcome: 'refused' });
      expect(textOf(refused)).toMatch(/too many money tool calls: at most 10 every 60 s in one payctl mcp session; nothing was run\. Call again in \d+ s/);
      const read = (await session.client.callTool({ name: 'transactions_get', arguments: { id: sale.id } })) as CallToolResult;
      expect(read.isError, textOf(read)).toBeFalsy();
    });
    const listed = JSON.parse((await run(home, ['approvals', 'list'])).stdout) as unknown[];
    expect(listed).toEqual([]);
    expect(voids(await getTx(home, sale.id))).toBe(0);
  }, 60_000);

  it('a lost answer (sandbox serve --faults late-apply): unknown, then a later call finds it applied and says so; 1 void', async ({ home }) => {
    const served = await serveSandbox('late-apply=1,late-ms=5000');
    try {
      const env = { ...served.env, PAYCTL_SETTLE_WINDOW: '10' };
      await addRule(home, { actor: 'agent', kind: 'above', amount_cents: 5_000, confirm_up_to_cents: 5_000 }, env);
      const sale = await createCard(served.home, '10.00');
      const accepting = personAnswering('accept');
      await withMcp({ home, env, args: ['--allow', 'refunds', '--timeout', '1'], onElicit: accepting.onElicit }, async (session) => {
        const lost = await refund(session, sale.id, 400);
        expect(lost.isError).toBe(true);
        expect(lost.structuredContent).toMatchObject({ outcome: 'unknown' });
        expect(voids(await getTx(served.home, sale.id))).toBe(0);
        // Past the late apply: the later call looks, finds it applied, and sends nothing.
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        const later = await refund(session, sale.id, 400);
        expect(later.isError, textOf(later)).toBeFalsy();
        expect(later.structuredContent).toMatchObject({ outcome: 'already_done', transaction: { id: sale.id, amount: '6.00' } });
        expect(accepting.shown).toHaveLength(1);
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      const after = await getTx(served.home, sale.id);
      expect([after.amount, voids(after)]).toEqual(['6.00', 1]);
    } finally {
      await served.stop();
    }
  }, 60_000);
});
