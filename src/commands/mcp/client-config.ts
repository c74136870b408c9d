import { homedir } from 'node:os';
import { join } from 'node:path';
import type { McpClient } from './clients.js';

// What each AI agent's client reads to start an MCP server over stdio, as its own documentation
// lays it out: the file, the key holding the servers, and the shape of one server's entry.
//   Claude Code     .mcp.json at the project's root, "mcpServers" (what `claude mcp add --scope
//                   project` writes, "type": "stdio" included); or `claude mcp add` itself
//   Claude Desktop  claude_desktop_config.json in the app's config directory, "mcpServers"
//   Cursor          .cursor/mcp.json in the project, "mcpServers"
//   VS Code         .vscode/mcp.json in the workspace, "servers", each with "type": "stdio"

/** How the client starts the server: a program, its arguments, and the variables it runs with. */
export interface Launch {
  command: string;
  args: string[];
  /** Where payctl's files are, when this shell says so (never a key or a password). */
  env?: Record<string, string>;
}

/** One client's entry for payctl, and where it goes. */
export interface ClientEntry {
  client: McpClient;
  /** The client's name as its users know it: "Claude Code". */
  title: string;
  /** The file the entry goes in, absolute. */
  file: string;
  /** The key of that file's object that holds the servers by name. */
  key: 'mcpServers' | 'servers';
  /** The server's name in it. */
  name: string;
  entry: Record<string, unknown>;
  /** The client's own command that adds the same entry, when it has one. */
  command_line?: string;
}

/** The server's name in every client's file: `mcp setup --write` replaces the entry of that name. */
export const SERVER_NAME = 'payctl';

/** Where a client's files are found on this machine: the project (the current directory), the home, the OS. */
export interface Place {
  cwd: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
}

const TITLES: Record<McpClient, string> = {
  'claude-code': 'Claude Code',
  'claude-desktop': 'Claude Desktop',
  cursor: 'Cursor',
  vscode: 'VS Code',
};

/** The entry of `client` that starts `launch`, with its file. */
export function clientEntry(client: McpClient, launch: Launch, place: Place): ClientEntry {
  const server = { command: launch.command, args: launch.args, ...(launch.env ? { env: launch.env } : {}) };
  const base = { client, title: TITLES[client], name: SERVER_NAME };
  switch (client) {
    case 'claude-code':
      return {
        ...base,
        file: join(place.cwd, '.mcp.json'),
        key: 'mcpServers',
        entry: { type: 'stdio', ...server },
        command_line: claudeMcpAdd(launch, place.platform),
      };
    case 'claude-desktop':
      return { ...base, file: join(claudeDesktopDir(place), 'claude_desktop_config.json'), key: 'mcpServers', entry: server };
    case 'cursor':
      return { ...base, file: join(place.cwd, '.cursor', 'mcp.json'), key: 'mcpServers', entry: server };
    case 'vscode':
      return { ...base, file: join(place.cwd, '.vscode', 'mcp.json'), key: 'servers', entry: { type: 'stdio', ...server } };
  }
}

/** Claude Desktop's config directory: Application Support on macOS, %APPDATA% on Windows, the XDG config directory elsewhere. */
function claudeDesktopDir({ env, platform }: Place): string {
  const home = env.HOME || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Claude');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'Claude');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'Claude');
}

/**
 * `claude mcp add`, which keeps the entry in Claude Code's own ~/.claude.json (for you, in this
 * project) instead of the project's .mcp.json: its options before the name, the server's command
 * line after `--`.
 */
function claudeMcpAdd(launch: Launch, platform: NodeJS.Platform): string {
  const env = Object.entries(launch.env ?? {}).flatMap(([name, value]) => ['--env', `${name}=${value}`]);
  return ['claude', 'mcp', 'add', '--transport', 'stdio', ...env, SERVER_NAME, '--', launch.command, ...launch.args].map((word) => shellWord(word, platform)).join(' ');
}

/** A word as a shell reads it back: as it is when plain, else quoted (single quotes; double on Windows). */
function shellWord(word: string, platform: NodeJS.Platform): string {
  if (platform === 'win32') return /^[\w@%+=:,./\\-]+$/.test(word) ? word : `"${word.replace(/"/g, '\\"')}"`;
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
