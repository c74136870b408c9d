import { PassThrough } from 'node:stream';
import { describe, expect } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { runToolCall, type CallOutcome } from '../../src/commands/mcp/call.js';
import { CliError } from '../../src/errors.js';
import { Factory } from '../../src/factory.js';
import { parseGlobals } from '../../src/globals.js';
import type { IO } from '../../src/io.js';
import type { ClientConfirmation, ConfirmAtClient } from '../../src/ledger/actor.js';
import type { Transaction } from '../../src/sandbox/types.js';
import { it } from '../helpers/fixtures.js';
import { addRule } from '../helpers/policy.js';
import { testEnv } from '../helpers/run.js';
import { currentOwner } from '../../src/platform/owner.js';
import { createCard, getTx, run } from '../commands/helpers.js';

// A money tool call as payctl mcp runs it (call.ts: the verb's command line, in-process, for an
// agent), with the person at the client stood in for: what the rules make of an agent's refund,
// counted in the sandbox's voids. The same through the SDK's client and a spawned server:
// test/mcp/agents.test.ts.

const voids = (tx: Transaction) => tx.history.filter((h) => h.operation_type === 'void' && h.status === 'succeeded').length;

/** A server's Factory on `home`, as `payctl mcp` has it. */
function serverOn(home: string): Factory {
  const stdin = new PassThrough();
  stdin.end();
  const io: IO = { stdin, stdout: new PassThrough(), stderr: new PassThrough(), stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, env: testEnv(home) };
  return new Factory(io, parseGlobals({}), (nested) => buildProgram(Object.assign(nested ?? {}, { io: nested?.io ?? io })));
}

/** A person at the client who answers `answer`, and what they were asked. */
function person(answer: Awaited<ReturnType<ConfirmAtClient>>): { confirm: ConfirmAtClient; asked: ClientConfirmation[] } {
  const asked: ClientConfirmation[] = [];
  return {
    asked,
    confirm: async (ask) => {
      asked.push(ask);
      return answer;
    },
  };
}

async function refundCall(home: string, id: string, cents: number, confirm?: ConfirmAtClient, session = 'mcp_one'): Promise<CallOutcome> {
  return runToolCall(serverOn(home), ['transactions', 'refund', `--amount-cents=${cents}`, '--', id], { name: 'test-client', session, ...(confirm ? { confirm } : {}) });
}

function exitOf(outcome: CallOutcome): number | undefined {
  return outcome.ok ? undefined : outcome.error instanceof CliError ? outcome.error.exitCode : -1;
}
const messageOf = (outcome: CallOutcome) => (outcome.ok ? '' : outcome.error instanceof Error ? outcome.error.message : String(outcome.error));

describe("an agent's refund through a tool call", () => {
  it('with no rule: an approval request (exit 13), its person never asked, nothing sent; the ledger names the client', async ({ home }) => {
    const sale = await createCard(home, '100.00');
    const client = person('accept');
    const outcome = await refundCall(home, sale.id, 3_000, client.confirm);
    expect(exitOf(outcome), messageOf(outcome)).toBe(13);
    expect(messageOf(outcome)).toMatch(/Request apr_[a-z2-9]{8}, until .*: a person approves it with payctl approvals approve apr_/);
    expect(client.asked).toEqual([]);
    expect(voids(await getTx(home, sale.id))).toBe(0);
    const [request] = JSON.parse((await run(home, ['approvals', 'list'])).stdout) as Record<string, unknown>[];
    expect(request).toMatchObject({ requester_kind: 'agent', requester_agent: 'test-client', amount: '30.00' });
  });

  it('within a rule that lets the client confirm: accepted, sent once (the ledger names the agent); declined or cancelled, refused (exit 4); a client that cannot ask, a request', async ({ home }) => {
    await addRule(home, { actor: 'agent', kind: 'above', amount_cents: 5_000, confirm_up_to_cents: 5_000 });
    const [accepted, declined, cancelled, cannot] = [await createCard(home, '100.00'), await createCard(home, '100.00'), await createCard(home, '100.00'), await createCard(home, '100.00')];

    const yes = person('accept');
    const sent = await refundCall(home, accepted.id, 3_000, yes.confirm);
    expect(sent.ok, messageOf(sent)).toBe(true);
    expect(yes.asked).toEqual([{ summary: `Refund R$ 30,00 of transaction ${accepted.id} (Visa ••••1111, Maria Silva)`, amountCents: 3_000, currency: 'BRL' }]);
    expect(voids(await getTx(home, accepted.id))).toBe(1);
    const intents = JSON.parse((await run(home, ['ledger', 'list', '--transaction', accepted.id])).stdout) as Record<string, unknown>[];
    expect(intents.map((i) => [i.state, i.agent])).toEqual([['applied', 'test-client']]);
    const table = await run(home, ['ledger', 'list', '--no-color'], { tty: true, columns: 200 });
    expect(table.stdout).toContain(`${currentOwner().holder}, agent test-client`);
    // The same call again (an agent retrying): nothing more is sent.
    const retried = await refundCall(home, accepted.id, 3_000, yes.confirm);
    expect(exitOf(retried)).toBe(11);
    expect(messageOf(retried)).toContain('It is already done: an AI agent does not send it again (only a person can, on a terminal, with --again)');
    expect(voids(await getTx(home, accepted.id))).toBe(1);

    const no = await refundCall(home, declined.id, 3_000, person('decline').confirm);
    expect(exitOf(no)).toBe(4);
    expect(messageOf(no)).toBe(`Refund R$ 30,00 of transaction ${declined.id} (Visa ••••1111, Maria Silva): the person at the agent's client (test-client) declined it; nothing was sent`);
    const gone = await refundCall(home, cancelled.id, 3_000, person('cancel').confirm);
    expect(exitOf(gone)).toBe(4);
    expect(messageOf(gone)).toContain('did not confirm it (cancelled, or no answer in time); nothing was sent');
    const request = await refundCall(home, cannot.id, 3_000, person('unsupported').confirm);
    expect(exitOf(request)).toBe(13);
    expect(messageOf(request)).toContain("the agent's client cannot ask its person to confirm");
    for (const sale of [declined, cancelled, cannot]) expect(voids(await getTx(home, sale.id))).toBe(0);

    // Above what the client may confirm: a request, and its person is not asked.
    const over = person('accept');
    expect(exitOf(await refundCall(home, cannot.id, 6_000, over.confirm))).toBe(13);
    expect(over.asked).toEqual([]);
  });

  it("an agents' daily limit reached: refused before its person is asked, nothing sent", async ({ home }) => {
    const limit = await addRule(home, { actor: 'agent', kind: 'daily_limit', amount_cents: 5_000, per: 'team', confirm_up_to_cents: 5_000 });
    const [first, second] = [await createCard(home, '100.00'), await createCard(home, '100.00')];
    const client = person('accept');
    expect((await refundCall(home, first.id, 4_000, client.confirm)).ok).toBe(true);
    const refused = await refundCall(home, second.id, 2_000, client.confirm);
    expect(exitOf(refused)).toBe(4);
    expect(messageOf(refused)).toContain(`would pass the team's agents' daily limit (rule ${limit}: refunds by AI agents: at most R$ 50,00 a day for the whole team; up to R$ 50,00 the person at the agent's client confirms instead); R$ 10,00 is left today`);
    expect(client.asked).toHaveLength(1);
    expect([voids(await getTx(home, first.id)), voids(await getTx(home, second.id))]).toEqual([1, 0]);
  });

  it('a limit per session counts what one payctl mcp session sent: another session has its own; the ledger records each', async ({ home }) => {
    const limit = await addRule(home, { actor: 'agent', kind: 'daily_limit', amount_cents: 5_000, per: 'session', confirm_up_to_cents: 5_000 });
    const [first, second] = [await createCard(home, '100.00'), await createCard(home, '100.00')];
    const client = person('accept');
    expect((await refundCall(home, first.id, 4_000, client.confirm, 'mcp_aaaa')).ok).toBe(true);
    const refused = await refundCall(home, second.id, 2_000, client.confirm, 'mcp_aaaa');
    expect(exitOf(refused)).toBe(4);
    expect(messageOf(refused)).toContain(`would pass this payctl mcp session's daily limit (rule ${limit}: refunds by AI agents: at most R$ 50,00 a day in each payctl mcp session`);
    const other = await refundCall(home, second.id, 2_000, client.confirm, 'mcp_bbbb');
    expect(other.ok, messageOf(other)).toBe(true);
    expect([voids(await getTx(home, first.id)), voids(await getTx(home, second.id))]).toEqual([1, 1]);
    const intents = JSON.parse((await run(home, ['ledger', 'list'])).stdout) as Record<string, unknown>[];
    expect(intents.filter((i) => i.action === 'refund').map((i) => i.session).sort()).toEqual(['mcp_aaaa', 'mcp_bbbb']);
  });
});
