import { defineVerb, flag, groupHelp } from '../verb.js';

export const ledger = groupHelp('ledger', "The ledger of money moves (this machine's, or the team's shared one): what was sent, by whom, and what became of it", ['payctl ledger list --state pending,unknown', 'payctl ledger show <transaction-id>', 'payctl ledger export --format csv --out ledger.csv']);

export const list = defineVerb({
  name: 'list',
  description: 'Recent money moves of this account, newest first: when, who, what, amount, state',
  flags: {
    state: flag('--state <states>', 'only these states (comma-separated): pending, applied, refused, not_applied, unknown'),
    since: flag('--since <date>', 'only moves from this day (YYYY-MM-DD) or this long ago (30m, 12h, 7d) on'),
    transaction: flag('--transaction <id>', 'only the moves of this transaction'),
    limit: flag('--limit <n>', 'at most this many (default 50)'),
  },
  examples: [
    'payctl ledger list',
    'payctl ledger list --state pending,unknown        # moves whose outcome is still open',
    'payctl ledger list --since 24h -o json | jq ".[] | select(.holder | startswith(\\"ana@\\"))"',
    'payctl ledger list -o json | jq ".[] | select(.operator_name == \\"Ana Souza\\")"   # by the name operator_name gives',
  ],
});

export const show = defineVerb({
  name: 'show <transaction-or-reference>',
  asks: { 'transaction-or-reference': { noun: 'transaction' } },
  description: 'Every move payctl made on one transaction (or invoice), or under one reference_id, and who holds it now',
  examples: ['payctl ledger show <transaction-id>', 'payctl ledger show order-7002'],
});

export const unlock = defineVerb({
  name: 'unlock <key>',
  asks: { key: { label: 'Key of the lock (transaction:<id>, reference:<id>…)' } },
  description: "Take away a lock whose holder you know is gone (its machine died and you cannot wait for its lease); says who held it",
  flags: { force: flag('--force', 'required: a lock held by a live payctl protects a move in flight') },
  examples: ['payctl ledger unlock transaction:<id> --force', 'payctl ledger unlock <transaction-id> --force'],
});

export const check = defineVerb({
  name: 'check',
  description: "Check the ledger: SQLite's integrity check (a shared ledger: that it answers), its open outcomes and locks",
  examples: ['payctl ledger check', 'payctl ledger check -o json'],
});

export const exportTrail = defineVerb({
  name: 'export',
  description: "Every record of this account's ledger, oldest first, for auditors: what was sent, by whom (user@host and operator_name), and what became of it",
  flags: {
    format: flag('--format <format>', 'ndjson (one JSON object a line) or csv (made safe to open in a spreadsheet; --csv-locale pt-BR honoured) (default ndjson)'),
    since: flag('--since <date>', 'only records from this day (YYYY-MM-DD, in the time zone payctl shows) or this long ago (30m, 12h, 7d) on'),
    out: flag('--out <file|->', 'the file to write (appears only when complete; default -, stdout)'),
  },
  examples: [
    'payctl ledger export --format csv --out ledger-$(date +%F).csv',
    'payctl ledger export --since 2026-11-01 | jq -c \'select(.operator_name == "Ana Souza")\'',
    'payctl ledger export --format csv --csv-locale pt-BR --since 30d --out ledger-30d.csv   # for a Brazilian spreadsheet',
  ],
  notes: `Each record has a kind (intent: a money move payctl wrote before sending it) and the same columns: kind, id,
created_at, updated_at, operation, target, key, requested_cents, requested, amount_cents, amount, state,
detail, proof, batch, batch_name, row, holder, operator_name, pid, agent (an AI agent's MCP client, or its
shell), session (its payctl mcp session). Times are ISO 8601 in UTC (pt-BR CSV:
local times); amounts are cents and decimals. The ledger is read a page at a time, however large it is.
`,
});

export const reset = defineVerb({
  name: 'reset',
  description:
    "Accept that the ledger this operator used is lost (deleted with the state directory, emptied, damaged, its tables dropped, another database at its URL) and start a new one, so money moves again; needs --yes. A damaged file is kept beside the new one; a shared ledger's tables are made again only here, and each operator who used the old one runs this once to accept the new one",
  examples: ['payctl ledger check                  # first: is the ledger there, and sound?', "payctl ledger reset --yes        # earlier moves are then known only from the sales' own history"],
});
