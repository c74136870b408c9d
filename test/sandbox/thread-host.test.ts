import { describe, expect, it } from 'vitest';
import { stopAllBeforeExit } from '../../src/platform/interrupt.js';
import { startSandboxThread } from '../../src/sandbox/thread-host.js';

// The host side of the embedded sandbox's thread, against small stand-in threads: what a command
// sees when the thread cannot start, when it dies under it, and when it will not close.
const thread = (code: string) => new URL(`data:text/javascript,${encodeURIComponent(`import { parentPort, workerData } from 'node:worker_threads';\n${code}`)}`);
const data = { stateDir: '/nonexistent', deliver: false };
const started = "parentPort.postMessage({ started: { url: 'http://127.0.0.1:9', port: 9 } });";

describe('the embedded sandbox thread, seen from the command', () => {
  it('a thread that cannot start is an error saying why', async () => {
    await expect(startSandboxThread(thread("parentPort.postMessage({ failed: 'port in use' });"), data, () => undefined)).rejects.toThrow(
      'the embedded sandbox could not start: port in use',
    );
    await expect(startSandboxThread(thread("throw new Error('broken bundle');"), data, () => undefined)).rejects.toThrow('the embedded sandbox failed to start: broken bundle');
  });

  it('a thread that dies under the command is said once, with its reason; closing it then returns at once', async () => {
    const told: string[] = [];
    const sandbox = await startSandboxThread(thread(`${started} setTimeout(() => { throw new Error('out of memory'); }, 20);`), data, (why) => told.push(why));
    expect(sandbox.url).toBe('http://127.0.0.1:9');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(told).toEqual(['out of memory']);
    await sandbox.close();
  });

  it('close asks the thread to close and waits for it; a thread that does not answer is ended, within a bound', async () => {
    const polite = await startSandboxThread(thread(`${started} parentPort.once('message', () => { parentPort.postMessage({ closed: true }); parentPort.close(); });`), data, () => undefined);
    let t = Date.now();
    await polite.close();
    expect(Date.now() - t).toBeLessThan(1_000);
    const deaf = await startSandboxThread(thread(`${started} parentPort.on('message', () => undefined);`), data, () => undefined);
    t = Date.now();
    await deaf.close();
    expect(Date.now() - t).toBeLessThan(5_000);
  });

  it('before an early exit the thread is told to stop, and the command waits for it, still, within the bound', async () => {
    // The stand-in takes 100 ms to stop, then says so through the shared flag.
    const slow = await startSandboxThread(
      thread(`${started} parentPort.once('message', (m) => { if (m !== 'stop') return; setTimeout(() => { const f = workerData.payctlSandbox.stopped; Atomics.store(f, 0, 1); Atomics.notify(f, 0); parentPort.close(); }, 100); });`),
      data,
      () => undefined,
    );
    let t = Date.now();
    stopAllBeforeExit(2_000);
    const waited = Date.now() - t;
    expect(waited).toBeGreaterThanOrEqual(90);
    expect(waited).toBeLessThan(1_000);
    await slow.close();
    // A thread that never says it stopped holds the exit no longer than the bound.
    const deaf = await startSandboxThread(thread(`${started} parentPort.on('message', () => undefined);`), data, () => undefined);
    t = Date.now();
    stopAllBeforeExit(200);
    expect(Date.now() - t).toBeLessThan(600);
    await deaf.close();
  });
});
