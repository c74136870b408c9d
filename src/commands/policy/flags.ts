import { POLICY_OPERATIONS } from '../../ledger/policy/types.js';
import { defineVerb, flag, groupHelp } from '../verb.js';

export const policy = groupHelp(
  'policy',
  "The team's rules for money moves, kept in the ledger and shared by everyone who uses it: what needs a second person's approval, daily limits, what is blocked",
  ['payctl policy list', 'payctl policy add --operation refund --above 500', 'payctl policy add --operation refund --daily-limit 2000 --per operator'],
);

export const list = defineVerb({
  name: 'list',
  description: 'The rules in force, each in words with who set it and when and who approved it; the changes waiting for approval beneath',
  flags: { all: flag('--all', 'removed rules too') },
  examples: ['payctl policy list', 'payctl policy list --all -o json'],
});

export const add = defineVerb({
  name: 'add',
  description:
    "Add a rule: one that tightens the rules takes effect at once; one that loosens them (a higher amount or limit than the rule it replaces, agents confirmed at the client) waits for another operator's approval (exit 13)",
  flags: {
    operation: flag('--operation <operation>', 'the move it governs (policy: changes to the rules themselves, with --block)', { choices: POLICY_OPERATIONS, ask: 'Which move does the rule govern?' }),
    actor: flag('--actor <actor>', 'who it applies to: any (default), agent, script (prompts off), or one operator as user@host'),
    above: flag('--above <amount>', "moves above this amount (in reais: 500 or 500,00) wait for another operator's approval"),
    dailyLimit: flag('--daily-limit <amount>', "at most this much a day (the account's time zone), counted from what the ledger sent"),
    per: flag('--per <who>', 'with --daily-limit: for each operator (default), for the whole team, or (with --actor agent) in each payctl mcp session', { choices: ['operator', 'team', 'session'] }),
    block: flag('--block', 'payctl never sends it'),
    expires: flag('--expires <hours>', 'with --above: how long a request waits for approval, 1 to 720 hours (default 24)'),
    confirmAtClientUpTo: flag('--confirm-at-client-up-to <amount>', 'with --actor agent: up to this amount the person at the MCP client confirms instead of an approval (alone: above it, a person approves)'),
  },
  required: ['operation'],
  examples: [
    'payctl policy add --operation refund --above 500                       # a second person above R$ 500,00',
    'payctl policy add --operation refund --daily-limit 2000 --per operator  # each operator at most R$ 2.000,00 a day',
    'payctl policy add --operation subscription-cancel --block --actor script  # never by a script',
    'payctl policy add --operation refund --actor agent --confirm-at-client-up-to 50   # the client confirms up to R$ 50,00; above, a person approves',
    'payctl policy add --operation refund --above 1000                      # replaces the R$ 500,00 rule: waits for approval (exit 13)',
  ],
  notes: 'A rule changed or removed keeps its old form in force until another operator approves the change (payctl approvals approve <id>). Rules that name an operator, or --above for anyone but agents, need a shared ledger (payctl config set ledger_url postgres://…).',
});

export const remove = defineVerb({
  name: 'remove <rule-id>',
  asks: { 'rule-id': { label: 'Rule id (rule_…, as payctl policy list shows it)' } },
  description: "Remove a rule: it stays in force until another operator approves its removal (exit 13, naming the request)",
  examples: ['payctl policy remove rule_3k9x2m7q', 'payctl approvals show <id>     # the request the removal waits in'],
});
