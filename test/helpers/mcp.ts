// `payctl mcp` as an agent's client runs it: bin/payctl.js spawned by the SDK's own stdio transport
// and driven by the SDK's own Client; or spawned bare (spawnMcp), to see every byte it writes.
import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type ClientCapabilities, type ElicitRequest, type ElicitResult, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { BIN } from './serve.js';
import { testEnv } from './run.js';

export interface McpOptions {
  home: string;
  /** After `mcp`: `['--allow', 'refunds']`. */
  args?: string[];
  /** Added to the test's environment (a served sandbox's, PAYCTL_PROFILE…); undefined removes one. */
  env?: Record<string, string | undefined>;
  /** How the client names itself (the agent the ledger records). */
  clientName?: string;
  capabilities?: ClientCapabilities;
  /** Answers the server's elicitation (a confirmation at the client); given, the client says it supports form elicitation. */
  onElicit?: (request: ElicitRequest) => Promise<ElicitResult> | ElicitResult;
}

export interface McpSession {
  client: Client;
  /** Everything the server wrote to stderr. */
  stderr(): string;
  /** Ends the session: the client closes stdin, and the server exits. */
  close(): Promise<void>;
  /** The server's process id (to signal it). */
  pid: number;
}

/** Starts `payctl mcp` for a temporary PAYCTL_HOME and connects the SDK's client to it over the SDK's stdio transport. */
export async function startMcp(options: McpOptions): Promise<McpSession> {
  const env = testEnv(options.home, options.env) as Record<string, string>;
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...(options.args ?? [])], env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const capabilities: ClientCapabilities = { ...(options.capabilities ?? {}), ...(options.onElicit ? { elicitation: { form: {} } } : {}) };
  const client = new Client({ name: options.clientName ?? 'payctl-test-agent', version: '1.0.0' }, { capabilities });
  if (options.onElicit) {
    const answer = options.onElicit;
    client.setRequestHandler(ElicitRequestSchema, async (request) => answer(request));
  }
  try {
    await client.connect(transport);
  } catch (err) {
    await transport.close().catch(() => undefined);
    throw new Error(`payctl mcp did not start: ${(err as Error).message}\n${stderr}`);
  }
  return {
    client,
    pid: transport.pid ?? 0,
    stderr: () => stderr,
    close: () => client.close(),
  };
}

/**
 * `payctl mcp` spawned bare, for what the SDK's transport hides: every byte it writes to stdout
 * (only protocol messages may go there), signals, a client that never reads.
 */
export function spawnMcp(home: string, args: string[] = [], env: Record<string, string | undefined> = {}): { child: ChildProcess; stdout: () => string; stderr: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [BIN, 'mcp', ...args], { env: testEnv(home, env), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Each line the server wrote to stdout, parsed: throws naming the first that is not a JSON-RPC message. */
export function protocolLines(stdout: string): JSONRPCMessage[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        throw new Error(`not a protocol message on stdout: ${line.slice(0, 200)}`);
      }
      if ((message as { jsonrpc?: unknown }).jsonrpc !== '2.0') throw new Error(`not a JSON-RPC message on stdout: ${line.slice(0, 200)}`);
      return message as JSONRPCMessage;
    });
}
