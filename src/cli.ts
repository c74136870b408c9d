import { fitHelp } from './commands/shared/help-wrap.js';
import { Command, CommanderError, Option } from 'commander';
import { formatApiError } from './api/error-body.js';
import { maskText } from './api/mask.js';
import { Factory, type NestedRun } from './factory.js';
import { ApiError, CliError, DryRunStop, ExitCode } from './errors.js';
import { parseGlobals } from './globals.js';
import { stderrColumns, type IO } from './io.js';
import { wrapMessage } from './output/wrap.js';
import { withoutControls } from './platform/control-chars.js';
import { api } from './commands/api/verbs.js';
import { approvals } from './commands/approvals/verbs.js';
import { login, logout, profiles, whoami } from './commands/auth/verbs.js';
import { balances } from './commands/balances/verbs.js';
import { boletos } from './commands/boletos/verbs.js';
import { buyers } from './commands/buyers/verbs.js';
import { cards } from './commands/cards/verbs.js';
import { completion } from './commands/completion/verbs.js';
import { config } from './commands/config/verbs.js';
import { events } from './commands/events/verbs.js';
import { exportCommand } from './commands/export/verbs.js';
import { reconcile } from './commands/reconcile/verbs.js';
import { futureEntries } from './commands/future-entries/verbs.js';
import { HELP_TOPIC_SUMMARIES, registerHelp } from './commands/help/index.js';
import { invoices } from './commands/invoices/verbs.js';
import { ledger } from './commands/ledger/verbs.js';
import { mcp } from './commands/mcp/verbs.js';
import { plans } from './commands/plans/verbs.js';
import { policy } from './commands/policy/verbs.js';
import { receipts } from './commands/receipts/verbs.js';
import { receivables } from './commands/receivables/verbs.js';
import { sandbox } from './commands/sandbox/verbs.js';
import { sellers } from './commands/sellers/verbs.js';
import { sources } from './commands/sources/verbs.js';
import { subscriptions } from './commands/subscriptions/verbs.js';
import { transactions } from './commands/transactions/verbs.js';
import { transfers } from './commands/transfers/verbs.js';
import { webhooks } from './commands/webhooks/verbs.js';
import { addGroup, addVerb, missingOf, subcommandTerm, type ActionFactory, type BoundVerb, type GroupDef, type RunF } from './commands/verb.js';
import { VERSION } from './version.js';

/** Shared by every registration: the run's streams and the factory once a verb starts (a nested run's: see NestedRun). */
export interface Runtime extends NestedRun {
  io: IO;
  /** Tests: what every verb runs instead of its own run, with no Factory (see RunF). */
  runF?: RunF;
}

/**
 * Runs payctl with these arguments and streams; returns the exit code. Never exits the process.
 * `beforeAction` is the entry point's, run once a command is about to run, with its verb as
 * typed ("sandbox serve"): never for help, which `payctl help …` is too. `runF` (tests)
 * replaces every verb's run: see RunF.
 */
export async function runCli(argv: string[], io: IO, hooks: { beforeAction?: (verb: string) => unknown; runF?: RunF } = {}): Promise<number> {
  const { beforeAction, runF } = hooks;
  const runtime: Runtime = runF ? { io, runF } : { io };
  const program = buildProgram(runtime, argv);
  if (beforeAction) program.hook('preAction', async (_program, command) => void (command.name() === 'help' ? undefined : await beforeAction(verbPath(command))));
  try {
    await program.parseAsync(argv, { from: 'user' });
    return ExitCode.ok;
  } catch (err) {
    return reportError(err, runtime, argv.includes('--debug'));
  } finally {
    await runtime.factory?.close();
  }
}

/** The whole tree when `argv` is omitted (tests, completions); else just what `argv` needs. */
/** The root --help's list of topics, one a line: `payctl help <topic>` and what it covers. */
function helpTopicLines(): string {
  const entries = Object.entries(HELP_TOPIC_SUMMARIES).map(([topic, summary]) => [`payctl help ${topic}`, summary] as const);
  const width = Math.max(...entries.map(([term]) => term.length));
  return entries.map(([term, summary]) => `  ${term.padEnd(width)}   ${summary}`).join('\n');
}

/** The widest help and topics are (bin/payctl.js relies on it: keep the two the same). */
export const HELP_WIDTH = 80;

export function buildProgram(runtime: Runtime, argv?: string[]): Command {
  const { io } = runtime;
  // Help and the topics are at most HELP_WIDTH columns wide, as a man page is (lines longer than
  // that read poorly), and narrower on a narrower terminal, wrapped at word boundaries, never left
  // for the terminal to break mid-word (commands/shared/help-wrap.ts). So a terminal at least that
  // wide is shown what a pipe is, which bin/payctl.js prints from the build's text.
  const columns = (io.stdout as { columns?: number }).columns;
  const helpWidth = io.stdoutIsTTY && columns !== undefined && columns >= 20 ? Math.min(columns, HELP_WIDTH) : HELP_WIDTH;
  const program = new Command('payctl')
    .description('Operate a payment-gateway account: transactions, refunds, card tokens and more.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .addOption(new Option('-p, --profile <name>', 'profile to use (env PAYCTL_PROFILE)'))
    .addOption(new Option('-o, --output <format>', 'table, json, ndjson or csv (default: table on a terminal, json otherwise)'))
    .option('--fields <list>', 'comma-separated dotted paths to keep, e.g. id,status,amount ("--fields help" lists them)')
    .option('--csv-locale <locale>', 'CSV: pt-BR for a Brazilian spreadsheet (; between cells, decimal commas, local times, a BOM), or none (default: the profile\'s csv_locale, else none)')
    .option('--csv-raw', "CSV: write cells that start with = + - @ as they are, without the ' that stops a spreadsheet running them")
    .option('--no-color', 'no ANSI colour (also NO_COLOR)')
    .option('--no-pager', 'print a long object view straight to the terminal instead of through $PAGER (less -FRX)')
    .option('--no-input', 'never prompt; fail naming the missing flags')
    .option('-y, --yes', 'confirm money-moving or destructive actions without asking')
    .option('--dry-run', 'print the request that would be sent and send nothing')
    .option('--debug', 'log each HTTP exchange to stderr (credentials and card data masked)')
    .option('--timeout <seconds>', 'deadline in seconds for each request, answer included (default 30)')
    .option('-q, --quiet', 'no status lines on stderr')
    .option('--insecure-http', 'allow a plain http:// base_url to a host that is not loopback')
    .showSuggestionAfterError(true)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(fitHelp(text, helpWidth)),
      writeErr: (text) => io.stderr.write(text),
    })
    .addHelpText(
      'after',
      `
Examples:
  $ payctl transactions create --amount 10.50 --card-number 4111111111111111 --holder-name "Maria Silva" --exp-month 12 --exp-year 2030 --cvv 123
  $ payctl transactions list --status succeeded --limit 5
  $ payctl transactions refund <id> --amount 5.00 --yes
  $ payctl login --profile live --base-url https://api.example.com --api-key-stdin < key.txt

Each command's --help shows its own options and the global options above.

Help topics:
${helpTopicLines()}

Guides: the docs/ directory of payctl's sources (support, refunds-and-bulk, approvals, agents,
finance-and-exports, marketplace-and-splits, recurrence, webhooks, scripting, sandbox), and man
payctl.

The built-in "sandbox" profile runs an emulated payment service inside payctl: every command
works right after install, with no account.`,
    );

  const action: ActionFactory = (bound) => async (...args: unknown[]) => {
    const command = args.at(-1) as Command;
    const positional = (args.slice(0, -2) as (string | string[] | undefined)[]).flatMap((a) =>
      a === undefined ? [] : Array.isArray(a) ? a : [a],
    );
    const options = command.opts();
    const missing = missingOf(bound.verb, positional.length, options);
    if (runtime.runF) {
      const verb = await bound.load();
      verb.check?.(positional, options);
      return runtime.runF({ verb: verbPath(command), args: positional, options, globals: parseGlobals(command.optsWithGlobals()), missing });
    }
    const factory = new Factory(io, runtime.globals ?? parseGlobals(command.optsWithGlobals()), (nested, words) => buildProgram(Object.assign(nested ?? {}, { io: nested?.io ?? io }), words === undefined ? undefined : [...words]));
    if (runtime.approving) factory.approving = runtime.approving;
    if (runtime.agent) factory.agent = runtime.agent;
    runtime.factory = factory;
    // The profile's time zone first: a flag rule may read a date as a local day (a due date not in the past).
    await factory.config.applyTimeZone();
    const verb = await bound.load();
    verb.check?.(positional, options);
    if (options.again === true) (await import('./commands/shared/again.js')).refuseAgainFromAgent(factory);
    // What the command line left out is asked for on a terminal, else named (exit 2), before the verb runs.
    if (missing.length > 0) await (await import('./commands/shared/ask-missing.js')).askMissing(factory, missing, positional, options);
    await verb.run(factory, positional, options);
  };

  // Every group is listed (for help and "did you mean"), but only the one the command line names
  // gets its verbs and flags built: start-up stays flat as the command tree grows.
  const target = argv === undefined ? undefined : targetGroup(argv);
  const groups: (GroupDef | BoundVerb)[] = [
    transactions,
    sellers,
    buyers,
    cards,
    sources,
    boletos,
    receipts,
    receivables,
    plans,
    subscriptions,
    invoices,
    balances,
    transfers,
    futureEntries,
    webhooks,
    events,
    exportCommand,
    reconcile,
    api,
    ledger,
    policy,
    approvals,
    mcp,
    completion,
  ];
  const named = (names: readonly string[]) => argv === undefined || names.includes(target ?? '');
  for (const group of groups) {
    if ('verb' in group) addVerb(program, group, action);
    else addGroup(program, group, action, named([group.name, ...(group.aliases ?? [])]));
  }
  for (const verb of [login, logout, whoami]) addVerb(program, verb, action);
  addGroup(program, profiles, action);
  addGroup(program, config, action, named(['config']));
  addGroup(program, sandbox, action, named(['sandbox']));
  registerHelp(program, io, helpWidth);

  // --fields is checked against what the verb prints as the verb is reached, before its own
  // arguments are: nothing is sent with a mistyped path, and `--fields help` needs no <id>.
  const checkFieldsFirst = async (_parent: Command, verb: Command) => {
    if (verb.commands.length > 0) return; // a group: its verb is checked next
    const globals = parseGlobals(program.opts());
    if (!globals.fields) return;
    const { checkFields } = await import('./commands/printed-fields.js');
    if (await checkFields(new Factory(io, globals), verbPath(verb))) throw new CommanderError(ExitCode.ok, 'payctl.fieldsHelp', '--fields help');
  };

  // Every group and verb reports errors the same way and writes to the run's streams.
  const configure = (command: Command) => {
    if (command.commands.length > 0) command.hook('preSubcommand', checkFieldsFirst);
    // What an 80-column line leaves for a verb's summary beside the widest verb of this group.
    const room = 80 - 4 - Math.max(0, ...command.commands.map((sub) => subcommandTerm(sub).length));
    for (const sub of command.commands) {
      // A group's list of verbs shows each on one line of an 80-column terminal: the description
      // up to its first ':' or ';' (or ',' or '(' when that is still long), cut at a word if need
      // be; the verb's own --help has all of it.
      if (!sub.summary()) sub.summary(briefly(sub.description(), room));
      if (sub.commands.length > 0) sub.configureHelp({ helpWidth, subcommandTerm });
      // A verb's help lists the global options too, as they apply to it (gh's "inherited flags").
      else if (sub.name() !== 'help') sub.configureHelp({ ...sub.configureHelp(), helpWidth, showGlobalOptions: true, visibleGlobalOptions: globalOptions });
      sub.exitOverride().configureOutput({
        writeOut: (text) => io.stdout.write(fitHelp(text, helpWidth)),
        writeErr: (text) => io.stderr.write(text),
      });
      sub.showSuggestionAfterError(true).showHelpAfterError('(run with --help for usage)');
      configure(sub);
    }
  };
  configure(program);
  program.configureHelp({ helpWidth, subcommandTerm });
  return program;
}

/** A description brief enough for `room` columns: up to its first ':' or ';' (or ',' or '('), else cut at a word. */
function briefly(description: string, room: number): string {
  const width = Math.max(30, room);
  if (description.length <= width) return description;
  for (const stop of [/: |; /, /, | \(/]) {
    const head = description.split(stop)[0] as string;
    if (head.length <= width && head.length >= 16) return head;
  }
  const cut = description.slice(0, width - 1);
  return `${cut.slice(0, cut.lastIndexOf(' '))}…`;
}

/** The program's options but --version, which only `payctl --version` takes. */
function globalOptions(command: Command): Option[] {
  let program = command;
  while (program.parent) program = program.parent;
  return program.options.filter((option) => !option.hidden && option.long !== '--version');
}

/** A verb as typed without aliases and global options: "transactions refund". */
function verbPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

// Global options that take a value: their value is not the group name.
const GLOBAL_OPTIONS_WITH_VALUES = new Set(['-p', '--profile', '-o', '--output', '--fields', '--timeout']);

/** The group a command line names: its first word that is not an option (after `help`, the next). */
export function targetGroup(argv: string[]): string | undefined {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (GLOBAL_OPTIONS_WITH_VALUES.has(arg)) i++;
      continue;
    }
    words.push(arg);
    if (words[0] !== 'help' || words.length === 2) break;
  }
  return words[0] === 'help' ? words[1] : words[0];
}

function reportError(err: unknown, runtime: Runtime, debugFlag: boolean): number {
  const { io } = runtime;
  if (err instanceof CommanderError) {
    // Help and version "errors" are how commander stops after printing them.
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.exitCode === 0) {
      return ExitCode.ok;
    }
    return ExitCode.usage; // commander already printed the message
  }
  // --dry-run printed the first request instead of sending it (Factory.api): done.
  if (err instanceof DryRunStop) return ExitCode.ok;
  // The reader went away (`payctl … | head`): nothing more to say, and nobody to say it to.
  if ((err as NodeJS.ErrnoException)?.code === 'EPIPE') return ExitCode.ok;
  const debug = debugFlag || runtime.factory?.globals.debug === true;
  const secrets = runtime.factory?.secrets.known() ?? [];
  let message: string;
  let code: number;
  if (err instanceof ApiError) {
    message = formatApiError(err);
    code = err.exitCode;
  } else if (err instanceof CliError) {
    message = err.message;
    code = err.exitCode;
  } else {
    message = `unexpected internal error: ${(err as Error)?.message ?? String(err)}`;
    code = ExitCode.internal;
  }
  // A message can quote the service, and the service can quote what a buyer typed: nothing in it
  // may act on the terminal. On a terminal it is wrapped between words, as warnings are (an id
  // broken where the terminal ran out cannot be copied); in a pipe it stays one line.
  io.stderr.write(`${wrapMessage('error: ', withoutControls(maskText(message, secrets)), stderrColumns(io))}\n`);
  if (debug && err instanceof Error && err.stack) io.stderr.write(`${maskText(stackFrames(err.stack), secrets).split('\n').map(withoutControls).join('\n')}\n`);
  return code;
}

/**
 * A stack's frames (`    at …`) without the line before them: that says the message again, under
 * the error's class name (minified in the bundle: "r: no transaction has…"), and the one line
 * starting "error:" has said it already.
 */
function stackFrames(stack: string): string {
  const first = stack.search(/^ +at /m);
  return first > 0 ? stack.slice(first) : stack;
}
