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
  /** Set to 1 (and notified) once the sandbox has stopped serving: the host may be waiting on it. */
  stopped?: Int32Array;
}

/** What the thread tells its host: where it listens, or why it could not start. Its end the host sees as the thread's exit. */
export type SandboxThreadMessage = { started: { url: string; port: number } } | { failed: string };

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
  // A message from the host means "close": 'close' lets requests in flight finish, 'stop' (the
  // process is exiting) cuts them; either way the database is released and the thread ends.
  host.once('message', (message: 'close' | 'stop') => {
    void sandbox
      .close({ now: message === 'stop' })
      .catch(() => undefined)
      .finally(() => {
        if (data.stopped) {
          Atomics.store(data.stopped, 0, 1);
          Atomics.notify(data.stopped, 0);
        }
        host.close();
      });
  });
}
