// What payctl mcp's tools return, mapped in-process from what a call's verb did (its printed
// -o json, or the typed error it threw) and what the ledger says: the outcome envelope of money
// tools, the pages of list tools and their cursors, and every tool's outputSchema, compiled and
// checked by the SDK's own validator as its client does.
import { PassThrough } from 'node:stream';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { ApiError, ApprovalPendingError, CancelledError, CliError, DeclinedAtClientError, ExitCode, NotAllowedError, OutcomeUnknownError, PolicyRefusedError, ProbableDuplicateError, UsageError } from '../../src/errors.js';
import type { CallOutcome } from '../../src/commands/mcp/call.js';
import { outputSchemaOf } from '../../src/commands/mcp/output-schema.js';
import { cursorAt, pageAsked, pageResult } from '../../src/commands/mcp/paging.js';
import { moneyEnvelope, readResult, type Reader } from '../../src/commands/mcp/result.js';
import { checkArguments, commandLine, toolsOf, type ToolSpec } from '../../src/commands/mcp/tool-spec.js';
import { currentOwner } from '../../src/platform/owner.js';

const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, env: {} };
const tools = toolsOf(buildProgram({ io }));
const tool = (name: string): ToolSpec => {
  const found = tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
};
const validator = new AjvJsonSchemaValidator();

const SALE = {
  id: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
  resource: 'transaction',
  status: 'succeeded',
  amount: '70.00',
  original_amount: '100.00',
  currency: 'BRL',
  payment_type: 'credit',
  payment_method: { resource: 'card', card_brand: 'MasterCard', first4_digits: '5555', last4_digits: '4444', holder_name: 'Joana Pereira' },
  provider_added_this: { anything: true },
};

/** A refund of R$ 30,00 the ledger recorded (intent 7), as `ledger list -o json` prints it. */
const REFUND = { id: 7, created_at: '2026-11-28T14:02:11Z', holder: 'ana@caixa-2', operator_name: 'Ana Souza', pid: 4242, operation: 'transactions.void', target: SALE.id, amount: '30.00', state: 'applied' };
/** The same refund written by this process (the server's call made it). */
const MINE = { ...REFUND, holder: currentOwner().holder, operator_name: null, pid: process.pid };

/** A reader answering `ledger list` with `moves` and `transactions get` with the sale; it records what it was asked. */
function reader(moves: unknown[], asked: string[][] = []): Reader {
  return async (words) => {
    asked.push(words);
    if (words[0] === 'ledger') return { ok: true, value: words.includes('--limit=1') ? moves.slice(0, 1) : moves, diagnostics: '' };
    if (words[0] === 'transactions' && words[1] === 'get') return { ok: true, value: SALE, diagnostics: '' };
    return { ok: false, error: new UsageError('not expected'), printed: undefined, diagnostics: '' };
  };
}

const refundCall = { tool: tool('transactions_refund'), args: { id: SALE.id, amount: '30' } };
const failedWith = (error: unknown): CallOutcome => ({ ok: false, error, printed: undefined, diagnostics: '' });

/** Checks a money envelope against the refund tool's outputSchema, as the SDK's client does. */
function checked(body: unknown): void {
  const result = validator.getValidator(outputSchemaOf(tool('transactions_refund')) as never)(body);
  expect(result.errorMessage, JSON.stringify(body)).toBeUndefined();
  expect(result.valid).toBe(true);
}

describe('money tools: the outcome envelope', () => {
  it('a move this call made is applied, said as a person reads it', async () => {
    const body = await moneyEnvelope(refundCall, { ok: true, value: SALE, diagnostics: '' }, 6, reader([MINE]));
    expect(body).toMatchObject({ outcome: 'applied', transaction: SALE });
    expect(body.message).toContain('R$ 30,00 refunded of R$ 100,00 (MasterCard ••••4444, Joana Pereira)');
    checked(body);
  });

  it("another's move on the same sale meanwhile is never taken for this call's: already_done, naming who made it", async () => {
    const body = await moneyEnvelope(refundCall, { ok: true, value: SALE, diagnostics: '' }, 6, reader([REFUND]));
    expect(body).toMatchObject({ outcome: 'already_done', done_by: 'Ana Souza (ana@caixa-2)' });
  });

  it('a retry that sent nothing is already_done with the sale and when and by whom; every retry returns the same', async () => {
    const asked: string[][] = [];
    const first = await moneyEnvelope(refundCall, { ok: true, value: SALE, diagnostics: '' }, 7, reader([REFUND], asked));
    expect(first).toMatchObject({ outcome: 'already_done', transaction: SALE, done_at: '2026-11-28T14:02:11Z', done_by: 'Ana Souza (ana@caixa-2)' });
    expect(first.message).toContain('Already done: R$ 30,00 refunded of R$ 100,00');
    expect(asked).toContainEqual(['ledger', 'list', `--transaction=${SALE.id}`, '--limit=200']);
    // A refund asked again with its amount ends in exit 11 (a probable duplicate): the sale read again, the same answer.
    const again = await moneyEnvelope(refundCall, failedWith(new ProbableDuplicateError('probable duplicate: transaction … was refunded R$ 30,00; nothing was sent. Pass --again to refund R$ 30,00 more')), 7, reader([REFUND], asked));
    const third = await moneyEnvelope(refundCall, failedWith(new ProbableDuplicateError('probable duplicate')), 7, reader([REFUND]));
    expect(again).toEqual(first);
    expect(third).toEqual(first);
    expect(asked).toContainEqual(['transactions', 'get', '--', SALE.id]);
    checked(first);
  });

  it("a boleto's cancellation is found in the ledger by the sale its transaction_id names", async () => {
    const asked: string[][] = [];
    const cancel = { tool: tool('boletos_cancel'), args: { transaction_id: SALE.id } };
    const answer = { status: 'Requested', message: 'Cancellation request created successfully', transaction_id: SALE.id };
    const moves = [{ ...MINE, operation: 'boletos.cancel', amount: null }];
    const body = await moneyEnvelope(cancel, { ok: true, value: answer, diagnostics: '' }, 6, reader(moves, asked));
    expect(body).toMatchObject({ outcome: 'applied', transaction: answer });
    expect(body.message).toBe(`Cancellation requested; transaction ${SALE.id} is Requested`);
    expect(asked).toContainEqual(['ledger', 'list', `--transaction=${SALE.id}`, '--limit=200']);
    expect((await moneyEnvelope(cancel, { ok: true, value: answer, diagnostics: '' }, 7, reader(moves))).outcome).toBe('already_done');
  });

  it('a move a rule sent to a person is waiting_for_approval, naming the request and how it is approved', async () => {
    const error = Object.assign(new ApprovalPendingError('waiting for approval: …'), {
      request: { id: 'apr_k2m9x4qz', state: 'pending', summary: 'Refund R$ 30,00 of transaction … (MasterCard ••••4444, Joana Pereira)', expires_at: Date.UTC(2026, 10, 29, 14) },
    });
    const body = await moneyEnvelope(refundCall, failedWith(error), 6, reader([]));
    expect(body).toMatchObject({ outcome: 'waiting_for_approval', request: { id: 'apr_k2m9x4qz', state: 'pending', expires_at: '2026-11-29T14:00:00.000Z' } });
    expect(body.message).toContain('`payctl approvals approve apr_k2m9x4qz`');
    expect(body.message).toContain('poll approvals_status with request_id apr_k2m9x4qz');
    checked(body);
  });

  it('a lost answer is unknown, in the contract\'s words', async () => {
    const lost = new OutcomeUnknownError(
      'outcome unknown: the refund of transaction … may or may not have been applied (no usable answer); it could still land until 2026-11-28 14:04:11. Run the same command again: it waits until then and sends only if this one did not go through (--no-wait checks without waiting). Or check with: payctl transactions get …',
    );
    const body = await moneyEnvelope(refundCall, failedWith(lost), 6, reader([]));
    expect(body.outcome).toBe('unknown');
    expect(body.message.startsWith('unknown — do not retry; payctl will settle it. outcome unknown: the refund of transaction … may or may not have been applied')).toBe(true);
    expect(body.message).toContain('it could still land until 2026-11-28 14:04:11');
    // The command line's advice to a person is not the agent's: it is told not to retry, and how it learns the outcome.
    expect(body.message).not.toContain('Run the same command again');
    expect(body.message).not.toContain('--no-wait');
    expect(body.message).toContain('A later call of the same tool (or ledger_show');
  });

  it('a rule, a limit or a declined confirmation is refused; the service or the sale saying no is failed; nothing sent, and what next', async () => {
    const cases: Array<[unknown, string, string]> = [
      [new PolicyRefusedError('Refund R$ 600,00 …: would pass the daily limit'), 'refused', 'only a person can change that'],
      [new CancelledError('declined at the client'), 'refused', 'did not confirm'],
      [new DeclinedAtClientError("Refund R$ 30,00 …: the person at the agent's client (claude-code) declined it; nothing was sent"), 'refused', 'do not ask again unless they tell you to'],
      [new CliError('rate limited', ExitCode.rateLimited), 'refused', 'wait a minute'],
      [new NotAllowedError('transaction … is fully refunded: nothing is left to refund'), 'failed', 'do not repeat the same call'],
      [new ApiError('transaction not found', { httpStatus: 404 }), 'failed', 'a list or search tool'],
      [new UsageError('--amount: "abc" is not an amount'), 'failed', 'fix that argument'],
    ];
    for (const [error, outcome, next] of cases) {
      const body = await moneyEnvelope(refundCall, failedWith(error), 6, reader([]));
      expect(body.outcome, String(error)).toBe(outcome);
      expect(body.message).toContain('nothing was sent');
      expect(body.message).toContain(next);
      checked(body);
    }
    const usage = await moneyEnvelope(refundCall, failedWith(new UsageError('--amount: "abc" is not an amount')), 6, reader([]));
    expect(usage.message).toContain('amount (--amount)');
  });

  it('text from the service reaches the agent without control characters', async () => {
    const body = await moneyEnvelope(refundCall, failedWith(new NotAllowedError('declined\u001b[2J\u0007 by the issuer')), 6, reader([]));
    expect(body.message).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(body.message).toContain('declined by the issuer');
  });
});

describe('list tools: a page a call, and a cursor read back strictly', () => {
  const list = tool('transactions_list');

  it('take limit and cursor, never --all or the verb\'s own --limit; a call reads one more than asked through --window', () => {
    const inputs = Object.keys((list.inputSchema as { properties: object }).properties);
    expect(inputs).toEqual(expect.arrayContaining(['limit', 'cursor', 'status']));
    expect(inputs).not.toContain('all');
    expect(inputs).not.toContain('window');
    expect(commandLine(list, checkArguments(list, { status: 'succeeded' }))).toEqual(['transactions', 'list', '--status=succeeded', '--window=0:21']);
    expect(commandLine(list, checkArguments(list, { limit: 50 }))).toEqual(['transactions', 'list', '--window=0:51']);
    expect(() => checkArguments(list, { limit: 51 })).toThrow(/limit: at most 50/);
    expect(() => checkArguments(list, { all: true })).toThrow(/takes no argument "all"/);
    expect(commandLine(list, checkArguments(list, { group_by: 'status' }))).toEqual(['transactions', 'list', '--group-by=status']);
    expect(() => commandLine(list, checkArguments(list, { group_by: 'status', cursor: cursorAt(list.name, { group_by: 'status' }, 20) }))).toThrow(/cursor: a summary per group/);
  });

  it('a page with more behind it gives the cursor of the next; that cursor reads on from there, whatever the limit', () => {
    const args = { status: 'succeeded', limit: 2 };
    const page = pageResult(list.name, args, { offset: 0, limit: 2 }, [{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
    expect(page.items).toEqual([{ id: 'a' }, { id: 'b' }]);
    const cursor = page.next_cursor as string;
    expect(pageAsked(list.name, { ...args, cursor })).toEqual({ offset: 2, limit: 2 });
    expect(pageAsked(list.name, { status: 'succeeded', limit: 10, cursor })).toEqual({ offset: 2, limit: 10 });
    expect(commandLine(list, checkArguments(list, { ...args, cursor }))).toEqual(['transactions', 'list', '--status=succeeded', '--window=2:3']);
    expect(pageResult(list.name, args, { offset: 2, limit: 2 }, [{ id: 'c' }])).toEqual({ items: [{ id: 'c' }] });
  });

  it('a cursor of another query or tool, or altered, is an error naming cursor', () => {
    const cursor = cursorAt(list.name, { status: 'succeeded' }, 20);
    expect(() => pageAsked(list.name, { status: 'failed', cursor })).toThrow(/cursor: it belongs to another list/);
    expect(() => pageAsked('buyers_list', { status: 'succeeded', cursor })).toThrow(/cursor: it belongs to another list/);
    const [digest, , mac] = cursor.split('.');
    expect(() => pageAsked(list.name, { status: 'succeeded', cursor: `${digest}.zz.${mac}` })).toThrow(/cursor: not a cursor this server gave/);
    expect(() => pageAsked(list.name, { status: 'succeeded', cursor: 'garbage' })).toThrow(UsageError);
  });

  it('the verb prints a list; the tool returns one page of it, said in a line', () => {
    const result = readResult({ tool: list, args: {} }, { ok: true, value: Array.from({ length: 21 }, (_, i) => ({ ...SALE, id: `sale${i}` })), diagnostics: '' });
    const structured = result.structuredContent as { items: unknown[]; next_cursor?: string };
    expect(structured.items).toHaveLength(20);
    expect(structured.next_cursor).toBeTypeOf('string');
    expect((result.content[0] as { text: string }).text).toMatch(/^20 transactions: transaction sale0: R\$ 100,00, succeeded \(MasterCard ••••4444, Joana Pereira\);.*more: call transactions_list again with cursor/);
    expect(validator.getValidator(outputSchemaOf(list) as never)(structured).valid).toBe(true);
    const entries = readResult({ tool: tool('future_entries_list'), args: {} }, { ok: true, value: [{ id: 'e1' }, { id: 'e2' }], diagnostics: '' });
    expect((entries.content[0] as { text: string }).text).toBe('2 future entries; that is all');
  });
});

describe('outputSchema', () => {
  it('every tool has one the SDK compiles, an object', () => {
    for (const t of tools) {
      const schema = outputSchemaOf(t);
      expect(schema.type, t.name).toBe('object');
      expect(() => validator.getValidator(schema as never), t.name).not.toThrow();
    }
  });

  it('a transfer explained that does not add up is still its explanation (exit 12 said in the text)', () => {
    const explain = tool('transfers_explain');
    const explanation = {
      transfer: 't1',
      seller: null,
      status: 'paid',
      transfer_date: '2026-11-10',
      created_at: null,
      items: [{ receivable: 'r1', transaction: 's1', installment: '1', gross: '100.00', fee: '3.00', refunded: '0.00', charged_back: '0.00', net: '97.00' }],
      unexplained: [],
      sum: { gross: '100.00', fees: '3.00', refunded: '0.00', charged_back: '0.00', net: '97.00' },
      transfer_fee: '0.00',
      expected: '97.00',
      amount: '96.00',
      difference: '-1.00',
      matched: false,
    };
    const result = readResult({ tool: explain, args: { id: 't1' } }, { ok: false, error: new CliError('transfer t1 does not add up: …', ExitCode.unreconciled), printed: explanation, diagnostics: '' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(explanation);
    expect(validator.getValidator(outputSchemaOf(explain) as never)(explanation).valid).toBe(true);
    expect(validator.getValidator(outputSchemaOf(explain) as never)({ ...explanation, matched: 'no' }).valid).toBe(false);
  });

  it("approvals_status says its shape: the request's state from a known set, and its move's state in the ledger", () => {
    const check = validator.getValidator(outputSchemaOf(tool('approvals_status')) as never);
    const sent = {
      id: 'apr_k2m9x4qz',
      state: 'sent',
      summary: 'Refund R$ 5,00 of transaction …',
      expires_at: '2026-11-29T21:10:01Z',
      decided_by: 'bia@caixa-3',
      decided_by_name: null,
      decided_at: '2026-11-28T21:10:14Z',
      reason: null,
      intent_id: 1,
      intent_state: 'applied',
    };
    expect(check(sent).valid).toBe(true);
    expect(check({ ...sent, state: 'done' }).valid).toBe(false);
    const { intent_state: _left, ...withoutMove } = sent;
    expect(check(withoutMove).valid).toBe(false);
  });

  it('an argument not given is "required", whatever its type', () => {
    expect(() => checkArguments(tool('transactions_splits_list'), {})).toThrow('transactions_splits_list: transaction_id: required');
  });

  it("the id arguments say what they are", () => {
    const described = (name: string) => ((tool(name).inputSchema as { properties: Record<string, { description?: string }> }).properties.id?.description);
    expect(described('transactions_get')).toBe("the transaction's id, or its reference id");
    expect(described('transfers_explain')).toBe("the transfer's id");
  });
});
