// The AI agents' clients `payctl mcp setup` writes an entry for. Only the names: the command tree
// (loaded on every start) offers them to --client; what each client's file looks like is in
// client-config.ts, loaded when setup runs.

export const MCP_CLIENTS = ['claude-code', 'claude-desktop', 'cursor', 'vscode'] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];
