import { defineVerb, flag, groupHelp } from '../verb.js';
import { MCP_CLIENTS } from './clients.js';

export const mcp = groupHelp(
  'mcp',
  'Agent mode: serve payctl to an AI agent over the Model Context Protocol (stdio), read-only unless --allow; every money move goes through the ledger and the rules',
  ['payctl mcp', 'payctl mcp --allow refunds', 'payctl mcp setup --client claude-code'],
);

export const serve = defineVerb({
  name: 'serve',
  isDefault: true,
  description:
    "Serve MCP on stdin and stdout for the current profile (what `payctl mcp` runs): reading tools only, unless --allow lists money tools too; run by an agent's client, not by hand",
  flags: {
    allow: flag(
      '--allow <groups>',
      "money tools to list too, comma-separated: refunds, captures, creates, cancellations (default: the profile's mcp_allow, else none); an agent's money move still becomes an approval request unless a rule lets it through",
    ),
  },
  examples: ['payctl mcp', 'payctl mcp --allow refunds', 'payctl mcp --profile support-agent --allow refunds,captures', 'payctl mcp serve --allow refunds     # the same as payctl mcp --allow refunds'],
  notes:
    'Stdout carries only protocol messages; diagnostics go to stderr. No tool logs in, shows a secret,\nchanges a rule, approves a request, unlocks or resets the ledger, or resets the sandbox. See\n`payctl help agents`.',
});

export const setup = defineVerb({
  name: 'setup',
  description:
    "Print (or with --write add) the entry that makes an AI agent's client run `payctl mcp --profile <current profile>`: Claude Code, Claude Desktop, Cursor, VS Code, each in its own format and file; the API key never goes into it",
  flags: {
    client: flag('--client <client>', 'only this client (default: print all four)', {
      choices: MCP_CLIENTS,
    }),
    write: flag('--write', "add the entry to that client's file (needs --client): other servers and settings are kept, an earlier payctl entry is replaced; not from an AI agent's shell"),
  },
  examples: ['payctl mcp setup', 'payctl mcp setup --client claude-code', 'payctl mcp setup --client cursor --write', 'payctl --profile support-agent mcp setup --client claude-desktop --write'],
  notes:
    "The entry runs this machine's node and payctl by their absolute paths (an editor or desktop app\nstarted from the dock does not have your shell's PATH), with --profile naming the profile: its API\nkey stays in the OS keyring, and its mcp_allow says which money tools the agent gets, read each\ntime the client starts the server. Project files (.mcp.json, .cursor/mcp.json, .vscode/mcp.json)\nare written in the current directory. See 'payctl help agents'.",
});
