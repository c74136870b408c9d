import { prepareSandboxDir } from './paths.js';
import type { SandboxHandle } from './server.js';

// Launches the sandbox a command runs against when its profile is the built-in one: a loopback URL
// and close(), on the command's thread or on a thread of its own.

export interface EmbeddedLaunch {
  /** The state directory (the sandbox keeps its database in <stateDir>/sandbox). */
  stateDir: string;
  /** Whether it delivers events to webhooks as `sandbox serve` does (for `webhooks listen`). */
  deliver: boolean;
  /**
   * The bundle to run on a thread of its own, for a long run (a list of many pages, a bulk run),
   * so that the sandbox's work and the command's overlap on two cores: a 100,000-item export takes
   * half the time. Undefined keeps it on the command's thread, since starting a thread costs about
   * 75 ms, half of a `transactions get` (and the in-process tests run from source, with no bundle).
   */
  threadEntry: URL | undefined;
  warn(message: string): void;
  debug(message: string): void;
}

export async function launchEmbeddedSandbox(launch: EmbeddedLaunch): Promise<SandboxHandle> {
  prepareSandboxDir(launch.stateDir);
  const data = { stateDir: launch.stateDir, deliver: launch.deliver };
  if (!launch.threadEntry) {
    const { startSandbox } = await import('./server.js');
    return startSandbox({ ...data, onNotice: launch.warn });
  }
  const { startSandboxThread } = await import('./thread-host.js');
  const sandbox = await startSandboxThread(launch.threadEntry, data, (why) => launch.warn(`the embedded sandbox stopped: ${why}`));
  launch.debug(`* embedded sandbox on its own thread at ${sandbox.url}`);
  return sandbox;
}
