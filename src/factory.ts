import type { Command } from 'commander';
import type { ApiClient } from './api/client.js';
import { Configuration } from './config/configuration.js';
import { DirError } from './platform/dirs.js';
import { UsageError } from './errors.js';
import type { GlobalOptions } from './globals.js';
import { clearStatusLine } from './output/status-line.js';
import { wrapMessage } from './output/wrap.js';
import { stderrColumns, type IO } from './io.js';
import { Printer } from './output/printer.js';
import type { Logger } from './platform/logger.js';
import type { MoneyGuard } from './ledger/guard.js';
import type { Actor, AgentClient } from './ledger/actor.js';
import type { ApprovalRequest } from './ledger/policy/types.js';
import { Prompts } from './prompts/prompts.js';
import { Secrets } from './secrets.js';
import { Service } from './service.js';

/**
 * A verb run from within another through the command tree, as its words are parsed for a user
 * (`approvals approve` sends an approved request by the command's own code): what its Factory is
 * given instead of what its words would give, and that Factory once it runs, which whoever
 * started it closes.
 */
export interface NestedRun {
  io?: IO;
  globals?: GlobalOptions;
  approving?: ApprovalRequest;
  /** The agent a `payctl mcp` tool call runs for: the actor is that agent, and its person may confirm at the client. */
  agent?: AgentClient;
  factory?: Factory;
}

/**
 * What every command receives, in the style of gh's Factory: streams, options, a logger, and each
 * dependency built lazily on first use: the printer, the configuration and profile, the prompts,
 * the service and its API client, the money guard, the secrets not to print. Commands never reach
 * for process.*, undici, inquirer or the config file themselves, so tests swap them freely and
 * start-up only pays for what a command uses. What a command prints goes through `out`
 * (output/printer.ts); the embedded sandbox is launched by service.ts, the ledger placed by
 * ledger-place.ts.
 */
export class Factory {
  readonly io: IO;
  readonly globals: GlobalOptions;
  readonly log: Logger;
  private outCache?: Printer;
  private configCache?: Configuration;
  private promptsCache?: Prompts;
  private serviceCache?: Service;
  private secretsCache?: Secrets;
  private guardCache?: Promise<MoneyGuard>;
  private actorCache?: Promise<Actor>;
  /**
   * The approved request this run sends (set by `payctl approvals approve`, which runs the move
   * through the command's own code): the money guard then checks that the move is the one
   * requested, instead of judging it by the rules again.
   */
  approving: ApprovalRequest | undefined;
  /** The agent this run acts for, when `payctl mcp` runs it as a tool call: see NestedRun. */
  agent: AgentClient | undefined;
  private readonly cleanups: (() => Promise<void>)[] = [];

  /**
   * @param commandTree the command tree, for the verbs that describe it (completion scripts) or run
   *   another verb (a NestedRun): handed in by cli.ts so that no verb imports the program back.
   *   Given the words a run parses, it builds only the group they name (as a user's run does);
   *   without them, the whole tree.
   */
  constructor(
    io: IO,
    globals: GlobalOptions,
    readonly commandTree: (nested?: NestedRun, argv?: readonly string[]) => Command = () => {
      throw new Error('no command tree was given to this factory');
    },
  ) {
    this.io = io;
    this.globals = globals;
    const write = (line: string) => {
      clearStatusLine();
      io.stderr.write(`${line}\n`);
    };
    // Status lines and warnings are wrapped between words on a terminal, which would break a long
    // line mid-word (an id, a path); --debug's lines stay as they are.
    const wrapped = (prefix: string, message: string) => write(wrapMessage(prefix, message, stderrColumns(io)));
    this.log = {
      status: (message) => {
        if (!globals.quiet) wrapped('', message);
      },
      warn: (message) => wrapped('warning: ', message),
      debug: (message) => {
        if (globals.debug) write(message);
      },
    };
  }

  /** What the command prints: objects, views, rows, lists (output/printer.ts). */
  get out(): Printer {
    this.outCache ??= new Printer(this);
    return this.outCache;
  }

  /** Where payctl keeps its files, the config file and the current profile (config/configuration.ts). */
  get config(): Configuration {
    this.configCache ??= new Configuration(this.io, this.globals);
    return this.configCache;
  }

  /** Whether anyone may be asked, the prompter and the question before a change (prompts/prompts.ts). */
  get prompts(): Prompts {
    this.promptsCache ??= new Prompts(this.io, this.globals);
    return this.promptsCache;
  }

  /** The service the profile talks to: its client, the dry run, the sandbox's notice and clock (service.ts). */
  get service(): Service {
    this.serviceCache ??= new Service({
      io: this.io,
      globals: this.globals,
      log: this.log,
      config: this.config,
      secrets: this.secrets,
      dryRun: (shown) => this.out.dryRun(shown),
      onClose: (close, first) => (first ? this.cleanups.unshift(close) : this.cleanups.push(close)),
    });
    return this.serviceCache;
  }

  /** Strings never to be printed: the API key, card data read in this run (secrets.ts). */
  get secrets(): Secrets {
    this.secretsCache ??= new Secrets(() => [this.io.env.PAYCTL_API_KEY, this.configCache?.keyRead]);
    return this.secretsCache;
  }

  /** The API client for the current profile; starts the embedded sandbox when the profile uses it. */
  api(): Promise<ApiClient> {
    return this.service.api();
  }

  /**
   * Who runs this command, as rules and the ledger's trail name them (ledger/actor.ts): `user@host`,
   * the profile's operator_name, and whether a person, a script (prompts off) or an agent acts.
   */
  actor(): Promise<Actor> {
    this.actorCache ??= Promise.all([this.config.profile(), import('./ledger/actor.js')]).then(([profile, { actorOf }]) =>
      actorOf(this.io.env, this.prompts.off !== undefined, profile.operatorName, this.agent),
    );
    return this.actorCache;
  }

  /**
   * The ledger of money-moving intents of the current profile's account, with the protocol around
   * it (src/ledger/guard.ts). Opened on first use: only commands that move money load SQLite, or
   * the PostgreSQL driver when the profile shares a ledger (ledger_url, PAYCTL_LEDGER_URL).
   */
  moneyGuard(options: { noWait?: boolean } = {}): Promise<MoneyGuard> {
    // An agent's call never waits out a lost answer's settle window: it is told the outcome is
    // unknown, and a later call finds what happened (payctl mcp).
    if (this.agent) options = { ...options, noWait: true };
    this.guardCache ??= this.openGuard(options).catch((err: unknown) => {
      // Opened before a money move's first send: a state directory that cannot be written stops it
      // before anything went out, and the line says so.
      if (err instanceof DirError) throw new UsageError(`${err.message}. Nothing was sent`);
      throw err;
    });
    return this.guardCache;
  }

  private async openGuard(options: { noWait?: boolean }): Promise<MoneyGuard> {
    const profile = await this.config.profile();
    // Before the ledger is asked about earlier runs, whose checks would need the sandbox too.
    if (profile.isEmbedded) this.service.prepareSandboxState();
    const [{ openMoneyGuard }, { countdown }, { ledgerPlace }, { PolicyGate }, { currentTimeZone }, { agentOf }, actor] = await Promise.all([
      import('./ledger/open-guard.js'),
      import('./output/countdown.js'),
      import('./ledger-place.js'),
      import('./ledger/policy/gate.js'),
      import('./time/zone.js'),
      import('./ledger/actor.js'),
      this.actor(),
    ]);
    const { guard, close } = await openMoneyGuard(await ledgerPlace(this.config, this.secrets), {
      settings: { timeoutMs: profile.timeoutSeconds * 1000, windowMs: profile.settleWindowSeconds * 1000, noWait: options.noWait === true },
      log: this.log,
      waiting: (what, until) => countdown(this.io.stderr, this.io.stderrIsTTY && !this.globals.quiet, this.log.warn, what, until),
      // The team's rules, judged for this actor in the account's time zone (where a daily limit's day begins).
      gate: (ledger) => new PolicyGate({ book: ledger.policy, ledger, actor, zone: profile.timeZone ?? currentTimeZone(), approving: this.approving, confirmAtClient: this.agent?.confirm }),
    }, { name: profile.operatorName, agent: agentOf(actor), session: actor.session });
    this.cleanups.push(close);
    return guard;
  }

  async close(): Promise<void> {
    for (const cleanup of this.cleanups.splice(0)) {
      await cleanup().catch(() => undefined);
    }
  }
}
