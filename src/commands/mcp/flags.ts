import { defineVerb, flag, groupHelp } from '../verb.js';

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
  examples: ['payctl mcp', 'payctl mcp --allow refunds', 'payctl mcp --profile support-agent --allow refunds,captures'],
  notes:
    'Stdout carries only protocol messages; diagnostics go to stderr. No tool logs in, shows a secret,\nchanges a rule, approves a request, unlocks or resets the ledger, or resets the sandbox. See\n`payctl help agents`.',
});
