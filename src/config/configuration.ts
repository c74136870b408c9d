import { resolvePaths, type Paths } from './paths.js';
import { resolveProfile, type ResolvedProfile } from './profile.js';
import { loadConfig, type ConfigFile } from './store.js';
import { UsageError } from '../errors.js';
import type { IO } from '../io.js';

/**
 * The command's configuration: where payctl keeps its files, the config file, and the current
 * profile (with its API key, read from the OS keyring when it is kept there). Each read once, on
 * first use; a change through `update` is seen by what is read after it.
 */
export class Configuration {
  /** Where payctl keeps its files (PAYCTL_HOME, XDG). */
  readonly paths: Paths;
  private fileCache?: ConfigFile;
  private profileCache?: ResolvedProfile;
  private settingsCache?: ResolvedProfile;

  constructor(
    private readonly io: IO,
    private readonly chosen: { profile?: string | undefined; timeoutSeconds?: number | undefined },
  ) {
    this.paths = resolvePaths(io.env);
  }

  async file(): Promise<ConfigFile> {
    this.fileCache ??= await loadConfig(this.paths.configFile);
    return this.fileCache;
  }

  /**
   * Changes the config file: reads it afresh under a lock shared by every payctl process, lets
   * `edit` change that copy in place (synchronously; throwing changes nothing), writes it back
   * and returns what `edit` returned. A change another process made meanwhile is kept. Loads the
   * writing code (conf) only here: commands that only read never pay for it.
   */
  async update<T>(edit: (config: ConfigFile) => T): Promise<T> {
    const { updateConfig } = await import('./write.js');
    const { config, result } = await updateConfig(this.paths.configFile, edit);
    this.fileCache = config;
    delete this.profileCache;
    delete this.settingsCache;
    return result;
  }

  /** Fails fast when the config could not be saved (a login checks this before it sends anything). */
  async checkWritable(): Promise<void> {
    const { checkWritable } = await import('./write.js');
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
   * The profile's ledger URL, with its password: read from the OS keyring when `config set
   * ledger_url` put it there (only then is the keyring loaded). A keyring that cannot be reached,
   * or holds none, is one line (exit 2) before anything is sent.
   */
  async ledgerUrl(): Promise<string | undefined> {
    const profile = await this.profile();
    if (!profile.ledgerUrlInKeyring) return profile.ledgerUrl;
    const { KeyringUnreachable, ledgerUrlEntry, readKeyringKey, unreachableFor } = await import('./keyring.js');
    const fix = `set PAYCTL_LEDGER_URL, or run 'payctl config set ledger_url <url>' again; nothing was sent`;
    try {
      const url = await readKeyringKey(ledgerUrlEntry(profile.name));
      if (url) return url;
    } catch (err) {
      throw err instanceof KeyringUnreachable ? unreachableFor(profile.name, err, fix, 'the ledger URL') : err;
    }
    throw new UsageError(`profile "${profile.name}" keeps its ledger URL in the OS keyring, but the keyring holds none for it; ${fix}`);
  }

  /** The API key of the profile, once it has been read: a secret never to be printed. */
  get keyRead(): string | undefined {
    return this.profileCache?.apiKey;
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
      const { isTimeZone } = await import('../time/zone.js');
      if (this.io.env.PAYCTL_TIMEZONE && isTimeZone(this.io.env.PAYCTL_TIMEZONE)) zone = this.io.env.PAYCTL_TIMEZONE;
    }
    const { applyTimeZone } = await import('../time/zone.js');
    applyTimeZone(zone);
  }

  /** The profile's settings (its output and csv_locale for the printer), or undefined when the config cannot be read. */
  settings(): Promise<ResolvedProfile | undefined> {
    return this.profileSettings().catch(() => undefined);
  }

  /** The current profile without reading a key kept in the keyring: for what needs only its settings. */
  private async profileSettings(): Promise<ResolvedProfile> {
    if (!this.settingsCache) {
      const overrides: Parameters<typeof resolveProfile>[2] = {};
      if (this.chosen.profile) overrides.profile = this.chosen.profile;
      if (this.chosen.timeoutSeconds !== undefined) overrides.timeoutSeconds = this.chosen.timeoutSeconds;
      this.settingsCache = resolveProfile(await this.file(), this.io.env, overrides);
    }
    return this.settingsCache;
  }

  /**
   * The API key a login put in the OS keyring. Only profiles that keep their key there load the
   * keyring's native module, and only when a command resolves the profile. A keyring that cannot
   * be reached, or holds no key, is one line saying what to do (exit 2), before anything is sent.
   */
  private async keyFromKeyring(name: string): Promise<string> {
    const { KeyringUnreachable, readKeyringKey, unreachableFor } = await import('./keyring.js');
    const fix = `set PAYCTL_API_KEY, or run 'payctl login --profile ${name}' again`;
    try {
      const key = await readKeyringKey(name);
      if (key) return key;
    } catch (err) {
      throw err instanceof KeyringUnreachable ? unreachableFor(name, err, fix) : err;
    }
    throw new UsageError(`profile "${name}" keeps its API key in the OS keyring, but the keyring holds none for it; ${fix}`);
  }
}
