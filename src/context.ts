import type { ApiClient, ClientOptions, PreparedRequest, RequestInput } from './api/client.js';
import { maxAnswerBytesFrom } from './api/answer-limits.js';
import type { Target } from './api/endpoints.js';
import { DirError, ensureDir } from './config/dirs.js';
import { resolvePaths, sandboxDir, type Paths } from './config/paths.js';
import { resolveProfile, type ResolvedProfile } from './config/profile.js';
import { loadConfig, type ConfigFile } from './config/store.js';
import { UsageError } from './errors.js';
import type { GlobalOptions } from './globals.js';
import { clearStatusLine } from './output/status-line.js';
import { colorEnabled, type IO } from './io.js';
import type { ObjectView } from './output/object-view.js';
import type { Column, OutputFormat } from './output/render.js';
import type { TotalSpec } from './output/totals.js';
import type { MoneyGuard } from './ledger/guard.js';
import type { Prompter } from './prompts/prompter.js';
import { USER_AGENT } from './version.js';

/** A list verb's whole output: what to fetch and how to show it. */
export interface ListSpec {
  operation: Target;
  input: RequestInput;
  request: { limit: number; all: boolean };
  /** Plural noun for progress and totals: "transactions". */
  noun: string;
  columns: Column[];
  /** Display-only fields for the table (a masked CPF, a computed fee); never in JSON or CSV. */
  tableRow?: (item: Record<string, unknown>) => Record<string, unknown>;
  /** For a table only, before tableRow: a page given what other reads tell (a buyer's name). */
  tablePage?: (api: ApiClient, page: unknown[]) => Promise<unknown[]>;
  /** The CSV header when --fields is not given: the same columns whatever the data. */
  csvColumns?: string[];
  /** Sums printed under the table. */
  totals?: TotalSpec[];
  /** --group-by: the items summed per group (output/summary.ts) instead of listed. */
  groupBy?: { by: import('./output/summary.js').Dimension; spec: import('./output/summary.js').SummarySpec };
  /** Where the pages come from, when one request cannot say what is wanted (see transactions list). */
  pages?: (api: ApiClient, onPage?: (items: number, total: number | undefined) => void) => AsyncGenerator<unknown[]>;
}

/**
 * Up to this many items (one page of a list, as many refunds) a command is short: not worth a
 * thread for the embedded sandbox (see startEmbeddedSandbox).
 */
export const SHORT_RUN_ITEMS = 100;

export interface Logger {
  /** Progress and status lines; silenced by --quiet. */
  status(message: string): void;
  /** Warnings always show. */
  warn(message: string): void;
  debug(message: string): void;
}

/**
 * What every command receives: streams, options, and lazily built dependencies. Commands never
 * reach for process.*, undici, inquirer or the config file themselves, so tests swap them freely
 * and start-up only pays for what a command uses.
 */
/**
 * A list cut at --limit with more behind it: how many there are in all (when the service says)
 * and what shows them all. Undefined when the list was shown whole.
 */
function partOf(count: number, extent: import('./api/client.js').ListExtent | undefined): { total: number | undefined; hint: string } | undefined {
  if (!extent) return undefined;
  if (extent.total !== undefined && extent.total > count) return { total: extent.total, hint: '--all for every one' };
  if (extent.more) return { total: undefined, hint: 'more: --all for every one' };
  return undefined;
}

export class Context {
  readonly io: IO;
  readonly globals: GlobalOptions;
  readonly paths: Paths;
  readonly log: Logger;
  private configCache?: ConfigFile;
  private profileCache?: ResolvedProfile;
  private settingsCache?: ResolvedProfile;
  private apiCache?: Promise<ApiClient>;
  private prompterCache?: Promise<Prompter>;
  private guardCache?: Promise<MoneyGuard>;
  private dryRunWritten = false;
  private readonly cleanups: (() => Promise<void>)[] = [];
  private sandboxNoticeShown = false;
  private deliverWebhooks = false;
  private longRun = false;
  private preferredOutput?: OutputFormat;
  private readonly secrets = new Set<string>();

  constructor(io: IO, globals: GlobalOptions) {
    this.io = io;
    this.globals = globals;
    this.paths = resolvePaths(io.env);
    const write = (line: string) => {
      clearStatusLine();
      io.stderr.write(`${line}\n`);
    };
    this.log = {
      status: (message) => {
        if (!globals.quiet) write(message);
      },
      warn: (message) => write(`warning: ${message}`),
      debug: (message) => {
        if (globals.debug) write(message);
      },
    };
  }

  /** Prompts only when a person is there to answer: both ends are terminals and --no-input is absent. */
  get interactive(): boolean {
    return this.globals.input && this.io.stdinIsTTY && this.io.stdoutIsTTY;
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
   * writing code (conf, proper-lockfile) only here: commands that only read never pay for it.
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
        await this.writeDryRun(shown);
        throw new DryRunStop();
      },
    });
    this.cleanups.unshift(() => client.close());
    return client;
  }

  /**
   * A client for any profile settings (login checks a key before saving it). Starts the embedded
   * sandbox when the settings use it; closed with the context.
   */
  async clientFor(profile: ResolvedProfile): Promise<ApiClient> {
    const { ApiClient, checkTransportSecurity } = await import('./api/client.js');
    let baseUrl = profile.baseUrl;
    if (profile.isEmbedded) {
      const sandbox = await this.startEmbeddedSandbox();
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

  /**
   * The embedded sandbox, on its own thread for a long run, so that the sandbox's work and the
   * command's overlap on two cores: a 100,000-item export takes half the time. A short command
   * keeps it on the command's thread, since starting a thread costs about 75 ms, half of a
   * `transactions get`. Driven from source (the in-process tests, see entry.ts), it is always here.
   */
  private async startEmbeddedSandbox(): Promise<import('./sandbox/server.js').SandboxHandle> {
    this.prepareSandboxState();
    const data = { stateDir: this.paths.stateDir, deliver: this.deliverWebhooks };
    const { entryUrl } = await import('./entry.js');
    const entry = this.longRun ? entryUrl() : undefined;
    if (!entry) {
      const { startSandbox } = await import('./sandbox/index.js');
      return startSandbox({ ...data, onNotice: (line) => this.log.warn(line) });
    }
    const { startSandboxThread } = await import('./sandbox/thread-host.js');
    const sandbox = await startSandboxThread(entry, data, (why) => this.log.warn(`the embedded sandbox stopped: ${why}`));
    this.log.debug(`* embedded sandbox on its own thread at ${sandbox.url}`);
    return sandbox;
  }

  /**
   * Makes the sandbox's directory in the state directory if missing, and checks it can be written,
   * before the sandbox starts: one that cannot be used is one line naming it (exit 2) before
   * anything is sent, rather than a failed request (a network error, or an unknown outcome).
   */
  prepareSandboxState(): void {
    ensureDir(sandboxDir(this.paths.stateDir), 'state directory');
  }

  private clientOptions(profile: ResolvedProfile, baseUrl: string): ClientOptions {
    return {
      baseUrl,
      apiKey: profile.apiKey,
      marketplaceId: profile.marketplaceId,
      timeoutMs: profile.timeoutSeconds * 1000,
      userAgent: USER_AGENT,
      maxAnswerBytes: maxAnswerBytesFrom(this.io.env),
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

  /** Whether the profile talks to a sandbox (embedded, or `sandbox serve` with a test key) rather than a live account. */
  async isSandbox(): Promise<boolean> {
    const profile = await this.profile();
    return profile.isEmbedded || profile.apiKey?.startsWith('zpk_test_') === true;
  }

  /** Mutating commands against a sandbox say so, so no one mistakes it for a live account. */
  async noteSandbox(): Promise<void> {
    if (this.sandboxNoticeShown) return;
    const profile = await this.profile();
    // Said just before the embedded sandbox is used: a state directory it cannot use is said instead.
    if (profile.isEmbedded && !this.globals.dryRun) this.prepareSandboxState();
    if (profile.isEmbedded || profile.apiKey?.startsWith('zpk_test_')) {
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
    const [{ openLedger }, { MoneyGuard }, { countdown }, where] = await Promise.all([
      import('./ledger/open.js'),
      import('./ledger/guard.js'),
      import('./output/countdown.js'),
      this.ledgerPlace(),
    ]);
    const ledger = await openLedger(where.place, where.account, where.scrub);
    this.cleanups.push(() => ledger.close());
    return new MoneyGuard({
      ledger,
      settings: { timeoutMs: profile.timeoutSeconds * 1000, windowMs: profile.settleWindowSeconds * 1000, noWait: options.noWait === true },
      log: this.log,
      waiting: (what, until) => countdown(this.io.stderr, this.io.stderrIsTTY && !this.globals.quiet, this.log.warn, what, until),
    });
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
   * and no --yes, the command stops with exit 2 rather than guess.
   */
  async confirm(question: string, action: string): Promise<void> {
    if (this.globals.yes) return;
    if (!this.interactive) {
      throw new UsageError(`--yes required to ${action} when prompts are off (stdin or stdout is not a terminal, or --no-input)`);
    }
    const prompter = await this.prompter();
    await prompter.confirmOrCancel(question);
  }

  /** A command whose output is JSON unless asked otherwise (`payctl api`, like `gh api`). */
  preferOutput(format: OutputFormat): void {
    this.preferredOutput = format;
  }

  async outputFormat(): Promise<OutputFormat> {
    if (this.globals.output) return this.globals.output;
    if (this.preferredOutput) return this.preferredOutput;
    const profile = await this.profileSettings().catch(() => undefined);
    if (profile?.output) {
      const { parseFormat } = await import('./globals.js');
      return parseFormat(profile.output, `profile "${profile.name}" output setting`);
    }
    return this.io.stdoutIsTTY ? 'table' : 'json';
  }

  /** Renders one result; `tableRow` as for lists (display-only fields, table format only). */
  async render(data: unknown, tableRow?: (item: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
    const { renderObject } = await import('./output/render.js');
    const options = await this.renderOptions();
    const shown = options.format === 'table' && tableRow && data && typeof data === 'object' && !Array.isArray(data) ? tableRow(data as Record<string, unknown>) : data;
    await renderObject(shown, options);
  }

  /**
   * One object as a person reads it on a table: `view` (title, summary, sections) instead of a
   * dump of every field, through the pager when taller than the terminal. `short` prints the
   * title and summary only (after a refund or capture). JSON, NDJSON, CSV and --fields print the
   * API's object as `render` does.
   */
  async show(data: unknown, view: ObjectView, options: { tableRow?: (item: Record<string, unknown>) => Record<string, unknown>; short?: boolean } = {}): Promise<void> {
    const format = await this.outputFormat();
    if (format !== 'table' || this.globals.fields || data === null || typeof data !== 'object' || Array.isArray(data)) return this.render(data, options.tableRow);
    const [{ drawObjectView }, { terminalColumns }, { showInPager }, { writeOut }] = await Promise.all([
      import('./output/object-view.js'),
      import('./output/table.js'),
      import('./output/pager.js'),
      import('./output/write.js'),
    ]);
    const item = options.tableRow ? options.tableRow(data as Record<string, unknown>) : (data as Record<string, unknown>);
    const text = await drawObjectView(view, item, { color: this.color, columns: terminalColumns(this.io.stdout), ...(options.short ? { short: true } : {}) });
    if (!options.short && (await showInPager(text, this.io, this.globals.pager))) return;
    await writeOut(this.io.stdout, text);
  }

  /** Rows already at hand (a summary, a reconciliation, the ledger's moves), rendered as a list. */
  async renderRows(rows: unknown[], columns: Column[], tableRow?: (item: Record<string, unknown>) => Record<string, unknown>): Promise<number> {
    return this.renderList(
      (async function* () {
        yield rows;
      })(),
      columns,
      tableRow,
    );
  }

  /**
   * Renders a list. `tableRow` adds display-only fields for the table (a masked CPF, a computed
   * fee); JSON, NDJSON and CSV always get the API's objects unchanged.
   */
  async renderList(pages: AsyncIterable<unknown[]>, columns: Column[], tableRow?: (item: Record<string, unknown>) => Record<string, unknown>): Promise<number> {
    const { renderList } = await import('./output/render.js');
    const options = { ...(await this.renderOptions()), columns };
    const shown = options.format === 'table' && tableRow ? mapPages(pages, tableRow) : pages;
    return renderList(shown, options);
  }

  /**
   * Fetches a list page by page and renders it as it arrives: with a progress bar on stderr for
   * `--all` on a terminal, and a totals line under the table where the spec asks for one.
   */
  async list(spec: ListSpec): Promise<number> {
    // A short list (one page) neither grows V8's young generation nor is worth a sandbox thread.
    const long = spec.request.all || spec.request.limit > SHORT_RUN_ITEMS;
    const capGrowth = long ? (await import('./output/young-generation.js')).capYoungGeneration() : undefined;
    if (long) this.expectLongRun();
    const api = await this.api();
    const format = await this.outputFormat();
    const progress =
      spec.request.all && this.io.stderrIsTTY && !this.globals.quiet ? (await import('./output/progress.js')).pageProgress(this.io.stderr, spec.noun) : undefined;
    const totals = format === 'table' && spec.totals ? new (await import('./output/totals.js')).Totals(spec.noun, spec.totals) : undefined;
    // What the last page said of the list's length: a table that shows part of it says so.
    let extent: import('./api/client.js').ListExtent | undefined;
    const source = spec.pages
      ? spec.pages(api, progress?.page)
      : api.pages(spec.operation, spec.input, { ...spec.request, ...(progress ? { onPage: progress.page } : {}), onExtent: (e) => (extent = e) });
    async function* tapped(): AsyncGenerator<unknown[]> {
      try {
        for await (const page of source) {
          capGrowth?.();
          if (totals) for (const item of page) totals.add(item);
          yield page;
        }
      } finally {
        // Gone before anything else is written: the rows' end, the totals, or an error.
        progress?.stop();
      }
    }
    if (spec.groupBy) return this.listGrouped(spec, spec.groupBy, tapped(), totals);
    const { renderList } = await import('./output/render.js');
    const options = { ...(await this.renderOptions()), columns: spec.columns, ...(spec.csvColumns ? { csvColumns: spec.csvColumns } : {}) };
    const enriched = format === 'table' && spec.tablePage ? enrichPages(tapped(), (page) => (spec.tablePage as NonNullable<ListSpec['tablePage']>)(api, page)) : tapped();
    const rows = format === 'table' && spec.tableRow ? mapPages(enriched, spec.tableRow) : enriched;
    const count = await renderList(rows, options);
    const shownOf = format === 'table' && !spec.request.all && count >= spec.request.limit ? partOf(count, extent) : undefined;
    if (totals && count > 0) {
      const { writeOut } = await import('./output/write.js');
      await writeOut(this.io.stdout, `${await totals.line(this.io.stdout, shownOf)}\n`);
    } else if (shownOf !== undefined) {
      const { writeOut } = await import('./output/write.js');
      const { counted, formatCount, singular } = await import('./output/plural.js');
      await writeOut(this.io.stdout, `${shownOf.total === undefined ? counted(count, singular(spec.noun), spec.noun) : `${formatCount(count)} of ${counted(shownOf.total, singular(spec.noun), spec.noun)}`} (${shownOf.hint})\n`);
    }
    // A table of instants says once which clock they are on, unless it is UTC's.
    if (format === 'table' && count > 0 && spec.columns.some((c) => c.kind === 'date' && c.key.endsWith('_at'))) {
      const note = (await import('./time/zone.js')).zoneNote();
      const { writeOut } = await import('./output/write.js');
      if (note) await writeOut(this.io.stdout, `${this.color ? new (await import('chalk')).Chalk({ level: 1 }).dim(note) : note}\n`);
    }
    return count;
  }

  /** A list summed per group (--group-by): one row a group, a bar beside each on a table, the totals line under it. */
  private async listGrouped(spec: ListSpec, groupBy: NonNullable<ListSpec['groupBy']>, pages: AsyncIterable<unknown[]>, totals: import('./output/totals.js').Totals | undefined): Promise<number> {
    const { Summary, summaryColumns, withBars } = await import('./output/summary.js');
    const summary = new Summary(groupBy.spec, groupBy.by);
    let count = 0;
    for await (const page of pages) {
      for (const item of page) summary.add(item);
      count += page.length;
    }
    const format = await this.outputFormat();
    const rows = summary.rows();
    if (format !== 'table') {
      await this.renderRows(rows, summaryColumns(groupBy.by, false));
      return count;
    }
    const { terminalColumns } = await import('./output/table.js');
    await this.renderRows(withBars(rows, groupBy.by, terminalColumns(this.io.stdout)), summaryColumns(groupBy.by, true));
    const { writeOut } = await import('./output/write.js');
    if (totals && count > 0) await writeOut(this.io.stdout, `${await totals.line(this.io.stdout)}\n`);
    // Days, weeks and months of instants are the zone's: the table says which.
    if (count > 0 && !groupBy.spec.time.day && ['day', 'week', 'month'].includes(groupBy.by)) {
      const note = (await import('./time/zone.js')).zoneNote();
      if (note) await writeOut(this.io.stdout, `${this.color ? new (await import('chalk')).Chalk({ level: 1 }).dim(note) : note}\n`);
    }
    return count;
  }

  private async renderOptions() {
    const options: import('./output/render.js').RenderOptions = {
      format: await this.outputFormat(),
      out: this.io.stdout,
      color: this.color,
    };
    if (this.globals.fields) {
      options.fields = this.globals.fields;
      // Fields asked for by name and left out for want of room are said, never silently lost.
      options.onDropped = (headers) => this.log.warn(`the terminal is too narrow for every field asked for: ${headers.join(', ')} not shown (a wider terminal, or -o json, shows them)`);
    }
    if (this.globals.csvRaw) options.csvRaw = true;
    if (options.format === 'csv') options.csvLocale = await this.csvLocale();
    return options;
  }

  /** How CSV is written: --csv-locale, else the profile's csv_locale, else the API's values. */
  async csvLocale(): Promise<import('./output/csv-locale.js').CsvLocale> {
    if (this.globals.csvLocale) return this.globals.csvLocale;
    const profile = await this.profileSettings().catch(() => undefined);
    if (!profile?.csvLocale) return 'none';
    const { parseCsvLocale } = await import('./output/csv-locale.js');
    return parseCsvLocale(profile.csvLocale, `profile "${profile.name}" csv_locale setting`);
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
    await this.writeDryRun(shown);
  }

  /** The dry run's one output: the request, masked, as JSON (or text for a table). */
  private async writeDryRun(shown: PreparedRequest): Promise<void> {
    if (this.dryRunWritten) return;
    this.dryRunWritten = true;
    const format = await this.outputFormat();
    const json = { dry_run: true, ...shown };
    const text = format === 'table' ? dryRunText(shown) : format === 'ndjson' ? `${JSON.stringify(json)}\n` : `${JSON.stringify(json, null, 2)}\n`;
    this.io.stdout.write(text);
    this.log.status('dry run: nothing was sent');
  }

  async close(): Promise<void> {
    for (const cleanup of this.cleanups.splice(0)) {
      await cleanup().catch(() => undefined);
    }
  }
}

async function* enrichPages(pages: AsyncIterable<unknown[]>, enrich: (page: unknown[]) => Promise<unknown[]>): AsyncGenerator<unknown[]> {
  for await (const page of pages) yield await enrich(page);
}

async function* mapPages(pages: AsyncIterable<unknown[]>, map: (item: Record<string, unknown>) => Record<string, unknown>): AsyncGenerator<unknown[]> {
  for await (const page of pages) yield page.map((item) => (item && typeof item === 'object' ? map(item as Record<string, unknown>) : item));
}

function dryRunText(request: PreparedRequest): string {
  const lines = [`${request.method} ${request.url}`];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
  if (request.body !== undefined) lines.push('', JSON.stringify(request.body, null, 2));
  return `${lines.join('\n')}\n`;
}
