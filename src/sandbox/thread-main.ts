// The embedded sandbox's own thread (the worker side; thread-host.ts starts it). The sandbox runs
// there so that its work (SQLite, building pages) and the command's (checking answers, writing
// output) run side by side on two cores instead of taking turns on one, and so that nothing the
// sandbox does can hold up the command's event loop, Ctrl-C included.

import { parentPort } from 'node:worker_threads';
import { startSandbox } from './server.js';

export interface SandboxThreadData {
  stateDir: string;
  /** Deliver events to webhooks from the thread (webhooks listen on the embedded sandbox). */
  deliver: boolean;
}

/** What the thread tells its host: where it listens, why it could not start, or that it has closed. */
export type SandboxThreadMessage = { started: { url: string; port: number } } | { failed: string } | { closed: true };

export async function runSandboxThread(data: SandboxThreadData): Promise<void> {
  const host = parentPort;
  if (!host) throw new Error('runSandboxThread runs on a worker thread');
  const tell = (message: SandboxThreadMessage) => host.postMessage(message);
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sandbox = await startSandbox({ stateDir: data.stateDir, deliver: data.deliver });
  } catch (err) {
    tell({ failed: err instanceof Error ? err.message : String(err) });
    host.close();
    return;
  }
  tell({ started: { url: sandbox.url, port: sandbox.port } });
  // Any message from the host means "close": requests in flight finish, the database is released.
  host.once('message', () => {
    void sandbox
      .close()
      .catch(() => undefined)
      .finally(() => {
        tell({ closed: true });
        host.close();
      });
  });
}
