import type { Command } from 'commander';
import type { ApiClient, ClientOptions, RequestInput } from './api/client.js';
import { maxAnswerBytesFrom, maxListItemsFrom } from './api/answer-limits.js';
import type { Target } from './provider/endpoints.js';
import { isTestKey } from './provider/test-keys.js';
import { DirError } from './platform/dirs.js';
import { resolvePaths, type Paths } from './config/paths.js';
import { prepareSandboxDir } from './sandbox/paths.js';
import { resolveProfile, type ResolvedProfile } from './config/profile.js';
import { loadConfig, type ConfigFile } from './config/store.js';
import { CliError, UsageError } from './errors.js';
import type { GlobalOptions } from './globals.js';
import { clearStatusLine } from './output/status-line.js';
import { wrapMessage } from './output/wrap.js';
import { colorEnabled, stderrColumns, type IO } from './io.js';
import { Printer } from './output/printer.js';
import type { Logger } from './platform/logger.js';
import type { MoneyGuard } from './ledger/guard.js';
import type { Prompter } from './prompts/prompter.js';
import { whyPromptsAreOff } from './prompts/off.js';
import { USER_AGENT } from './version.js';

/**
 * The longest a service is given to answer whether it keeps a sandbox clock, asked once: a service
 * that does not know the path holds the command up no longer than this, whatever its timeout.
 */
const CLOCK_QUESTION_MS = 5_000;
/** A clock's answer is a few dozen bytes: a longer one is not a clock, and is not read on. */
const CLOCK_ANSWER_BYTES = 64 * 1024;

/**
 * What every command receives, in the style of gh's Factory: streams, options, a logger, and each
 * dependency built lazily on first use (config, profile, API client, prompter, the money guard).
 * Commands never reach for process.*, undici, inquirer or the config file themselves, so tests swap
 * them freely and start-up only pays for what a command uses. What a command prints goes through
 * `out` (output/printer.ts); the embedded sandbox is launched by sandbox/embedded.ts.
 */
export class Factory {
  readonly io: IO;
  readonly globals: GlobalOptions;
  readonly paths: Paths;
  readonly log: Logger;
  /** What the command prints: objects, views, rows, lists (output/printer.ts). */
  readonly out: Printer;
  private configCache?: ConfigFile;
  private profileCache?: ResolvedProfile;
  private settingsCache?: ResolvedProfile;
  private apiCache?: Promise<ApiClient>;
  private prompterCache?: Promise<Prompter>;
  private guardCache?: Promise<MoneyGuard>;
  private clockCache?: Promise<string | undefined>;
  private readonly cleanups: (() => Promise<void>)[] = [];
  private sandboxNoticeShown = false;
  private deliverWebhooks = false;
  private longRun = false;
  private readonly secrets = new Set<string>();

  /**
   * @param commandTree the whole command tree, for the verbs that describe it (completion scripts):
   *   handed in by cli.ts so that no verb imports the program back.
   */
  constructor(
    io: IO,
    globals: GlobalOptions,
    readonly commandTree: () => Command = () => {
      throw new Error('no command tree was given to this factory');
    },
  ) {
    this.io = io;
    this.globals = globals;
    this.paths = resolvePaths(io.env);
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
    this.out = new Printer(this);
  }

  /**
   * Prompts only when a person is there to answer: both ends are terminals, --no-input is absent
   * and no AI agent's shell runs this.
   */
  get interactive(): boolean {
    return this.promptsOff === undefined;
  }

  /** Why prompts are off in this run ("stdin is not a terminal"), for the messages that say so; undefined when they are on. */
  get promptsOff(): string | undefined {
    return whyPromptsAreOff(this.globals.input, this.io);
  }

  get color(): boolean {
    return colorEnabled(this.io.env, this.io.stdoutIsTTY, !this.globals.color);
  }

  get stderrColor(): boolean {
    return colorEnabled(this.io.env, this.io.stderrIsTTY, !this.globals.color);
  }

  async config(): Promise<ConfigFile> {
    this.configCache ??= await loadConfig(this.paths.configFile);
    return this.configCache;
  }

  /**
   * Changes the config file: reads it afresh under a lock shared by every payctl process, lets
   * `edit` change that copy in place (synchronously; throwing changes nothing), writes it back
   * and returns what `edit` returned. A change another process made meanwhile is kept. Loads the
   * writing code (conf) only here: commands that only read never pay for it.
   */
  async updateConfig<T>(edit: (config: ConfigFile) => T): Promise<T> {
    const { updateConfig } = await import('./config/write.js');
    const { config, result } = await updateConfig(this.paths.configFile, edit);
    this.configCache = config;
    delete this.profileCache;
    delete this.settingsCache;
    return result;
  }

  /** Fails fast when the config could not be saved (a login checks this before it sends anything). */
  async checkConfigWritable(): Promise<void> {
    const { checkWritable } = await import('./config/write.js');
    checkWritable(this.paths.configFile);
  }

  /** The current profile, with its API key (read from the OS keyring when it is kept there). */
  async profile(): Promise<ResolvedProfile> {
    if (!this.profileCache) {
      const profile = { ...(await this.profileSettings()) };
      if (profile.apiKeySource === 'keyring') profile.apiKey = await this.keyFromKeyring(profile.name);
      this.profileCache = profile;
    }
    return this.profileCache;
  }

  /**
   * Puts the process in the zone days and times are read and shown in (src/time/zone.ts):
   * PAYCTL_TIMEZONE, else the profile's timezone, else TZ (else the system's). Before a command
   * reads its flags. A config that cannot be read is not this step's to report: the command says
   * so when it needs the profile.
   */
  async applyTimeZone(): Promise<void> {
    let zone = this.io.env.TZ;
    try {
      zone = (await this.profileSettings()).timeZone ?? zone;
    } catch {
      // Left to the command; a zone named in the environment still holds.
      const { isTimeZone } = await import('./time/zone.js');
      if (this.io.env.PAYCTL_TIMEZONE && isTimeZone(this.io.env.PAYCTL_TIMEZONE)) zone = this.io.env.PAYCTL_TIMEZONE;
    }
    const { applyTimeZone } = await import('./time/zone.js');
    applyTimeZone(zone);
  }

  /** The current profile without reading a key kept in the keyring: for what needs only its settings (the output format). */
  /** The profile's settings (its output and csv_locale for the printer), or undefined when the config cannot be read. */
  settings(): Promise<ResolvedProfile | undefined> {
    return this.profileSettings().catch(() => undefined);
  }

  private async profileSettings(): Promise<ResolvedProfile> {
    if (!this.settingsCache) {
      const overrides: Parameters<typeof resolveProfile>[2] = {};
      if (this.globals.profile) overrides.profile = this.globals.profile;
      if (this.globals.timeoutSeconds !== undefined) overrides.timeoutSeconds = this.globals.timeoutSeconds;
      this.settingsCache = resolveProfile(await this.config(), this.io.env, overrides);
    }
    return this.settingsCache;
  }

  /**
   * The API key a login put in the OS keyring. Only profiles that keep their key there load the
   * keyring's native module, and only when a command resolves the profile. A keyring that cannot
   * be reached, or holds no key, is one line saying what to do (exit 2), before anything is sent.
   */
  private async keyFromKeyring(name: string): Promise<string> {
    const { KeyringUnreachable, readKeyringKey, unreachableFor } = await import('./config/keyring.js');
    const fix = `set PAYCTL_API_KEY, or run 'payctl login --profile ${name}' again`;
    try {
      const key = await readKeyringKey(name);
      if (key) return key;
    } catch (err) {
      throw err instanceof KeyringUnreachable ? unreachableFor(name, err, fix) : err;
    }
    throw new UsageError(`profile "${name}" keeps its API key in the OS keyring, but the keyring holds none for it; ${fix}`);
  }

  /** The API client for the current profile; starts the embedded sandbox when the profile uses it. */
  api(): Promise<ApiClient> {
    this.apiCache ??= this.createApi();
    return this.apiCache;
  }

  private async createApi(): Promise<ApiClient> {
    const profile = await this.profile();
    return this.globals.dryRun ? this.dryRunClient(profile) : this.clientFor(profile);
  }

  /**
   * Under --dry-run, a client that prints the first request a command would send and stops it
   * there (exit 0): reads are not sent either. The embedded sandbox is not even started.
   */
  private async dryRunClient(profile: ResolvedProfile): Promise<ApiClient> {
    const { ApiClient, checkTransportSecurity } = await import('./api/client.js');
    if (!profile.isEmbedded) checkTransportSecurity(profile.baseUrl, this.globals.insecureHttp);
    const { DryRunStop } = await import('./errors.js');
    const client = new ApiClient({
      ...this.clientOptions(profile, profile.isEmbedded ? 'sandbox://embedded' : profile.baseUrl),
      instead: async (shown) => {
        await this.out.dryRun(shown);
        throw new DryRunStop();
      },
    });
    this.cleanups.unshift(() => client.close());
    return client;
  }

  /**
   * A client for any profile settings (login checks a key before saving it). Starts the embedded
   * sandbox when the settings use it; closed with the factory.
   */
  async clientFor(profile: ResolvedProfile): Promise<ApiClient> {
    const { ApiClient, checkTransportSecurity } = await import('./api/client.js');
    let baseUrl = profile.baseUrl;
    if (profile.isEmbedded) {
      const { launchEmbeddedSandbox } = await import('./sandbox/embedded.js');
      const { entryUrl } = await import('./entry.js');
      const sandbox = await launchEmbeddedSandbox({
        stateDir: this.paths.stateDir,
        deliver: this.deliverWebhooks,
        threadEntry: this.longRun ? entryUrl() : undefined,
        warn: this.log.warn,
        debug: this.log.debug,
      });
      this.cleanups.push(() => sandbox.close());
      baseUrl = sandbox.url;
    } else {
      checkTransportSecurity(baseUrl, this.globals.insecureHttp);
    }
    const client = new ApiClient(this.clientOptions(profile, baseUrl));
    this.cleanups.unshift(() => client.close());
    return client;
  }

  /**
   * Said by a command that pages or loops (a long list, a bulk refund) before it asks for the API:
   * the embedded sandbox then gets its own thread.
   */
  expectLongRun(): void {
    this.longRun = true;
  }

  /** The sandbox's directory, made and checked before the embedded sandbox is used (sandbox/embedded.ts). */
  prepareSandboxState(): void {
    prepareSandboxDir(this.paths.stateDir);
  }

  private clientOptions(profile: ResolvedProfile, baseUrl: string): ClientOptions {
    return {
      baseUrl,
      apiKey: profile.apiKey,
      marketplaceId: profile.marketplaceId,
      timeoutMs: profile.timeoutSeconds * 1000,
      userAgent: USER_AGENT,
      maxAnswerBytes: maxAnswerBytesFrom(this.io.env),
      readLimits: { items: maxListItemsFrom(this.io.env) },
      // The embedded sandbox is on loopback inside this process: never send it through a proxy.
      proxyEnv: profile.isEmbedded ? undefined : this.io.env,
      debug: this.globals.debug ? (line) => this.io.stderr.write(`${line}\n`) : undefined,
      secrets: () => this.knownSecrets(),
    };
  }

  /** Strings that must never be printed, for the last line of defence in error output. */
  knownSecrets(): string[] {
    return [this.io.env.PAYCTL_API_KEY, this.profileCache?.apiKey, ...this.secrets].filter((s): s is string => Boolean(s));
  }

  /** Card data read in this run: masked wherever it might be echoed back (API error messages). */
  addSecret(value: string): void {
    if (value) this.secrets.add(value);
  }

  /** Refuses to go on without credentials, before anything is sent. */
  async requireApiKey(): Promise<void> {
    const profile = await this.profile();
    if (!profile.apiKey) {
      throw new UsageError(`profile "${profile.name}" has no API key; run 'payctl login --profile ${profile.name}' or set PAYCTL_API_KEY`);
    }
  }

  /**
   * The embedded sandbox, when this command starts it, also delivers events to webhooks (as
   * `sandbox serve` does): for `webhooks listen`, so it works with no server running.
   */
  deliverWebhooksFromEmbeddedSandbox(): void {
    this.deliverWebhooks = true;
  }

  /**
   * The day and time on the clock of payctl's sandbox (its `now`, ISO 8601), when the profile talks
   * to one: the embedded sandbox, or a server that answers a test key's GET /v1/sandbox/clock with
   * a clock (`sandbox serve`). Undefined for any other service: the provider's own test keys reach
   * one with no such clock, which keeps real time. Asked of the service, never read off the key,
   * and at most once a command. Only a test key is asked, since payctl's sandbox refuses every
   * other key (401): a live account is never sent a sandbox's question. A dry run asks nothing.
   */
  sandboxClock(): Promise<string | undefined> {
    this.clockCache ??= this.askSandboxClock();
    return this.clockCache;
  }

  private async askSandboxClock(): Promise<string | undefined> {
    if (this.globals.dryRun) return undefined;
    const profile = await this.profile();
    if (profile.isEmbedded) return (await (await this.api()).call('sandbox.clock')).now;
    if (!isTestKey(profile.apiKey)) return undefined;
    const { ApiClient, checkTransportSecurity } = await import('./api/client.js');
    checkTransportSecurity(profile.baseUrl, this.globals.insecureHttp);
    const bound = Math.min(profile.timeoutSeconds * 1000, CLOCK_QUESTION_MS);
    const client = new ApiClient({ ...this.clientOptions(profile, profile.baseUrl), timeoutMs: bound, maxAttempts: 1, maxAnswerBytes: CLOCK_ANSWER_BYTES });
    try {
      const { now } = await client.call('sandbox.clock');
      // A clock says a day and time; anything else (a 404, another object, junk) is no clock.
      return /^\d{4}-\d{2}-\d{2}T/.test(now) && Number.isFinite(Date.parse(now)) ? now : undefined;
    } catch (err) {
      if (err instanceof CliError) {
        this.log.debug(`no sandbox clock at ${profile.baseUrl} (${err.message}): real time`);
        return undefined;
      }
      throw err;
    } finally {
      await client.close();
    }
  }

  /** Whether the profile talks to payctl's sandbox (embedded, or a server that answers its clock): one that takes webhooks to this machine. */
  async isPayctlSandbox(): Promise<boolean> {
    return (await this.profile()).isEmbedded || (await this.sandboxClock()) !== undefined;
  }

  /**
   * Mutating commands against a sandbox say so, so no one mistakes it for a live account: the
   * embedded one, or a test key on any service. Said of the key, not the service, and true of
   * both: a test key of the provider's own moves no real money either.
   */
  async noteSandbox(): Promise<void> {
    if (this.sandboxNoticeShown) return;
    const profile = await this.profile();
    // Said just before the embedded sandbox is used: a state directory it cannot use is said instead.
    if (profile.isEmbedded && !this.globals.dryRun) this.prepareSandboxState();
    if (profile.isEmbedded || isTestKey(profile.apiKey)) {
      this.sandboxNoticeShown = true;
      this.io.stderr.write(profile.isEmbedded ? 'SANDBOX (embedded test service: no real money moves)\n' : 'SANDBOX (test API key: no real money moves)\n');
    }
  }

  /**
   * The ledger of money-moving intents of the current profile's account, with the protocol around
   * it (src/ledger/guard.ts). Opened on first use: only commands that move money load SQLite, or
   * the PostgreSQL driver when the profile shares a ledger (ledger_url, PAYCTL_LEDGER_URL).
   */
  moneyGuard(options: { noWait?: boolean } = {}): Promise<MoneyGuard> {
    this.guardCache ??= this.openGuard(options).catch((err: unknown) => {
      // Opened before a money move's first send: a state directory that cannot be written stops it
      // before anything went out, and the line says so.
      if (err instanceof DirError) throw new UsageError(`${err.message}. Nothing was sent`);
      throw err;
    });
    return this.guardCache;
  }

  private async openGuard(options: { noWait?: boolean }): Promise<MoneyGuard> {
    const profile = await this.profile();
    // Before the ledger is asked about earlier runs, whose checks would need the sandbox too.
    if (profile.isEmbedded) this.prepareSandboxState();
    const [{ openMoneyGuard }, { countdown }, where] = await Promise.all([import('./ledger/open-guard.js'), import('./output/countdown.js'), this.ledgerPlace()]);
    const { guard, close } = await openMoneyGuard(where, {
      settings: { timeoutMs: profile.timeoutSeconds * 1000, windowMs: profile.settleWindowSeconds * 1000, noWait: options.noWait === true },
      log: this.log,
      waiting: (what, until) => countdown(this.io.stderr, this.io.stderrIsTTY && !this.globals.quiet, this.log.warn, what, until),
    });
    this.cleanups.push(close);
    return guard;
  }

  /**
   * Where the current profile's account keeps its ledger (this machine's SQLite file, or the
   * shared PostgreSQL database), for the guard and for `payctl ledger check|reset`. Error messages
   * are kept with the intents they ended: cleaned of card data and secrets read in this run first.
   */
  async ledgerPlace(): Promise<{ place: import('./ledger/open.js').LedgerPlace; account: import('./ledger/account.js').Account; scrub: (text: string) => string }> {
    const profile = await this.profile();
    const [{ accountOf }, { maskText }, { ledgerUrlSecrets }] = await Promise.all([import('./ledger/account.js'), import('./api/mask.js'), import('./ledger/errors.js')]);
    if (profile.ledgerUrl) for (const secret of ledgerUrlSecrets(profile.ledgerUrl)) this.addSecret(secret);
    return {
      place: { stateDir: this.paths.stateDir, url: profile.ledgerUrl },
      account: accountOf(profile, this.paths.stateDir),
      scrub: (text) => maskText(text, this.knownSecrets()),
    };
  }

  prompter(): Promise<Prompter> {
    this.prompterCache ??= import('./prompts/inquirer.js').then(({ createInquirerPrompter }) =>
      createInquirerPrompter(this.io),
    );
    return this.prompterCache;
  }

  /**
   * Asks before money moves or things are removed. --yes answers for the user; with prompts off
   * and no --yes, the command stops with exit 2 rather than guess. A question given as a function
   * is put together only when it is asked (it may read the names of what it is about).
   */
  async confirm(question: string | (() => Promise<string>), action: string): Promise<void> {
    if (this.globals.yes) return;
    const off = this.promptsOff;
    if (off !== undefined) throw new UsageError(`--yes required to ${action} when prompts are off (${off})`);
    const prompter = await this.prompter();
    await prompter.confirmOrCancel(typeof question === 'string' ? question : await question());
  }

  /**
   * --dry-run: show the request that would be sent, masked, and send nothing. The embedded
   * sandbox is not even started; its requests are shown against sandbox://embedded.
   */
  async printDryRun(operation: Target, input: RequestInput): Promise<void> {
    const profile = await this.profile();
    const { ApiClient, checkTransportSecurity } = await import('./api/client.js');
    if (!profile.isEmbedded) checkTransportSecurity(profile.baseUrl, this.globals.insecureHttp);
    const client = new ApiClient(this.clientOptions(profile, profile.isEmbedded ? 'sandbox://embedded' : profile.baseUrl));
    const shown = client.describe(operation, input);
    await client.close();
    await this.out.dryRun(shown);
  }

  async close(): Promise<void> {
    for (const cleanup of this.cleanups.splice(0)) {
      await cleanup().catch(() => undefined);
    }
  }
}

