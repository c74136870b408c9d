// A list tool over an account of 100,000 sales never floods the agent: each call returns one page,
// at most 50 items, with a cursor to the next, read through the verb's own code (its --window) and
// checked by the SDK's client against the tool's outputSchema. A cursor read back is its own
// page again; one of another list, or altered, is a tool error naming cursor.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcp, type McpSession } from '../helpers/mcp.js';
import { BIN } from '../helpers/serve.js';
import { tempHome, testEnv } from '../helpers/run.js';

type Result = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: { items: Array<{ id: string }>; next_cursor?: string } };

/** The figure. Generating it took 44 s on the shared 2-core machine (30 days of trading). */
const SALES = 100_000;

describe('payctl mcp: a list over 100,000 sales', () => {
  const { home, cleanup } = tempHome();
  let session: McpSession;
  const call = async (name: string, args: Record<string, unknown>): Promise<Result> => (await session.client.callTool({ name, arguments: args })) as Result;
  const text = (result: Result) => result.content.map((c) => c.text ?? '').join('\n');

  beforeAll(async () => {
    execFileSync(process.execPath, [BIN, 'sandbox', 'generate', '--sales', String(SALES), '--days', '30', '-q', '-o', 'json'], { env: testEnv(home), stdio: ['ignore', 'pipe', 'pipe'] });
    session = await startMcp({ home });
    await session.client.listTools();
  }, 600_000);
  afterAll(async () => {
    await session?.close();
    cleanup();
  });

  it('is bounded per call and paged with a cursor, page after page without repeats', async () => {
    const first = await call('transactions_list', {});
    expect(first.isError, text(first)).toBeFalsy();
    expect(first.structuredContent?.items).toHaveLength(20);
    expect(text(first)).toContain('more: call transactions_list again with cursor set to next_cursor');
    const seen = new Set(first.structuredContent!.items.map((sale) => sale.id));
    let cursor = first.structuredContent!.next_cursor;
    for (let page = 0; page < 3; page++) {
      const next = await call('transactions_list', { limit: 50, cursor });
      expect(next.isError, text(next)).toBeFalsy();
      expect(next.structuredContent?.items).toHaveLength(50);
      // What the agent's context gets: one page, never the account.
      expect(JSON.stringify(next).length).toBeLessThan(400_000);
      for (const sale of next.structuredContent!.items) {
        expect(seen.has(sale.id), sale.id).toBe(false);
        seen.add(sale.id);
      }
      cursor = next.structuredContent!.next_cursor;
      expect(cursor).toBeTypeOf('string');
    }
    expect(seen.size).toBe(170);
    const over = await call('transactions_list', { limit: 51 });
    expect(over.isError).toBe(true);
    expect(text(over)).toContain('limit: at most 50 a call');
    const all = await call('transactions_list', { all: true });
    expect(all.isError).toBe(true);
    expect(text(all)).toContain('takes no argument "all"');
  }, 120_000);

  it('a cursor read again is the same page; one of another list, or altered, is an error naming cursor', async () => {
    const first = await call('transactions_list', { status: 'succeeded', limit: 5 });
    const cursor = first.structuredContent!.next_cursor!;
    const again = await call('transactions_list', { status: 'succeeded', limit: 5, cursor });
    const twice = await call('transactions_list', { status: 'succeeded', limit: 5, cursor });
    expect(again.structuredContent?.items.map((sale) => sale.id)).toEqual(twice.structuredContent?.items.map((sale) => sale.id));
    expect(again.structuredContent?.items[0]?.id).not.toBe(first.structuredContent?.items[0]?.id);
    const other = await call('transactions_list', { status: 'failed', limit: 5, cursor });
    expect(other.isError).toBe(true);
    expect(text(other)).toContain('transactions_list: cursor: it belongs to another list');
    const tool = await call('buyers_list', { cursor });
    expect(tool.isError).toBe(true);
    expect(text(tool)).toContain('buyers_list: cursor: it belongs to another list');
    const [digest, , mac] = cursor.split('.');
    const altered = await call('transactions_list', { status: 'succeeded', limit: 5, cursor: `${digest}.2s5${'.'}${mac}` });
    expect(altered.isError).toBe(true);
    expect(text(altered)).toContain('cursor: not a cursor this server gave');
  }, 60_000);
});
