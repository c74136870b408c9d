import { ExitCode } from '../../errors.js';

// The texts of `payctl help environment` and `payctl help exit-codes`. The README's tables say the
// same (a test holds them to it): this is where they are written.

/** What each exit code means; every code of ExitCode has one. */
export const EXIT_CODE_MEANINGS: Readonly<Record<keyof typeof ExitCode, string>> = {
  ok: 'success',
  internal: 'unexpected internal error (also a corrupt config file)',
  usage: 'usage or invalid input: bad flag, failed validation, input missing with prompts off, --yes needed with prompts off; a config or state directory (PAYCTL_HOME) that cannot be created or written',
  cancelled:
    'cancelled: the user declined a confirmation, or pressed Ctrl-C, or the process got SIGTERM (within a second, on the embedded sandbox too; a money move in flight is said so, and the same command run again settles it first)',
  auth: 'authentication or permission (HTTP 401, 403)',
  notFound: 'not found (HTTP 404)',
  rejected: 'rejected by the API (HTTP 400, 402, 409, 422), or a card transaction created as failed',
  rateLimited: 'rate limited (HTTP 429) after retries',
  network:
    'not applied, safe to run again: network error, timeout, or 5xx after retries on a read; a money move whose connection never opened; the same money move in flight in another payctl process',
  outcomeUnknown:
    'outcome unknown: a money-moving request may or may not have been applied; running the same command again checks first and sends only if it did not go through',
  bulkPartial: 'bulk run finished with some rows failed',
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
} as const satisfies Record<string, () => string>;
