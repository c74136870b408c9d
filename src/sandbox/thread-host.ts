// Starts the embedded sandbox on a worker thread (thread-main.ts) and gives the command the same
// handle an in-process sandbox would: a loopback URL and close(). The thread runs the CLI's own
// bundle again, entered with workerData instead of arguments (see main.ts).

import { Worker } from 'node:worker_threads';
import { stopBeforeExit } from '../platform/interrupt.js';
import type { SandboxHandle } from './server.js';
import type { SandboxThreadData, SandboxThreadMessage } from './thread-main.js';

/** How long the thread may take to listen, and to close, before it is given up on. */
const START_MS = 15_000;
const CLOSE_MS = 3_000;

export function startSandboxThread(entry: URL, data: SandboxThreadData, onStopped: (why: string) => void): Promise<SandboxHandle> {
  // Set to 1 by the thread once it has stopped serving (see stopBeforeExit below).
  const stopped = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(entry, { workerData: { payctlSandbox: { ...data, stopped } } });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(`the embedded sandbox did not start within ${START_MS / 1000} s`), START_MS);
    const fail = (why: string) => {
      clearTimeout(timer);
      worker.removeAllListeners();
      void worker.terminate();
      reject(new Error(why));
    };
    worker.on('error', (err) => fail(`the embedded sandbox failed to start: ${err.message}`));
    worker.on('exit', (code) => fail(`the embedded sandbox stopped before it started (exit ${code})`));
    worker.once('message', (message: SandboxThreadMessage) => {
      if ('failed' in message) return fail(`the embedded sandbox could not start: ${message.failed}`);
      clearTimeout(timer);
      worker.removeAllListeners();
      resolve(threadHandle(worker, message.started, stopped, onStopped));
    });
  });
}

function threadHandle(worker: Worker, where: { url: string; port: number }, stoppedFlag: Int32Array, onStopped: (why: string) => void): SandboxHandle {
  let closing: Promise<void> | undefined;
  let exited = false;
  const ended = new Promise<void>((done) => worker.once('exit', done)).then(() => {
    exited = true;
  });
  // A crash of the thread is not silent: the requests it was serving fail as network errors, and
  // the host says why, once (a crash is an 'error' and then an 'exit'). Once closing, the
  // thread's end is expected.
  let told = false;
  const died = (why: string) => {
    if (closing || told) return;
    told = true;
    onStopped(why);
  };
  worker.on('error', (err) => died(err.message));
  worker.on('exit', (code) => died(`its thread exited (${code})`));
  // The thread never holds the process open by itself: whatever the command waits for (a
  // response, a close) keeps it alive, and an exit (Ctrl-C, an error) ends the thread with it.
  worker.unref();
  // Before an early exit (Ctrl-C, a closed pipe) the thread is stopped rather than left for the
  // exit to end: Node.js can crash ending a thread in the middle of reading a request. The command
  // waits for it without running anything else (Atomics.wait), so no request goes out meanwhile.
  const unregister = stopBeforeExit((boundMs) => {
    if (exited) return;
    worker.postMessage('stop');
    Atomics.wait(stoppedFlag, 0, 0, boundMs);
  });
  void ended.then(unregister);
  return {
    url: where.url,
    port: where.port,
    close: () =>
      (closing ??= (async () => {
        if (exited) return;
        const timer = setTimeout(() => void worker.terminate(), CLOSE_MS);
        worker.ref();
        worker.postMessage('close');
        await ended;
        clearTimeout(timer);
      })()),
  };
}
