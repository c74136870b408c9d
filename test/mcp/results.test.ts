// What an agent gets back from payctl mcp's tools, through the SDK's own client over a real stdio
// transport, against a generated sandbox: every structured result is checked by the client against
// the tool's outputSchema (tools/list is read first, as a client does), and every text is one a
// person reads. A search by CPF, a transfer explained, a refund applied and then retried, and the
// errors an agent must be able to act on.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcp, type McpSession } from '../helpers/mcp.js';
import { BIN } from '../helpers/serve.js';
import { tempHome, testEnv } from '../helpers/run.js';

type Result = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, unknown> };

const textOf = (result: Result) => result.content.map((c) => c.text ?? '').join('\n');

describe('payctl mcp: results', () => {
  const { home, cleanup } = tempHome();
  let session: McpSession;
  const call = async (name: string, args: Record<string, unknown>): Promise<Result> => (await session.client.callTool({ name, arguments: args })) as Result;
  const payctlRun = (args: string[]) => execFileSync(process.execPath, [BIN, ...args, '-o', 'json', '-q'], { env: testEnv(home), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const payctlJson = (args: string[]) => JSON.parse(payctlRun(args)) as Record<string, unknown>;

  beforeAll(async () => {
    // Enough days for payouts: transfers to explain.
    payctlRun(['sandbox', 'generate', '--sales', '300', '--days', '40']);
    // An agent's refund waits for a person unless a rule lets the person at its client confirm it: here they do.
    payctlRun(['policy', 'add', '--operation', 'refund', '--actor', 'agent', '--confirm-at-client-up-to', '50']);
    session = await startMcp({ home, args: ['--allow', 'refunds'], onElicit: () => ({ action: 'accept', content: { confirm: true } }) });
    // As a client does: the tools and their output schemas first; the SDK then checks every structured result against them.
    const { tools } = await session.client.listTools();
    for (const tool of tools) expect(tool.outputSchema?.type, tool.name).toBe('object');
  }, 120_000);
  afterAll(async () => {
    await session?.close();
    cleanup();
  });

  it('finds a buyer by CPF, and their sales, as structured results matching their schemas', async () => {
    const buyers = await call('buyers_list', { limit: 1 });
    const buyer = (buyers.structuredContent?.items as Array<Record<string, unknown>>)[0]!;
    const cpf = String(buyer.taxpayer_id).replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4');
    const found = await call('buyers_search', { taxpayer_id: cpf });
    expect(found.isError, textOf(found)).toBeFalsy();
    expect(found.structuredContent).toMatchObject({ id: buyer.id, taxpayer_id: buyer.taxpayer_id });
    expect(textOf(found)).toContain(`buyer ${String(buyer.id)} (${String(buyer.first_name)} ${String(buyer.last_name)})`);
    const sales = await call('transactions_list', { customer: cpf, limit: 50 });
    expect(sales.isError, textOf(sales)).toBeFalsy();
    const items = sales.structuredContent?.items as Array<Record<string, unknown>>;
    for (const sale of items) expect(sale.customer).toBe(buyer.id);
    expect(textOf(sales)).toMatch(new RegExp(`^${items.length} transactions?`));
  });

  it("a search's pages, one sale a call, are the search's list: nothing skipped or repeated", async () => {
    const latest = (await call('transactions_list', { limit: 50 })).structuredContent?.items as Array<Record<string, unknown>>;
    const counts = new Map<string, number>();
    for (const sale of latest) if (typeof sale.customer === 'string') counts.set(sale.customer, (counts.get(sale.customer) ?? 0) + 1);
    const [buyer] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
    const whole = ((await call('transactions_list', { customer: buyer, limit: 50 })).structuredContent?.items as Array<{ id: string }>).map((sale) => sale.id);
    expect(whole.length).toBeGreaterThan(1);
    const paged: string[] = [];
    let cursor: unknown;
    for (let calls = 0; calls <= whole.length; calls++) {
      const page = await call('transactions_list', { customer: buyer, limit: 1, ...(cursor ? { cursor } : {}) });
      paged.push(...(page.structuredContent?.items as Array<{ id: string }>).map((sale) => sale.id));
      cursor = page.structuredContent?.next_cursor;
      if (!cursor) break;
    }
    expect(paged).toEqual(whole);
  });

  it('explains a transfer, structured as the explanation is defined, said in a line', async () => {
    const transfers = await call('transfers_list', { limit: 1 });
    const transfer = (transfers.structuredContent?.items as Array<Record<string, unknown>>)[0];
    expect(transfer, 'the generated sandbox paid out nothing').toBeDefined();
    const explained = await call('transfers_explain', { id: transfer!.id });
    expect(explained.isError, textOf(explained)).toBeFalsy();
    expect(explained.structuredContent).toMatchObject({ transfer: transfer!.id, matched: true, difference: '0.00' });
    expect(textOf(explained)).toMatch(new RegExp(`^transfer ${String(transfer!.id)} of R\\$ [\\d.]+,\\d\\d: \\d+ receivables?; it adds up$`));
  });

  it('a refund is applied once; the same call again is already_done, the same answer each time, and the sandbox shows one refund', async () => {
    const page = await call('transactions_list', { status: 'succeeded', payment_type: 'credit', limit: 1 });
    const sale = (page.structuredContent?.items as Array<Record<string, unknown>>)[0]!;
    const first = await call('transactions_refund', { id: sale.id, amount: '1,00' });
    expect(first.isError, textOf(first)).toBeFalsy();
    expect(first.structuredContent).toMatchObject({ outcome: 'applied', transaction: { id: sale.id } });
    expect(textOf(first)).toMatch(/^R\$ 1,00 refunded of R\$ [\d.]+,\d\d \(/);
    const second = await call('transactions_refund', { id: sale.id, amount: '1,00' });
    const third = await call('transactions_refund', { id: sale.id, amount: '1,00' });
    expect(second.isError, textOf(second)).toBeFalsy();
    expect(second.structuredContent).toMatchObject({ outcome: 'already_done', transaction: { id: sale.id }, done_by: expect.any(String) });
    expect(second.structuredContent?.done_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(textOf(second)).toContain('Already done: R$ 1,00 refunded of');
    expect(third).toEqual(second);
    const history = (payctlJson(['transactions', 'get', String(sale.id)]).history as Array<Record<string, unknown>>).filter((entry) => entry.operation_type === 'void');
    expect(history).toHaveLength(1);
  });

  it('not found is a tool error saying what to do next; nothing is sent', async () => {
    const read = await call('transactions_get', { id: 'f'.repeat(32) });
    expect(read.isError).toBe(true);
    expect(read.structuredContent).toBeUndefined();
    expect(textOf(read)).toMatch(/Next: check the id: a list or search tool/);
    const refund = await call('transactions_refund', { id: 'f'.repeat(32) });
    expect(refund.isError).toBe(true);
    expect(refund.structuredContent).toMatchObject({ outcome: 'failed' });
    expect(textOf(refund)).toMatch(/nothing was sent.*Next: check the id/);
  });

  it('a bad argument is a tool error naming it as the tool does', async () => {
    const limit = await call('buyers_list', { limit: 500 });
    expect(limit.isError).toBe(true);
    expect(textOf(limit)).toContain('buyers_list: limit: at most 50 a call');
    const date = await call('transactions_list', { from: '2026-13-40' });
    expect(date.isError).toBe(true);
    expect(textOf(date)).toContain('from (--from)');
    const cpf = await call('buyers_search', { taxpayer_id: '111.111.111-12' });
    expect(cpf.isError).toBe(true);
    expect(textOf(cpf)).toContain('taxpayer_id (--taxpayer-id)');
  });
});
