import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.js';
import { protocolLines } from '../helpers/mcp.js';
import { payctl } from '../helpers/run.js';

// The entry `payctl mcp setup --write` puts in a client's file starts a working server the way a
// client starts it: its command and arguments as written, its env alone (a desktop app's PATH
// knows no node), from another directory. Needs `npm run build`.

interface Entry {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** Starts the entry as a client does, asks for the tool list, and returns the tools' names once it answers. */
async function toolsOf(entry: Entry): Promise<string[]> {
  const child = spawn(entry.command, entry.args, { cwd: '/', env: { ...entry.env, PATH: '/nonexistent' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'setup-test', version: '1' } } });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  const deadline = Date.now() + 20_000;
  while (!stdout.includes('"id":2') && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
  child.stdin.end();
  expect(await exited, stderr).toBe(0);
  const answer = protocolLines(stdout).find((m) => 'id' in m && m.id === 2) as { result?: { tools: Array<{ name: string }> } } | undefined;
  expect(answer?.result, stderr).toBeDefined();
  return answer!.result!.tools.map((tool) => tool.name);
}

describe('payctl mcp setup: the entry written', () => {
  test('starts the server with no PATH, from another directory; the profile\'s mcp_allow is read at each start', async ({ home }) => {
    const project = mkdtempSync(join(tmpdir(), 'payctl-setup-entry-'));
    try {
      const written = await payctl(['mcp', 'setup', '--client', 'vscode', '--write'], { home, cwd: project });
      expect(written.code, written.stderr).toBe(0);
      const entry = (JSON.parse(readFileSync(join(project, '.vscode', 'mcp.json'), 'utf8')) as { servers: Record<string, Entry> }).servers.payctl!;
      const reading = await toolsOf(entry);
      expect(reading).toEqual(expect.arrayContaining(['transactions_list', 'transfers_explain', 'approvals_status']));
      expect(reading).not.toContain('transactions_refund');

      const allowed = await payctl(['config', 'set', 'mcp_allow', 'refunds'], { home });
      expect(allowed.code, allowed.stderr).toBe(0);
      expect(await toolsOf(entry)).toEqual(expect.arrayContaining(['transactions_list', 'transactions_refund', 'invoices_refund']));
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
