import { randomBytes } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Factory } from '../../factory.js';
import { PolicyRefusedError } from '../../errors.js';
import type { AgentClient } from '../../ledger/actor.js';
import { withoutControls } from '../../platform/control-chars.js';
import { VERSION } from '../../version.js';
import type { AllowGroup } from './allow.js';
import { runToolCall, type CallOutcome } from './call.js';
import { confirmAtClient } from './confirm.js';
import { outputSchemaOf } from './output-schema.js';
import { CallRate, rateRefusal } from './rate.js';
import { toResult } from './result.js';
import { checkArguments, commandLine, toolsOf, type ToolSpec } from './tool-spec.js';

// The MCP server: the SDK's, over stdio. Only this module loads the SDK, and only `payctl mcp`
// loads this module. Stdout is the protocol's: every call's verb prints into a buffer of its own
// (call.ts), and diagnostics go to stderr.

/** The longest message the server reads from the client: a tool call's arguments are small. */
const MAX_MESSAGE_BYTES = 1024 * 1024;

export interface ServeOptions {
  allow: readonly AllowGroup[];
}

/** The tools this server lists: every reading tool, and the money tools of the allowed groups. */
export function listedTools(ctx: Factory, allow: readonly AllowGroup[]): ToolSpec[] {
  return toolsOf(ctx.commandTree()).filter((tool) => tool.class.kind === 'read' || allow.includes(tool.class.allow));
}

/** Each tool as tools/list shows it, made once: its output schema is the largest part. */
const described = new WeakMap<ToolSpec, Tool>();

/** A tool as tools/list shows it: its schema, and annotations that say what it does (the server enforces; they only inform). */
function describeTool(tool: ToolSpec): Tool {
  const made = described.get(tool);
  if (made) return made;
  const money = tool.class.kind === 'money';
  const shown: Tool = {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    // What a call returns (result.ts): the verb's -o json, checked by the client against it.
    outputSchema: outputSchemaOf(tool) as Tool['outputSchema'],
    annotations: money
      ? // A repeated call is a no-op: the ledger makes a money move once, whatever retries it.
        { destructiveHint: true, idempotentHint: true, readOnlyHint: false, openWorldHint: true }
      : { readOnlyHint: true, openWorldHint: true },
  };
  described.set(tool, shown);
  return shown;
}

/** Serves until the client closes stdin. */
export async function serve(ctx: Factory, options: ServeOptions): Promise<void> {
  const tools = listedTools(ctx, options.allow);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const server = new Server({ name: 'payctl', version: VERSION }, { capabilities: { tools: {} } });
  const clientName = () => withoutControls(server.getClientVersion()?.name ?? 'unknown client').slice(0, 64);
  // One session per server process: what its intents record, and a `--per session` limit counts.
  const session = `mcp_${randomBytes(6).toString('hex')}`;
  // The person at the client confirms what a rule lets them (MCP elicitation); a client that cannot ask gets an approval request.
  const agent = (): AgentClient => ({ name: clientName(), confirm: confirmAtClient(server, clientName), session });
  const moneyCalls = new CallRate();
  // One call at a time: each runs its verb with the account's ledger and the rules, in order.
  let queue: Promise<unknown> = Promise.resolve();
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(describeTool) }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const run = async (): Promise<CallToolResult> => {
      const tool = byName.get(request.params.name);
      if (!tool) return { isError: true, content: [{ type: 'text', text: `no tool "${withoutControls(request.params.name)}" here; tools/list names them` }] };
      // A money call, its arguments checked, takes a slot of the session's rate first: past it, nothing runs.
      const money = (args: Record<string, unknown>): Promise<CallOutcome> => {
        const words = commandLine(tool, args);
        const slot = moneyCalls.take();
        if (!slot.ok) return Promise.resolve({ ok: false, error: new PolicyRefusedError(rateRefusal(moneyCalls, slot.retryInMs)), printed: undefined, diagnostics: '' });
        return runToolCall(ctx, words, agent());
      };
      const verb = tool.class.kind === 'money' ? money : (args: Record<string, unknown>) => runToolCall(ctx, commandLine(tool, args), agent());
      return toResult(tool, request.params.arguments, verb, (words) => runToolCall(ctx, words, agent()), (given) => checkArguments(tool, given));
    };
    const result = queue.then(run, run);
    queue = result.catch(() => undefined);
    return result;
  });
  const transport = new StdioServerTransport(ctx.io.stdin, ctx.io.stdout, { maxBufferSize: MAX_MESSAGE_BYTES });
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
  ctx.io.stdin.once('end', () => void server.close());
  await closed;
}
