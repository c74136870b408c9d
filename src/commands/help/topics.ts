import { ExitCode } from '../../errors.js';

// The texts of `payctl help environment` and `payctl help exit-codes`. The README's tables say the
// same (a test holds them to it): this is where they are written.

/** What each exit code means; every code of ExitCode has one. */
export const EXIT_CODE_MEANINGS: Readonly<Record<keyof typeof ExitCode, string>> = {
  ok: 'success',
  internal: 'unexpected internal error (also a corrupt config file)',
  usage:
    'usage or invalid input: bad flag, failed validation, input missing with prompts off, --yes needed with prompts off, a bulk file payctl cannot read; the local machine: a config or state directory (PAYCTL_HOME) that cannot be created or written, a full disk, a read-only, damaged or lost file (the ledger of money moves included: restore it, or payctl ledger reset --yes)',
  cancelled:
    'cancelled: the user declined a confirmation, or pressed Ctrl-C, or the process got SIGTERM (within a second, on the embedded sandbox too; a money move in flight is said so, and the same command run again settles it first)',
  auth: 'authentication or permission (HTTP 401, 403)',
  notFound: 'not found (HTTP 404)',
  rejected: 'rejected by the API (HTTP 400, 402, 409, 422), or a card transaction created as failed',
  rateLimited: 'rate limited (HTTP 429) after retries',
  network:
    'not applied, safe to run again: network error, timeout, or 5xx after retries on a read; a money move whose connection never opened, or not seen applied by the end of its settle window; the same money move in flight in another payctl process; the ledger of money moves cannot be reached',
  outcomeUnknown:
    'outcome unknown: a money-moving request may or may not have been applied; running the same command again checks first and sends only if it did not go through',
  bulkPartial: 'bulk run finished with some rows failed, or stopped at --max-wait',
  duplicate:
    'probable duplicate: payctl already made the same money move on this sale (any command, batch, profile or machine sharing the ledger), or its history shows one; nothing was sent; --again to do it anyway',
  unreconciled: 'does not add up: a transfer (transfers explain) or a period (reconcile) whose items do not come to its amount to the centavo, or that has items that cannot be explained; the difference is named',
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
  ['PAYCTL_LEDGER_URL', "a PostgreSQL URL (postgres://user:password@host:5432/db): the ledger of money moves every operator and machine of the account shares, over the profile's ledger_url; set but empty: this machine's SQLite ledger. Its password is never printed"],
  ['PAYCTL_SETTLE_WINDOW', "seconds after a send that a money move whose answer was lost may still land (default 120), over the profile's settle_window; whatever --timeout is"],
  ['PAYCTL_TIMEZONE', "the time zone days and times are read and shown in (an IANA name: America/Sao_Paulo), over the profile's timezone and TZ"],
  ['TZ', 'the time zone when neither PAYCTL_TIMEZONE nor the profile names one (else the system\'s): --from/--to/--since/--until days are 00:00–24:00 there'],
  ['PAYCTL_MAX_ANSWER_MB', 'the largest answer read from the service, in megabytes (default 32, at most 500): a larger one is stopped and fails the command (exit 8; 9 for a money move)'],
  ['XDG_CONFIG_HOME', 'config in $XDG_CONFIG_HOME/payctl/config.json (else ~/.config/payctl/config.json)'],
  ['XDG_STATE_HOME', 'sandbox state and the ledger of money moves in $XDG_STATE_HOME/payctl/ (else ~/.local/state/payctl/)'],
  ['HOME', 'the home directory of the two defaults above'],
  ['DBUS_SESSION_BUS_ADDRESS', "on Linux, the session bus on which the OS keyring (the Secret Service) that holds logged-in API keys is found"],
  ['HTTPS_PROXY, HTTP_PROXY, NO_PROXY', 'the proxy for requests, and the hosts that bypass it (lower-case names too); never used for the embedded sandbox'],
  ['NO_COLOR', 'no ANSI colour, as --no-color'],
  ['FORCE_COLOR', 'colour even when the output is not a terminal (--no-color still wins; 0 or false do not force)'],
  ['TERM', '"dumb" turns colour off'],
  ['PAYCTL_PAGER, PAGER', 'the pager for an object view taller than the terminal (PAYCTL_PAGER first; default less -FRX; "cat" or empty: none, as --no-pager)'],
];

const WIDTH = 100;

/** Two columns, the second wrapped at WIDTH under itself. */
function table(rows: ReadonlyArray<readonly [string, string]>, alignRight = false): string {
  const termWidth = Math.max(...rows.map(([term]) => term.length));
  const indent = 2 + termWidth + 2;
  return rows
    .map(([term, text]) => {
      const lines: string[] = [];
      let line = '';
      for (const word of text.split(' ')) {
        if (line !== '' && indent + line.length + 1 + word.length > WIDTH) {
          lines.push(line);
          line = word;
        } else line = line === '' ? word : `${line} ${word}`;
      }
      lines.push(line);
      const shown = alignRight ? term.padStart(termWidth) : term.padEnd(termWidth);
      return `  ${shown}  ${lines.join(`\n${' '.repeat(indent)}`)}`;
    })
    .join('\n');
}

export const TOPICS = {
  environment: () => `Environment variables payctl reads. Precedence: flag > environment > profile > built-in default.

${table(ENVIRONMENT)}
`,
  'exit-codes': () => `Exit codes of payctl: scripts can tell what happened without reading the message.

${table(exitCodes().map(([code, meaning]) => [String(code), meaning]), true)}

Errors are one line on stderr: "error: <message> (<category>, HTTP <status>)"; --debug adds the
stack trace.
`,
  'exactly-once': () => EXACTLY_ONCE,
} as const satisfies Record<string, () => string>;

/** `payctl help exactly-once`: the guarantee, as the README's "Money moves exactly once" says it at length. */
const EXACTLY_ONCE = `Money moves exactly once: what payctl guarantees, for one operator or a whole team.

Every command that moves money (transactions create, refund with or without --file, capture,
boletos cancel, invoices approve and refund, transactions splits add and remove) writes its intent
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
  3. It reads what was already done: a refund (capture, cancellation) payctl already made of that
     sale, by any command, batch, profile or machine sharing the ledger, or one in the sale's own
     history. Then it asks on a terminal ("Transaction ... was already refunded R$ 3,00 by payctl
     at 17:57 (ana@caixa-2, batch refunds-nov.csv). Refund R$ 3,00 more? [y/N]"), and elsewhere
     exits 11 (probable duplicate; nothing sent) unless --again. A bulk run skips such rows, says
     how many in its confirmation and reports each one; an edited or re-saved file refunds only
     what was not done, and the rows a run could not refund are written beside the input
     (<input>.failed.csv, or --failed-out) for a retry that touches only those.
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
  payctl config set ledger_url postgres://payctl:secret@db.internal:5432/payctl
  payctl ledger list
If the ledger cannot be reached, no money moves (exit 8, one line naming it); reads still work.

What holds: with one ledger, across processes, machines, profiles, addresses, reruns, kills and
late answers, a money move is applied at most once, and a run that cannot prove what happened says
so (exit 9) instead of guessing.

What cannot hold without idempotency keys from the provider, which it does not offer: a move made
by someone outside the ledger (the dashboard, a payctl with a ledger of its own) of exactly the same
amount, while a lost answer of ours is being settled, cannot be told from ours; and a request that
lands after its settle window (stuck longer than the window in the provider's queue) is taken as not
applied. Share one ledger, and set the window to what your provider's queue can hold.
`;
