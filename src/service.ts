import type { ApiClient, ClientOptions, PreparedRequest, RequestInput } from './api/client.js';
import { maxAnswerBytesFrom, maxListItemsFrom } from './api/answer-limits.js';
import type { Configuration } from './config/configuration.js';
import type { ResolvedProfile } from './config/profile.js';
import { CliError, UsageError } from './errors.js';
import type { GlobalOptions } from './globals.js';
import type { IO } from './io.js';
import type { Logger } from './platform/logger.js';
import type { Target } from './provider/endpoints.js';
import { isTestKey } from './provider/test-keys.js';
import { prepareSandboxDir } from './sandbox/paths.js';
import type { Secrets } from './secrets.js';
import { USER_AGENT } from './version.js';

/**
 * The longest a service is given to answer whether it keeps a sandbox clock, asked once: a service
 * that does not know the path holds the command up no longer than this, whatever its timeout.
 */
const CLOCK_QUESTION_MS = 5_000;
/** A clock's answer is a few dozen bytes: a longer one is not a clock, and is not read on. */
const CLOCK_ANSWER_BYTES = 64 * 1024;

/** What the service needs of the command: its streams, options, logger, configuration, secrets and printer. */
export interface ServiceNeeds {
  io: IO;
  globals: GlobalOptions;
  log: Logger;
  config: Configuration;
  secrets: Secrets;
  /** Shows the request a dry run would send (output/printer.ts). */
  dryRun(shown: PreparedRequest): Promise<void>;
  /** Closes what was opened, with the command: `first` before what was opened earlier. */
  onClose(close: () => Promise<void>, first?: boolean): void;
}

/**
 * The service the current profile talks to: its API client (launching the embedded sandbox behind
 * it when the profile uses that), the dry run that stands in for it, the notice that it is a
 * sandbox, and its clock. Each built on first use.
 */
export class Service {
  private apiCache?: Promise<ApiClient>;
  private clockCache?: Promise<string | undefined>;
  private sandboxNoticeShown = false;
  private deliverWebhooks = false;
  private longRun = false;

  constructor(private readonly needs: ServiceNeeds) {}

  /** Refuses to go on without credentials, before anything is sent. */
  async requireApiKey(): Promise<void> {
    const profile = await this.needs.config.profile();
    if (!profile.apiKey) {
      throw new UsageError(`profile "${profile.name}" has no API key; run 'payctl login --profile ${profile.name}' or set PAYCTL_API_KEY`);
    }
  }

  /** The API client for the current profile; starts the embedded sandbox when the profile uses it. */
  api(): Promise<ApiClient> {
    this.apiCache ??= this.createApi();
    return this.apiCache;
  }

  private async createApi(): Promise<ApiClient> {
    const profile = await this.needs.config.profile();
    return this.needs.globals.dryRun ? this.dryRunClient(profile) : this.clientFor(profile);
  }

  /**
   * Under --dry-run, a client that prints the first request a command would send and stops it
   * there (exit 0): reads are not sent either. The embedded sandbox is not even started.
   */
  private async dryRunClient(profile: ResolvedProfile): Promise<ApiClient> {
    const { ApiClient, checkTransportSecurity } = await import('./api/client.js');
    if (!profile.isEmbedded) checkTransportSecurity(profile.baseUrl, this.needs.globals.insecureHttp);
    const { DryRunStop } = await import('./errors.js');
    const client = new ApiClient({
      ...this.clientOptions(profile, profile.isEmbedded ? 'sandbox://embedded' : profile.baseUrl),
      instead: async (shown) => {
        await this.needs.dryRun(shown);
        throw new DryRunStop();
      },
    });
    this.needs.onClose(() => client.close(), true);
    return client;
  }

  /**
   * A client for any profile settings (login checks a key before saving it). Starts the embedded
   * sandbox when the settings use it; closed with the command.
   */
  async clientFor(profile: ResolvedProfile): Promise<ApiClient> {
    const { ApiClient, checkTransportSecurity } = await import('./api/client.js');
    let baseUrl = profile.baseUrl;
    if (profile.isEmbedded) baseUrl = await this.launchEmbedded();
    else checkTransportSecurity(baseUrl, this.needs.globals.insecureHttp);
    const client = new ApiClient(this.clientOptions(profile, baseUrl));
    this.needs.onClose(() => client.close(), true);
    return client;
  }

  /** Starts the embedded sandbox for this command (sandbox/embedded.ts); returns its URL. */
  private async launchEmbedded(): Promise<string> {
    const { launchEmbeddedSandbox } = await import('./sandbox/embedded.js');
    const { entryUrl } = await import('./entry.js');
    const sandbox = await launchEmbeddedSandbox({
      stateDir: this.needs.config.paths.stateDir,
      deliver: this.deliverWebhooks,
      threadEntry: this.longRun ? entryUrl() : undefined,
      warn: this.needs.log.warn,
      debug: this.needs.log.debug,
    });
    this.needs.onClose(() => sandbox.close());
    return sandbox.url;
  }

  /**
   * Said by a command that pages or loops (a long list, a bulk refund) before it asks for the API:
   * the embedded sandbox then gets its own thread.
   */
  expectLongRun(): void {
    this.longRun = true;
  }

  /**
   * The embedded sandbox, when this command starts it, also delivers events to webhooks (as
   * `sandbox serve` does): for `webhooks listen`, so it works with no server running.
   */
  deliverWebhooksFromEmbeddedSandbox(): void {
    this.deliverWebhooks = true;
  }

  /** The sandbox's directory, made and checked before the embedded sandbox is used (sandbox/embedded.ts). */
  prepareSandboxState(): void {
    prepareSandboxDir(this.needs.config.paths.stateDir);
  }

  private clientOptions(profile: ResolvedProfile, baseUrl: string): ClientOptions {
    const { io, globals } = this.needs;
    return {
      baseUrl,
      apiKey: profile.apiKey,
      marketplaceId: profile.marketplaceId,
      timeoutMs: profile.timeoutSeconds * 1000,
      userAgent: USER_AGENT,
      maxAnswerBytes: maxAnswerBytesFrom(io.env),
      readLimits: { items: maxListItemsFrom(io.env) },
      // The embedded sandbox is on loopback inside this process: never send it through a proxy.
      proxyEnv: profile.isEmbedded ? undefined : io.env,
      debug: globals.debug ? (line) => io.stderr.write(`${line}\n`) : undefined,
      secrets: () => this.needs.secrets.known(),
    };
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
    if (this.needs.globals.dryRun) return undefined;
    const profile = await this.needs.config.profile();
    if (profile.isEmbedded) return (await (await this.api()).call('sandbox.clock')).now;
    if (!isTestKey(profile.apiKey)) return undefined;
    const { ApiClient, checkTransportSecurity } = await import('./api/client.js');
    checkTransportSecurity(profile.baseUrl, this.needs.globals.insecureHttp);
    const bound = Math.min(profile.timeoutSeconds * 1000, CLOCK_QUESTION_MS);
    const client = new ApiClient({ ...this.clientOptions(profile, profile.baseUrl), timeoutMs: bound, maxAttempts: 1, maxAnswerBytes: CLOCK_ANSWER_BYTES });
    try {
      const { now } = await client.call('sandbox.clock');
      // A clock says a day and time; anything else (a 404, another object, junk) is no clock.
      return /^\d{4}-\d{2}-\d{2}T/.test(now) && Number.isFinite(Date.parse(now)) ? now : undefined;
    } catch (err) {
      if (err instanceof CliError) {
        this.needs.log.debug(`no sandbox clock at ${profile.baseUrl} (${err.message}): real time`);
        return undefined;
      }
      throw err;
    } finally {
      await client.close();
    }
  }

  /** Whether the profile talks to payctl's sandbox (embedded, or a server that answers its clock): one that takes webhooks to this machine. */
  async isPayctlSandbox(): Promise<boolean> {
    return (await this.needs.config.profile()).isEmbedded || (await this.sandboxClock()) !== undefined;
  }

  /**
   * Mutating commands against a sandbox say so, so no one mistakes it for a live account: the
   * embedded one, or a test key on any service. Said of the key, not the service, and true of
   * both: a test key of the provider's own moves no real money either.
   */
  async noteSandbox(): Promise<void> {
    if (this.sandboxNoticeShown) return;
    const profile = await this.needs.config.profile();
    // Said just before the embedded sandbox is used: a state directory it cannot use is said instead.
    if (profile.isEmbedded && !this.needs.globals.dryRun) this.prepareSandboxState();
    if (profile.isEmbedded || isTestKey(profile.apiKey)) {
      this.sandboxNoticeShown = true;
      this.needs.io.stderr.write(profile.isEmbedded ? 'SANDBOX (embedded test service: no real money moves)\n' : 'SANDBOX (test API key: no real money moves)\n');
    }
  }

  /**
   * --dry-run: show the request that would be sent, masked, and send nothing. The embedded
   * sandbox is not even started; its requests are shown against sandbox://embedded.
   */
  async printDryRun(operation: Target, input: RequestInput): Promise<void> {
    const profile = await this.needs.config.profile();
    const { ApiClient, checkTransportSecurity } = await import('./api/client.js');
    if (!profile.isEmbedded) checkTransportSecurity(profile.baseUrl, this.needs.globals.insecureHttp);
    const client = new ApiClient(this.clientOptions(profile, profile.isEmbedded ? 'sandbox://embedded' : profile.baseUrl));
    const shown = client.describe(operation, input);
    await client.close();
    await this.needs.dryRun(shown);
  }
}
