import { describe, expect, it } from 'vitest';
import { CallRate, rateRefusal } from '../../src/commands/mcp/rate.js';
import { confirmAtClient } from '../../src/commands/mcp/confirm.js';

// The two bounds payctl mcp puts on an agent's money calls beside the ledger and the rules: how
// fast it may call (a sliding window, on an injected clock), and the person at its client
// confirming a move by MCP elicitation (a stand-in for the SDK's server: what it is asked, and
// each way it can answer).

describe('the rate of money tool calls', () => {
  it('lets 10 through in a minute, refuses the 11th saying when to call again, and frees a slot as the window slides', () => {
    let now = 1_000_000;
    const rate = new CallRate(10, 60_000, () => now);
    for (let i = 0; i < 10; i += 1) {
      expect(rate.take()).toEqual({ ok: true });
      now += 1_000;
    }
    expect(rate.take()).toEqual({ ok: false, retryInMs: 50_000 });
    expect(rateRefusal(rate, 50_000)).toBe('too many money tool calls: at most 10 every 60 s in one payctl mcp session; nothing was run. Call again in 50 s');
    now = 1_000_000 + 60_000;
    expect(rate.take()).toEqual({ ok: true });
    expect(rate.take().ok).toBe(false);
  });
});

const ASK = { summary: 'Refund R$ 30,00 of transaction t1 (MasterCard ••••4444, Joana Pereira)\u001b[2J', amountCents: 3_000, currency: 'BRL' };

function serverAnswering(answer: () => Promise<unknown>, capabilities: Record<string, unknown> | undefined = { elicitation: { form: {} } }) {
  const asked: unknown[] = [];
  return {
    asked,
    server: {
      getClientCapabilities: () => capabilities,
      elicitInput: async (params: unknown, options: unknown) => {
        asked.push({ params, options });
        return answer();
      },
    } as never,
  };
}

describe('the confirmation at the client', () => {
  it('asks with the move in words (amount, card, buyer, cleaned) and one boolean, waiting at most 120 s; only confirm true accepts', async () => {
    const { server, asked } = serverAnswering(async () => ({ action: 'accept', content: { confirm: true } }));
    expect(await confirmAtClient(server, () => 'claude-code')(ASK)).toBe('accept');
    expect(asked).toEqual([
      {
        params: {
          mode: 'form',
          message: 'An AI agent (claude-code) asks to send this money move through payctl:\n\nRefund R$ 30,00 of transaction t1 (MasterCard ••••4444, Joana Pereira)\n\nNothing is sent unless you confirm it.',
          requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Send it', description: expect.stringContaining('Joana Pereira') } }, required: ['confirm'] },
        },
        options: { timeout: 120_000 },
      },
    ]);
    for (const content of [{ confirm: false }, {}, undefined]) {
      expect(await confirmAtClient(serverAnswering(async () => ({ action: 'accept', content })).server, () => 'c')(ASK)).toBe('decline');
    }
  });

  it('declined, cancelled, no answer in time or a broken client send nothing; a client that cannot ask says so', async () => {
    const confirm = (answer: () => Promise<unknown>, capabilities?: Record<string, unknown>) => confirmAtClient(serverAnswering(answer, capabilities).server, () => 'c')(ASK);
    expect(await confirm(async () => ({ action: 'decline' }))).toBe('decline');
    expect(await confirm(async () => ({ action: 'cancel' }))).toBe('cancel');
    expect(await confirm(async () => Promise.reject(Object.assign(new Error('Request timed out'), { code: -32001 })))).toBe('cancel');
    expect(await confirm(async () => Promise.reject(Object.assign(new Error('Method not found'), { code: -32601 })))).toBe('unsupported');
    expect(await confirm(async () => ({ action: 'accept', content: { confirm: true } }), {})).toBe('unsupported');
    expect(await confirm(async () => ({ action: 'accept', content: { confirm: true } }), { elicitation: { url: {} } })).toBe('unsupported');
  });
});
