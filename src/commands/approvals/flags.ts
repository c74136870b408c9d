import { defineVerb, flag, groupHelp } from '../verb.js';

export const approvals = groupHelp(
  'approvals',
  "Money moves a rule of the team's policy held for a second person: list them, see one in full, approve (a person on a terminal) or deny",
  ['payctl approvals list', 'payctl approvals show <request-id>', 'payctl approvals approve <request-id>'],
);

export const list = defineVerb({
  name: 'list',
  description: 'Approval requests of this account, newest first: when, who asked, what, amount, sale, state, expiry',
  flags: {
    state: flag('--state <states>', 'only these states (comma-separated): pending, approved, denied, expired, sent, failed'),
    batch: flag('--batch <name>', 'only the requests of this bulk run (its name or id)'),
    limit: flag('--limit <n>', 'at most this many (default 50)'),
  },
  examples: ['payctl approvals list --state pending', 'payctl approvals list --state sent,failed -o json', 'payctl approvals list --batch refunds-nov.csv'],
});

export const show = defineVerb({
  name: 'show <request-id>',
  asks: { 'request-id': { label: 'Request id (apr_…)' } },
  description: "One request in full: the move and its body's digest, the rule that caught it in words, who asked and how, its state, and the sale as the service has it now",
  examples: ['payctl approvals show <request-id>', 'payctl approvals show <request-id> -o json'],
});

export const status = defineVerb({
  name: 'status <request-id>',
  asks: { 'request-id': { label: 'Request id (apr_…)' } },
  description: "A request's state in short, for scripts and agents: state, decided by, reason, the intent that sent it (exit 0 whatever the state)",
  examples: ['payctl approvals status <request-id>', 'payctl approvals status <request-id> -o json | jq -r .state'],
});

export const approve = defineVerb({
  name: 'approve [request-id]',
  description:
    'Approve a request and send its move once, as it was asked: a person on a terminal, never the one who asked; the amount is typed back and the sale checked again first',
  flags: {
    batch: flag('--batch <name>', "every pending request of a bulk run (its name or id): the count and total are shown, and the total typed back once"),
  },
  examples: ['payctl approvals approve <request-id>', 'payctl approvals approve --batch refunds-nov.csv'],
  notes:
    "A move the sale no longer allows (refunded elsewhere meanwhile, less left, canceled) is never sent\nwith another amount: the request is marked failed, with the reason (exit 6).",
});

export const deny = defineVerb({
  name: 'deny <request-id>',
  asks: { 'request-id': { label: 'Request id (apr_…)' } },
  description: 'Deny a request: nothing is sent, and whoever asked is told why; never the one who asked, never an agent',
  flags: {
    reason: flag('--reason <text>', 'why, in words the requester reads (required)'),
  },
  required: ['reason'],
  examples: ['payctl approvals deny <request-id> --reason "refund already agreed by phone at R$ 300"', 'payctl approvals deny <request-id> --reason "duplicate of the chargeback"'],
});
