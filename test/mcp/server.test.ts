import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { protocolLines, spawnMcp, startMcp, type McpSession } from '../helpers/mcp.js';
import { BIN } from '../helpers/serve.js';
import { payctl, tempHome, testEnv } from '../helpers/run.js';

// `payctl mcp` as an agent's client sees it: which tools it lists, in read-only and allowed modes,
// what their annotations say, that a bad argument is a tool error naming it, and that nothing but
// protocol messages ever reaches stdout. The SDK is loaded by this command only.

const MONEY_TOOLS = ['transactions_refund', 'transactions_capture', 'transactions_create', 'boletos_cancel', 'subscriptions_remove', 'invoices_refund'];

/** Verbs no tool may stand for: logging in, secrets, settings, rules, approving, the ledger's locks, resets, files, the raw API. */
const NEVER = /^(login|logout|whoami|profiles|config|policy|approvals_(approve|deny)|ledger_(unlock|reset|export)|sandbox|api|export|completion|mcp|cards_tokenize|webhooks_listen)/;

describe('payctl mcp: the tools it lists', () => {
  const { home, cleanup } = tempHome();
  afterAll(cleanup);

  it('reading tools only by default, each marked read-only; none logs in, shows a secret, changes a rule, approves or resets', async () => {
    const session = await startMcp({ home });
    try {
      const { tools } = await session.client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['transactions_list', 'transactions_get', 'buyers_search', 'transfers_explain', 'reconcile', 'balances_current', 'ledger_list', 'approvals_status']));
      for (const money of MONEY_TOOLS) expect(names).not.toContain(money);
      for (const name of names) expect(name).not.toMatch(NEVER);
      for (const tool of tools) {
        expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
        expect(tool.inputSchema.type).toBe('object');
      }
    } finally {
      await session.close();
    }
  });

  it('money tools with --allow, marked destructive and idempotent; only the groups allowed', async () => {
    const session = await startMcp({ home, args: ['--allow', 'refunds,captures'] });
    try {
      const { tools } = await session.client.listTools();
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      for (const name of ['transactions_refund', 'invoices_refund', 'transactions_capture']) {
        expect(byName.get(name)?.annotations, name).toMatchObject({ destructiveHint: true, idempotentHint: true, readOnlyHint: false });
      }
      for (const name of ['transactions_create', 'boletos_cancel', 'subscriptions_remove']) expect(byName.has(name), name).toBe(false);
      // What only a person may do is no input of a money tool: forcing a repeat, waiting, files, raw card data.
      const refund = byName.get('transactions_refund')!.inputSchema.properties ?? {};
      expect(Object.keys(refund)).toEqual(expect.arrayContaining(['id', 'amount', 'amount_cents']));
      for (const withheld of ['again', 'wait', 'file', 'full', 'concurrency']) expect(Object.keys(refund)).not.toContain(withheld);
    } finally {
      await session.close();
    }
  });

  it("the profile's mcp_allow when --allow does not say; a group payctl cannot read is refused naming it", async () => {
    const set = await payctl(['config', 'set', 'mcp_allow', 'cancellations'], { home });
    expect(set.code).toBe(0);
    const session = await startMcp({ home });
    try {
      const names = (await session.client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['boletos_cancel', 'subscriptions_remove']));
      expect(names).not.toContain('transactions_refund');
    } finally {
      await session.close();
    }
    const wrong = await payctl(['config', 'set', 'mcp_allow', 'refund'], { home });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('"refund" is not a group of money tools');
    expect(wrong.stderr).toContain('did you mean refunds?');
    const run = spawnSync(process.execPath, [BIN, 'mcp', '--allow', 'refunds,everything'], { env: testEnv(home), input: '', encoding: 'utf8', timeout: 20_000 });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('--allow: "everything" is not a group of money tools');
    await payctl(['config', 'unset', 'mcp_allow'], { home });
  });
});

describe('payctl mcp: calls', () => {
  const { home, cleanup } = tempHome();
  let session: McpSession;
  beforeAll(async () => {
    session = await startMcp({ home, args: ['--allow', 'refunds'] });
  });
  afterAll(async () => {
    await session.close();
    cleanup();
  });

  it('a bad argument is a tool error naming it, from the verb\'s own check; nothing runs', async () => {
    const cpf = await session.client.callTool({ name: 'buyers_search', arguments: { taxpayer_id: '123.456' } });
    expect(cpf.isError).toBe(true);
    expect(JSON.stringify(cpf.content)).toContain('taxpayer-id');
    const amount = await session.client.callTool({ name: 'transactions_refund', arguments: { id: 'a'.repeat(32), amount: '12,3,4' } });
    expect(amount.isError).toBe(true);
    expect(JSON.stringify(amount.content)).toContain('--amount');
  });

  it('an argument the tool does not take is an error naming it, with the one meant', async () => {
    const result = await session.client.callTool({ name: 'transactions_refund', arguments: { id: 'a'.repeat(32), amout: 5 } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('takes no argument \\"amout\\" (did you mean amount?)');
    const again = await session.client.callTool({ name: 'transactions_refund', arguments: { id: 'a'.repeat(32), again: true } });
    expect(again.isError).toBe(true);
    expect(JSON.stringify(again.content)).toContain('takes no argument \\"again\\"');
  });

  it('a tool it does not list is refused, whatever its name', async () => {
    for (const name of ['policy_add', 'approvals_approve', 'sandbox_reset', 'transactions_capture']) {
      const result = await session.client.callTool({ name, arguments: {} });
      expect(result.isError, name).toBe(true);
      expect(JSON.stringify(result.content)).toContain(`no tool \\"${name}\\" here`);
    }
  });

  it('an id that starts with a dash stays an id, never a flag', async () => {
    const result = await session.client.callTool({ name: 'transactions_get', arguments: { id: '--help' } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).not.toContain('Usage:');
  });
});

describe('payctl mcp: a new sale needs its reference', () => {
  it('transactions_create asks for reference_id (a retry is then the same sale, never another); without it nothing is created', async () => {
    const { home, cleanup } = tempHome();
    const session = await startMcp({ home, args: ['--allow', 'creates'] });
    try {
      const create = (await session.client.listTools()).tools.find((tool) => tool.name === 'transactions_create');
      expect(create?.inputSchema.required).toContain('reference_id');
      const result = await session.client.callTool({ name: 'transactions_create', arguments: { payment_type: 'pix', amount: '10.00' } });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain('reference_id: required');
      const listed = await payctl(['transactions', 'list', '-o', 'json'], { home });
      expect(JSON.parse(listed.stdout)).toEqual([]);
    } finally {
      await session.close();
      cleanup();
    }
  });
});

describe('payctl mcp: stdout carries only protocol messages', () => {
  it('across calls that succeed, fail and warn, and a message that is not JSON', async () => {
    const { home, cleanup } = tempHome();
    const server = spawnMcp(home, ['--allow', 'refunds']);
    try {
      const send = (message: object | string) => server.child.stdin!.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'transactions_list', arguments: { limit: 2 } } });
      send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'transactions_refund', arguments: { id: 'b'.repeat(32) } } });
      send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'transactions_get', arguments: { id: 'c'.repeat(32) } } });
      send('this is not json');
      send({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'ledger_check', arguments: {} } });
      const deadline = Date.now() + 60_000;
      while (!protocolLines(server.stdout()).some((m) => 'id' in m && m.id === 6) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      server.child.stdin!.end();
      expect(await server.exited).toBe(0);
      const messages = protocolLines(server.stdout());
      expect(messages.map((m) => ('id' in m ? m.id : undefined)).filter((id) => id !== undefined)).toEqual(expect.arrayContaining([1, 2, 3, 4, 5, 6]));
      // The verbs' own lines (the sandbox notice, warnings) went to stderr, never to stdout.
      expect(server.stdout()).not.toContain('SANDBOX (');
    } finally {
      cleanup();
    }
  });
});

describe('the MCP SDK is loaded by payctl mcp only', () => {
  // Every ES module Node loads, written down by a loader hook registered before payctl starts: to a
  // file, synchronously (the hooks run on a thread of their own, whose stderr a process that exits
  // at once, as --version does, may never flush).
  function modulesLoadedBy(args: string[], input = ''): string[] {
    const { home, cleanup } = tempHome();
    try {
      const hook = join(home, 'hook.mjs');
      const trace = join(home, 'loaded.txt');
      writeFileSync(trace, '');
      writeFileSync(hook, `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { appendFileSync(${JSON.stringify(trace)}, url + '\\n'); return next(url, context); }\n`);
      const register = `data:text/javascript,import{register}from"node:module";register(${JSON.stringify(`file://${hook}`)})`;
      const run = spawnSync(process.execPath, ['--import', register, BIN, ...args], { env: testEnv(home), input, encoding: 'utf8', timeout: 30_000 });
      expect(run.status, run.stderr).not.toBeNull();
      return readFileSync(trace, 'utf8').split('\n').filter(Boolean);
    } finally {
      cleanup();
    }
  }
  const dist = join(BIN, '..', '..', 'dist', 'chunks');
  /** The chunks of the build that hold the SDK's server (its protocol's method names are in them). */
  const sdkChunks = () => readdirSync(dist).filter((file) => readFileSync(join(dist, file), 'utf8').includes('notifications/initialized'));

  it.each([['--version'], ['--help'], ['mcp', '--help'], ['transactions', 'refund', '--help'], ['transactions', 'list', '--limit', '1']])('not by payctl %s', (...args) => {
    const chunks = sdkChunks();
    expect(chunks.length).toBeGreaterThan(0);
    const loaded = modulesLoadedBy(args);
    expect(loaded.length).toBeGreaterThan(0); // the hook sees loads: the check below can see one
    for (const chunk of chunks) expect(loaded.some((url) => url.endsWith(`/${chunk}`)), chunk).toBe(false);
  });

  it('by payctl mcp', () => {
    const loaded = modulesLoadedBy(['mcp']);
    expect(sdkChunks().some((chunk) => loaded.some((url) => url.endsWith(`/${chunk}`)))).toBe(true);
  });
});
