// Sandbox servers in other OS processes, for the tests that prove several processes sharing one
// state directory lose no write and bill nothing twice. The child runs the sandbox from source,
// bundled the way the CLI is.
import { spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ChildSandboxes {
  urls: string[];
  /** The children's process ids, in the order of `urls` (for the tests that kill one mid-write). */
  pids: number[];
  /** Closes each child's stdin, which makes it close its server and exit; waits for the exits. */
  stop(): Promise<void>;
}

/**
 * Starts `count` sandbox processes on `stateDir`. With `pinnedNow` (ms since the epoch) their
 * real time is pinned, so they agree with a pinned in-process sandbox.
 */
export async function startChildSandboxes(workDir: string, stateDir: string, count: number, pinnedNow?: number): Promise<ChildSandboxes> {
  // Inside the repository, so the native SQLite module (left out of the bundle, as in the CLI) resolves.
  const entry = path.join(repoRoot, 'node_modules', '.cache', 'payctl', `child-sandbox-${path.basename(workDir)}.mjs`);
  await build({
    stdin: {
      contents: `import { startSandbox } from './src/sandbox/index.js';
        const at = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
        const handle = await startSandbox({ stateDir: process.argv[2], ...(at === undefined ? {} : { now: () => new Date(at) }) });
        console.log(handle.url);
        process.stdin.resume();
        process.stdin.on('end', () => handle.close().then(() => process.exit(0)));`,
      resolveDir: repoRoot,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: entry,
    external: ['better-sqlite3'],
    banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
    logLevel: 'silent',
  });
  const children: ChildProcess[] = [];
  const stop = async () => {
    for (const child of children) {
      child.removeAllListeners('exit');
      // A child killed by the test has no stdin left to close.
      child.stdin?.on('error', () => undefined);
      child.stdin?.end();
    }
    await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once('exit', r)) : undefined)));
    // Each test's bundle has a name of its own; the cache need not keep them.
    await rm(entry, { force: true });
  };
  const args = [entry, stateDir, ...(pinnedNow === undefined ? [] : [String(pinnedNow)])];
  try {
    const started = await Promise.all(
      Array.from(
        { length: count },
        () =>
          new Promise<{ url: string; pid: number }>((resolve, reject) => {
            const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
            children.push(child);
            child.once('error', reject);
            child.once('exit', (code) => reject(new Error(`child sandbox exited early with ${code}`)));
            createInterface({ input: child.stdout! }).once('line', (url) => resolve({ url, pid: child.pid as number }));
          }),
      ),
    );
    return { urls: started.map((s) => s.url), pids: started.map((s) => s.pid), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
