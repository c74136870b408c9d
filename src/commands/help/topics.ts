import { TEST_CARDS } from '../../sandbox/test-cards.js';
import { ExitCode } from '../../errors.js';

// The texts of `payctl help <topic>`. The guides under docs/ say the same at length (a test holds
// docs/scripting.md's exit-code table to EXIT_CODE_MEANINGS): this is where the short texts are written.

/** What each exit code means; every code of ExitCode has one. */
export const EXIT_CODE_MEANINGS: Readonly<Record<keyof typeof ExitCode, string>> = {
  ok: 'success',
  internal: 'unexpected internal error (also a corrupt config file)',
  usage:
    'usage or invalid input: bad flag, failed validation, input missing with prompts off, --yes needed with prompts off, a bulk file payctl cannot read; the local machine: a config or state directory (PAYCTL_HOME) that cannot be created or written, a full disk, a read-only, damaged or lost file (the ledger of money moves included: restore it, or payctl ledger reset --yes)',
  cancelled:
    'cancelled: the user declined a confirmation, or pressed Ctrl-C, or the process got SIGTERM (within a second, on the embedded sandbox too; a money move in flight is said so, and the same command run again settles it first)',
  auth: "authentication or permission (HTTP 401, 403); or not permitted by the team's policy: a rule blocks the move, it would pass a daily limit, or its approval request was denied or expired (nothing was sent)",
  notFound: 'not found (HTTP 404)',
  rejected:
    'rejected by the API (HTTP 400, 402, 409, 422), or a card transaction created as failed; or a money move the sale no longer allows (more than is left to refund, nothing left to capture), seen before anything is sent and naming what is left: never a probable duplicate',
  rateLimited: 'rate limited (HTTP 429) after retries',
  network:
    'not applied, safe to run again: network error, timeout, or 5xx after retries on a read, or answers a read cannot use (junk, a repeated page, a list that does not end within the bound one command reads); a money move whose connection never opened, or not seen applied by the end of its settle window; the same money move in flight in another payctl process; the ledger of money moves cannot be reached',
  outcomeUnknown:
    'outcome unknown: a money-moving request may or may not have been applied; running the same command again checks first and sends only if it did not go through',
  bulkPartial: "bulk run finished with some rows failed, or held (a row asking more than was refunded of its sale before: not sent; --again sends it), or waiting for approval (a row a rule of the team's policy sent to a person: recorded as a request, not sent), or stopped at --max-wait",
  duplicate:
    'probable duplicate: payctl already made the same money move on this sale (any command, batch, profile or machine sharing the ledger), or its history shows one, and the sale still allows it; nothing was sent; --again to do it anyway (a move the sale no longer allows is 6; a refund of all that remains is never a duplicate)',
  unreconciled: 'does not add up: a transfer (transfers explain) or a period (reconcile) whose items do not come to its amount to the centavo, or that has items that cannot be explained; the difference is named',
  approvalPending:
    "waiting for approval: a rule of the team's policy sent this move (or a change that loosens the rules) to a second person; it is recorded as a request and nothing was sent; the message names it (payctl approvals show <id>)",
};

/** Every code, lowest first, with its meaning. */
export function exitCodes(): Array<[code: number, meaning: string]> {
  return (Object.keys(ExitCode) as (keyof typeof ExitCode)[]).map((name): [number, string] => [ExitCode[name], EXIT_CODE_MEANINGS[name]]).sort((a, b) => a[0] - b[0]);
}

/** Every variable payctl reads, with what it does. */
export const ENVIRONMENT: ReadonlyArray<[names: string, meaning: string]> = [
  ['PAYCTL_HOME', 'one directory for everything: config at <dir>/config.json, state under <dir>/state/ (instead of the XDG directories below)'],
  ['PAYCTL_PROFILE', 'the profile to use when --profile is not given'],
  ['PAYCTL_BASE_URL', "the service's base URL, over the profile's (the built-in sandbox profile then leaves its embedded sandbox, and its marketplace and seller ids, behind)"],
  ['PAYCTL_API_KEY', "the API key, over the profile's (in the OS keyring or the config file), and needs neither; never printed"],
  ['PAYCTL_MARKETPLACE_ID', "the marketplace id, over the profile's; set but empty turns the marketplace prefix off"],
  ['PAYCTL_SELLER_ID', "the seller (on_behalf_of) used when a command is given none, over the profile's; set but empty turns it off"],
  ['PAYCTL_LEDGER_URL', "a PostgreSQL URL (postgres://user:password@host:5432/db): the ledger of money moves every operator and machine of the account shares, over the profile's ledger_url (whose password 'config set ledger_url' keeps in the OS keyring); used as given; set but empty: this machine's SQLite ledger. Its password is never printed"],
  ['PAYCTL_SETTLE_WINDOW', "seconds after a send that a money move whose answer was lost may still land (default 120), over the profile's settle_window; whatever --timeout is"],
  ['PAYCTL_TIMEZONE', "the time zone days and times are read and shown in (an IANA name: America/Sao_Paulo), over the profile's timezone and TZ"],
  ['TZ', 'the time zone when neither PAYCTL_TIMEZONE nor the profile names one (else the system\'s): --from/--to/--since/--until days of a creation date are 00:00–24:00 there; a calendar date (a transfer\'s date, a due date) is never moved'],
  ['PAYCTL_MAX_ANSWER_MB', 'the largest answer read from the service, in megabytes (default 32, at most 500): a larger one is stopped and fails the command (exit 8; 9 for a money move)'],
  ['PAYCTL_MAX_LIST_ITEMS', "the most items one command reads from the service's lists, all its lists together (default 10000000), and a tenth as many pages: a list that has not ended by then is stopped (exit 8, naming what was read). Its reads also stop after 24 hours, or holding a quarter of Node.js's heap limit (about 1 GB; NODE_OPTIONS=--max-old-space-size=MB sets the limit)"],
  ['XDG_CONFIG_HOME', "config in $XDG_CONFIG_HOME/payctl/config.json (else ~/.config/payctl/config.json); on Linux, Claude Desktop's in $XDG_CONFIG_HOME/Claude (mcp setup)"],
  ['XDG_STATE_HOME', 'sandbox state and the ledger of money moves in $XDG_STATE_HOME/payctl/ (else ~/.local/state/payctl/)'],
  ['HOME', 'the home directory of the two defaults above'],
  ['APPDATA', "on Windows, where Claude Desktop keeps its configuration (mcp setup --client claude-desktop): %APPDATA%\\Claude"],
  ['DBUS_SESSION_BUS_ADDRESS', "on Linux, the session bus on which the OS keyring (the Secret Service) that holds logged-in API keys is found"],
  ['HTTPS_PROXY, HTTP_PROXY, NO_PROXY', 'the proxy for requests, and the hosts that bypass it (lower-case names too); never used for the embedded sandbox'],
  ['NO_COLOR', 'no ANSI colour, as --no-color'],
  ['FORCE_COLOR', 'colour even when the output is not a terminal (--no-color still wins; 0 or false do not force)'],
  ['TERM', '"dumb" turns colour off'],
  ['PAYCTL_PAGER, PAGER', 'the pager for an object view taller than the terminal (PAYCTL_PAGER first; default less -FRX; "cat" or empty: none, as --no-pager)'],
  ['PAYCTL_ACTOR', '"agent": an AI agent runs payctl, as CLAUDECODE, CURSOR_AGENT, CODEX_*, GEMINI_CLI or AI_AGENT set say too. Nothing is then asked, as with --no-input: input a command lacks is named, and why it was not asked (exit 2)'],
];

/** Two columns, a row a line: `payctl help` fits them to the terminal, each meaning wrapped under itself. */
function table(rows: ReadonlyArray<readonly [string, string]>, alignRight = false): string {
  const termWidth = Math.max(...rows.map(([term]) => term.length));
  return rows.map(([term, text]) => `  ${alignRight ? term.padStart(termWidth) : term.padEnd(termWidth)}  ${text}`).join('\n');
}

export const TOPICS = {
  environment: () => `Environment variables payctl reads. Precedence: flag > environment > profile > built-in default.

${table(ENVIRONMENT)}
`,
  'exit-codes': () => `Exit codes of payctl: scripts can tell what happened without reading the message.

${table(exitCodes().map(([code, meaning]) => [String(code), meaning]), true)}

Errors are one line on stderr: "error: <message> (<category>, HTTP <status>)", wrapped between
words on a terminal; --debug adds the stack trace.
`,
  'exactly-once': () => EXACTLY_ONCE,
  output: () => OUTPUT,
  sandbox: () => SANDBOX,
  files: () => FILES,
  approvals: () => APPROVALS,
  agents: () => AGENTS,
} as const satisfies Record<string, () => string>;

/** `payctl help output`: formats and streams, as docs/scripting.md says at length. */
const OUTPUT = `How payctl prints: what goes where, in which format, and how to choose.

stdout and stderr:
  Results go to stdout, and only results: a table, JSON, NDJSON or CSV. Prompts, progress bars,
  status lines, warnings, SANDBOX and errors go to stderr, so a pipe or a file gets the data alone.
  -q, --quiet drops the status lines (SANDBOX and errors stay). Errors are one line in a pipe,
  wrapped between words on a terminal: "error: <message>"; the exit code says what happened
  (payctl help exit-codes).

Formats (-o, --output <format>):
  table    aligned rows fitted to the terminal; one object as a short view, the same after a create
           as get shows, and on a terminal the buyer, card, seller and plan it refers to by name,
           the id beside it; money as R$ 1.234,56, dates and times in the local time zone, named
           under the table (times in UTC), statuses coloured; a list of money ends with a totals
           line
  json     the API's own objects, field names unchanged; a list is one JSON array, streamed
  ndjson   one JSON object a line, for jq and pipes
  csv      a header and one dotted column per field (payment_method.card_brand), the API's values
  Default: the profile's output setting (payctl config set output json), else table when stdout is
  a terminal and json when it is piped or redirected. JSON, NDJSON and CSV keep the API's values
  (amounts as "10.50", UTC timestamps).

Picking what is shown:
  --fields id,status,amount    keep these dotted paths, in every format; checked before anything is
                               sent (a mistyped path exits 2 naming it); --fields help lists them
  --limit N, --all             a list shows 20 by default; --all reads every page, memory flat
  --from, --to, --sort         a list's days, of the date its table shows (its --help names it):
                               a creation date by local days (payctl help environment,
                               PAYCTL_TIMEZONE); a calendar date (a transfer's, a due date) as
                               written
  --group-by <grouping>        one row a group instead of the list, by day, week, month, seller,
                               payment-type, card-brand or status: its count, gross, fees, refunds
                               and net (balances history: its credits, payouts, refunds, net and
                               closing balance); on transactions list, transfers list, balances
                               history, future-entries list and receivables list --seller, each
                               saying which groupings it takes

CSV for a spreadsheet:
  --csv-locale pt-BR (or payctl config set csv_locale pt-BR) writes ; between cells, decimal commas,
  local date-times and a BOM, for a Brazilian Excel or LibreOffice; --csv-locale none, the default,
  the API's values. A cell that starts with = + - @ is written with a ' in front so a spreadsheet
  does not run it as a formula; --csv-raw leaves it as it is. Control characters are removed.

Colour and the pager:
  Colour only on a terminal; --no-color, NO_COLOR or TERM=dumb turn it off, FORCE_COLOR turns it on
  off a terminal. An object view taller than the terminal goes through PAYCTL_PAGER, else PAGER,
  else less -FRX; --no-pager, or PAGER=cat or empty, prints it straight. Only when stdout is a
  terminal.

On a terminal a long list (--all) shows a progress bar on stderr; piped, nothing but the data.
Help screens and topics are wrapped to the terminal's width between words, 80 when not a terminal;
warnings and status lines too, on a terminal.
`;

/** `payctl help sandbox`: the embedded sandbox, as docs/sandbox.md says at length. */
const SANDBOX = `The embedded sandbox: an emulation of the payment service that runs inside payctl.

The built-in "sandbox" profile (base URL "embedded", the default on a fresh install) sends every
command to it: no account, no server, no real money. It seeds the marketplace's own seller, a buyer
with a valid CPF and a card on file. Commands that change something against a sandbox print
SANDBOX on stderr, even with --quiet. Test cards:
${TEST_CARDS.map(([number, outcome]) => `  ${number}  ${outcome}`).join('\n')}

  payctl sandbox clock                         the sandbox's own clock
  payctl sandbox advance --days 30             move it forward, running every billing and payout due
  payctl sandbox pay <transaction-id>          a pending boleto or PIX becomes paid
  payctl sandbox generate --sales 20000        three months of a shop's trading to rehearse on
  payctl sandbox reset --yes                   wipe its state; the seeded records come back
  payctl sandbox serve [--port 4010]           the same emulation as an HTTP server

sandbox serve listens on 127.0.0.1 (another address needs --expose), prints its URL on stdout and
the seller it seeds on stderr, and delivers webhooks. Every API key of zpk_test_ and 16 or more
characters is a marketplace of its own; point payctl at it with PAYCTL_BASE_URL=<url>
PAYCTL_API_KEY=zpk_test_<key> PAYCTL_SELLER_ID=<seller> PAYCTL_MARKETPLACE_ID= (empty).
--faults fails a share of requests on purpose, to rehearse a batch or test a client: --faults
429=0.05,late-apply=0.2 answers 5 % of requests 429 and applies a fifth of the changes late.

sandbox generate moves the clock forward by --days (default 90) with --sales sales spread over them,
as a shop trades: buyers with valid CPFs, e-mails and cards on file (Visa, Mastercard, Elo,
Hipercard, American Express), card sales in instalments, boletos and PIX paid or left pending,
refunds, disputes and chargebacks, with fees, receivables, balance entries and payouts; it makes no
events. The same --seed (default 1) makes the same buyers and sales: seed 1's most frequent buyer
is CPF 027.370.422-24. Ctrl-C keeps every part of 10,000 sales already traded.

Its state is one SQLite database in the state directory: <state>/sandbox/sandbox.db (mode 0600,
with -wal and -shm files beside it); a key of sandbox serve has its own under
<state>/marketplaces/<hash>/sandbox/. The state directory is $XDG_STATE_HOME/payctl (else
~/.local/state/payctl), or $PAYCTL_HOME/state. sandbox reset --yes empties it; payctl help files
names the rest.
`;

/** `payctl help files`: every file payctl reads or writes, as docs/scripting.md says at length. */
const FILES = `Every file and directory payctl reads or writes.

Where: with PAYCTL_HOME=<dir>, config in <dir>/config.json and state under <dir>/state/. Otherwise
the XDG directories: config in $XDG_CONFIG_HOME/payctl/ (else ~/.config/payctl/), state in
$XDG_STATE_HOME/payctl/ (else ~/.local/state/payctl/). Directories payctl makes are 0700 and its
files 0600; one that exists is never chmod-ed. A directory that cannot be made or written stops the
command before anything is sent (exit 2, naming it).

Config directory:
  config.json              the profiles and their settings (payctl config list); a file that does
                           not parse stops every command with one line naming it
  config.json.lock         held while a command changes the config (login, config set, ...)
  ledgers.json             which ledgers this operator keeps moves in, and which one each is: a
                           ledger later missing, emptied or made anew stops money moves (exit 2)
                           until payctl ledger reset --yes (ledgers.json.lock while one is added)

State directory:
  sandbox/sandbox.db       the embedded sandbox (with -wal and -shm files; deliverer.lock while a
                           process delivers its webhooks); payctl sandbox reset --yes empties it
  marketplaces/<hash>/     each API key's marketplace in sandbox serve (<hash>: of the key, which is
                           never written)
  ledger/ledger.sqlite     the ledger of money moves (unless ledger_url or PAYCTL_LEDGER_URL names
                           a shared PostgreSQL one); a damaged one is kept as
                           ledger.sqlite.damaged-<time> by payctl ledger reset
  ledgers.json             the same, for a ledger only the embedded sandbox used: its sales live
                           here too, and go with this directory
  bulk/                    a private copy of a bulk refund read from standard input, removed when
                           the run ends
  failed/refund-<time>.csv the rows of a bulk refund from standard input that were not refunded

Beside your own files:
  <input>.failed.csv       the rows of transactions refund --file <input> that were not refunded
                           (--failed-out FILE puts them elsewhere); run it to retry only those
  <out>.partial            an export being written (export --out); renamed to <out> once whole
  <state>.next, <state>.lock
                           an export's state being saved, and the lock one run at a time holds
  receipt-<id>.html        receipts render on a terminal without --save
  what --save, --out, --state, --card-file, --input and --file name

An AI agent's client's files, only with payctl mcp setup --client <client> --write: .mcp.json
(Claude Code), .cursor/mcp.json (Cursor), .vscode/mcp.json (VS Code) in the current directory, and
claude_desktop_config.json in Claude Desktop's directory ($XDG_CONFIG_HOME/Claude, else
~/.config/Claude; ~/Library/Application Support/Claude on macOS; %APPDATA%\\Claude on Windows).
The payctl entry is added or replaced; everything else in the file is kept as it was.

The OS keyring: login keeps each profile's API key there (the Secret Service on Linux, the macOS
Keychain, the Windows Credential Manager; service "payctl", account the profile's name), the config
file holding only a reference; login --insecure-storage puts it in config.json instead.
PAYCTL_API_KEY needs neither. config set ledger_url keeps a URL with a password there too (account
"<profile>:ledger_url"; config.json holds it masked), or with --insecure-storage in config.json. Card numbers and CVVs are never written to any file.
`;

/** `payctl help exactly-once`: the guarantee, as docs/refunds-and-bulk.md's "Money moves exactly once" says it at length. */
const EXACTLY_ONCE = `Money moves exactly once: what payctl guarantees, for one operator or a whole team.

Every command that moves money (transactions create, refund with or without --file, capture,
boletos cancel, invoices approve and refund, transactions splits add and remove, subscriptions
remove) writes its intent
to a ledger before sending, and resolves it after. The ledger is keyed by the account (its
marketplace id, or its API key when no marketplace is named, and whether the key is a test or a
live one), never by the base URL's spelling or the profile's name: two profiles, two addresses or
two keys of one marketplace see the same intents.

What payctl does before it sends:
  1. It locks what it moves. Another payctl moving the same sale stops at once (exit 8, naming who:
     user@host and pid). A lock is a lease of 20 s, renewed while its holder works: a machine that
     dies frees its locks by itself ('payctl ledger unlock <key> --force' frees one at once).
  2. It settles what earlier runs left unresolved on it (killed, or their answer lost): it looks
     until the move shows, or until its settle window has closed, with a countdown on a terminal
     (--no-wait: exit 9 at once, naming when to come back).
  3. It reads what the sale still allows, then what was already done on it. A move the sale cannot
     make (more than is left to refund, a capture of a captured sale) exits 6 naming what is left;
     it is never offered --again. A refund of all that remains cannot move money twice: it refunds
     what is left (the question names what was refunded before, when and by whom), or says the
     sale is "already fully refunded" (exit 0, nothing sent), as a second cancel of a canceled
     boleto says it is already canceled. An amount payctl already refunded of that sale (by any
     command, batch, profile or machine sharing the ledger), or that the sale's own history shows,
     is asked about on a terminal ("Transaction ... was already refunded R$ 3,00 by payctl on
     2026-11-28 at 17:57:03 -03 (ana@caixa-2, batch refunds-nov.csv). Refund R$ 3,00 more?
     [y/N]"), and elsewhere exits 11 (probable duplicate; nothing sent) unless --again. A bulk run
     skips a row asking no more than was refunded before, and holds one asking more (not sent;
     exit 10 naming it and what --again would send); an edited or re-saved file refunds only what
     was not done, and the rows a run did not refund are written beside the input
     (<input>.failed.csv, or --failed-out) for a retry that touches only those.
     Then the team's rules in the ledger judge the move, its amount now known: one a rule sends
     to a second person is recorded as a request and nothing is sent (exit 13, naming it; --wait
     waits for the decision); one a rule blocks, or that would pass a daily limit, is exit 4. A
     bulk run sends the rows no rule catches and records the others under the batch (exit 10).
  4. It sends, and believes only proof. An answer counts if it is the object asked for with the
     change asked for. A lost answer is settled only by a change that identifies this move: a void
     (capture) of exactly its amount, new since it was sent, that no other intent claimed; for a
     create, a sale with its reference_id, amount and card. Anything else: exit 9, the intent kept.

The settle window (settle_window, PAYCTL_SETTLE_WINDOW; default 120 s, never less than --timeout)
is how long after a send a lost request may still land in the provider's queue. It has nothing to
do with --timeout: a run gives up on its own lost answer after four timeouts (2 to 30 s) and exits
9 saying until when the request could still land; the rerun waits for the rest of the window and
sends only once it has closed without the move showing.

A shared ledger: every operator's payctl uses one PostgreSQL database (SQLite in the state
directory stays the default). Its tables are made on first use. In two commands:
  $ payctl config set ledger_url postgres://payctl:secret@db.internal:5432/payctl
  $ payctl ledger list
The URL goes to the OS keyring (--insecure-storage: config.json). If the ledger cannot be reached,
no money moves (exit 8, one line naming it); reads still work.

A ledger cannot vanish unnoticed: each operator's config directory records the ledgers it used.
One later missing, emptied or made anew (the state directory deleted, a shared ledger's tables
dropped, another database at its URL) stops money moves (exit 2, naming it and since when) until
'payctl ledger reset --yes'; payctl never makes a known ledger's tables again on its own; reads
keep working. (The embedded sandbox's sales go with the state directory: so does its ledger's
record, and a fresh sandbox starts unblocked.)

Who moved money: every intent records user@host and pid, and the name the profile gives its
operator ('payctl config set operator_name "Ana Souza"'). 'payctl ledger list' shows who; 'payctl
ledger export --format csv --out ledger.csv' gives an auditor every record, oldest first.

What holds: with one ledger, across processes, machines, profiles, addresses, reruns, kills and
late answers, a money move is applied at most once, and a run that cannot prove what happened says
so (exit 9) instead of guessing.

What cannot hold without idempotency keys from the provider, which it does not offer: a move made
by someone outside the ledger (the dashboard, a payctl with a ledger of its own) of exactly the same
amount, while a lost answer of ours is being settled, cannot be told from ours; and a request that
lands after its settle window (stuck longer than the window in the provider's queue) is taken as not
applied. Share one ledger, and set the window to what your provider's queue can hold.
`;

/** `payctl help approvals`: the team's rules and the four eyes, as docs/approvals.md says at length. */
const APPROVALS = `Rules and approvals: four eyes on money, for a team sharing one ledger.

Rules live in the ledger, for each account, so every operator and machine using it has the same
ones. Each governs one kind of move (refund, capture, create, boleto-cancel, invoice-refund,
invoice-approve, split-change, subscription-cancel) for an actor: any operator, one operator
(user@host, as the ledger names them), scripts (prompts off) or agents (an AI agent's shell, or
payctl mcp).

  payctl policy add --operation refund --above 500
  payctl policy add --operation refund --daily-limit 2000
  payctl policy add --operation refund --daily-limit 20000 --per team
  payctl policy add --operation capture --block --actor script
  payctl policy list

are refunds above R$ 500,00 waiting for a second person, each operator's refunds
capped at R$ 2.000,00 a day and the whole team's at R$ 20.000,00, captures never
sent for a script, and the rules in words, who set each and who approved it,
with the changes waiting for approval beneath.

A move above an --above amount is not sent: it is recorded as a request, and the command says so
with its id (exit 13, waiting for approval; expires after 24 h, or the rule's --expires). A move
a rule blocks, or that would pass a daily limit (counted from what the ledger sent that day, in
the account's time zone), is refused (exit 4); nothing is sent.

An AI agent (its shell, or payctl mcp) never moves money no person approved: each of its moves is
a request, unless a rule --actor agent --confirm-at-client-up-to <amount> lets the person at its
MCP client confirm it up to that amount (asked by the client, naming amount, card and buyer; a
decline or no answer in 120 s sends nothing, exit 4; a client that cannot ask gets the request).
Agents' daily limits count what agents sent (--per session: in one payctl mcp session), and
refuse (exit 4) before anyone is asked.

Who sets rules: any operator, never an agent (exit 4). A change that tightens the rules (a new
rule, a lower amount or limit) takes effect at once. A change that loosens them (removing a rule,
a higher amount or limit, letting agents act on a client's confirmation) is itself a request once
any rule exists (exit 13): the old rule stays in force until another operator approves it. Nobody
loosens a rule alone. --operation policy --block --actor script stops scripts changing rules.

How a supervisor approves: payctl approvals list shows what waits; payctl approvals show <id>
gives the move in full, the rule, the requester and the sale now; payctl approvals approve <id>,
by a person on a terminal who is not the requester, sends it once (the amount typed back first);
payctl approvals deny <id> --reason <text> refuses it.

Four eyes need two people on one ledger: rules that name an operator, and --above for anyone but
agents, need a shared ledger (payctl config set ledger_url postgres://...). On this machine's
own ledger, daily limits, blocks and rules for agents work (a person at a terminal of the same
machine approves an agent's request); with no second person there, the person at its terminal
loosens them alone, once asked, and a script's change waits for a terminal.

What this protects against, honestly: mistakes (a wrong amount, a wrong file), and scripts and
agents that run away. It does not stop someone who holds the raw API key: with it, money moves
through the provider's API or any other client, without payctl and without its rules. Every
payctl that moves money reads the key (from its keyring), so keep it with few people and
machines, and rotate it when one of them leaves.
`;

/** `payctl help agents`: agent mode (payctl mcp), as docs/agents.md says at length. */
const AGENTS = `AI agents: payctl as an MCP server an agent's client runs, and what holds the agent back.

payctl mcp serves the Model Context Protocol on stdin and stdout for one profile. Its tools are
payctl's own verbs (transactions_list, buyers_find, transfers_explain, approvals_status, ...), with
the same checks, and their results the JSON payctl prints.

What an agent may do:
  By default it only reads: sales, buyers, sellers, balances, transfers and their explanations,
  reconcile, receivables, subscriptions, invoices, events, the ledger and approval requests.
  Money tools are listed only when allowed, by group: payctl mcp --allow refunds,captures, or the
  profile's mcp_allow (payctl config set mcp_allow refunds), read each time the server starts.
  The groups are refunds, captures, creates (a charge to a card on file, a boleto or PIX) and
  cancellations. No tool ever logs in, shows a secret, changes a rule, approves or denies a
  request, unlocks or resets the ledger, resets the sandbox, reads or writes a file, takes raw
  card data, or forces a repeat (--again is a person's).

Setting up a client, in a minute on the embedded sandbox (no account):
  $ payctl mcp setup
  $ payctl mcp setup --client claude-code --write
  print the entry for each client, and add Claude Code's to ./.mcp.json (--client cursor:
  .cursor/mcp.json, vscode: .vscode/mcp.json, claude-desktop: its claude_desktop_config.json;
  the other servers there are kept). The entry runs payctl mcp --profile <the current profile>
  by absolute paths; the API key stays with the profile (the OS keyring) and is never written into
  a client's file. An agent's shell cannot --write (exit 4): which tools an agent gets is a
  person's choice.

Approvals and limits:
  Every money move by an agent becomes an approval request unless a rule lets it through: the
  tool answers with the request's id, a person approves it on a terminal with payctl approvals
  approve <id>, and the agent polls approvals_status. Rules for agents (payctl help approvals):
  $ payctl policy add --operation refund --actor agent --confirm-at-client-up-to 50
  $ payctl policy add --operation refund --actor agent --daily-limit 200
  let the person at the client confirm an agent's refund up to R$ 50,00 (MCP elicitation, naming
  the amount, card and buyer: declined, cancelled or unanswered, nothing is sent; a client without
  elicitation gets an approval request), and hold agents' refunds to R$ 200,00 a day for each
  operator. Money tool calls are rate-limited.

  Exactly once: a money tool called again (a retry after a timeout) returns what happened the
  first time and moves nothing; a lost answer is "unknown: do not retry; payctl will settle it",
  and a later call says what happened.

An agent with a shell is still an agent: payctl run where CLAUDECODE, CURSOR_AGENT, GEMINI_CLI,
AI_AGENT, a CODEX_ variable or PAYCTL_ACTOR=agent is set is recorded and ruled as an agent, never
prompted, and cannot approve or deny a request.

What holds, honestly: tool annotations only inform a client; the server enforces. The rules stop
mistakes and runaway agents, not whoever holds the raw API key. So an agent should never hold it:
run the MCP server as another OS user (or with a profile only that user's keyring holds), leave
the agent's own shell with no key and no profile that has one, and share one PostgreSQL ledger so
that approvals are given by another person. docs/agents.md says how.
`;
