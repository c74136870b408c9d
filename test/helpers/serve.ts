// `payctl sandbox serve` in a child process (the built binary), for tests of several processes
// and of faults injected by the service; its state directory can also be driven in-process
// through the embedded sandbox, which injects no faults (for setting up sales).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { SANDBOX_API_KEY, SANDBOX_SELLER_ID } from '../../src/provider/sandbox-account.js';
import { tempHome, testEnv } from './run.js';

export const BIN = fileURLToPath(new URL('../../bin/payctl.js', import.meta.url));

export interface ServedSandbox {
  url: string;
  /** The server's PAYCTL_HOME: `payctl` with this home uses the same state, embedded and fault-free. */
  home: string;
  /** What a client needs to talk to it: base URL, a test key, no marketplace prefix, the seeded seller. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function serveSandbox(faults?: string): Promise<ServedSandbox> {
  const server = tempHome();
  const child: ChildProcess = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', ...(faults ? ['--faults', faults] : [])], {
    env: testEnv(server.home),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (d: Buffer) => {
      buffer += d.toString();
      if (buffer.includes('\n')) resolve(buffer.slice(0, buffer.indexOf('\n')));
    });
    child.once('exit', (code) => reject(new Error(`sandbox serve exited ${code}`)));
  });
  return {
    url,
    home: server.home,
    // The built-in sandbox profile's key: its marketplace in the served sandbox is the embedded
    // sandbox's state, which tests set up and check through `home`. Every marketplace seeds the
    // same seller as the embedded one; the environment must say so.
    env: { PAYCTL_BASE_URL: url, PAYCTL_API_KEY: SANDBOX_API_KEY, PAYCTL_MARKETPLACE_ID: '', PAYCTL_SELLER_ID: SANDBOX_SELLER_ID },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGINT');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      server.cleanup();
    },
  };
}

/** One served sandbox for the enclosing describe block: started before its tests, stopped after. */
export function servedSandboxForBlock(faults?: string): () => ServedSandbox {
  let served: ServedSandbox | undefined;
  beforeAll(async () => {
    served = await serveSandbox(faults);
  });
  afterAll(() => served?.stop());
  return () => {
    if (!served) throw new Error('the served sandbox is not running: call inside a test');
    return served;
  };
}

export interface Spawned {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** bin/payctl as a separate process, its output collected; `exited` is listened for from the start. */
export function spawnPayctl(args: string[], home: string, env: Record<string, string>, stdin?: string): Spawned {
  const child = spawn(process.execPath, [BIN, ...args], { env: testEnv(home, env), stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  // 'close', not 'exit': a process can exit before its last output has been read from the pipes,
  // and a test that looks at stderr once it exited must see all of it.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  if (stdin !== undefined) child.stdin!.end(stdin);
  else child.stdin!.end();
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** bin/payctl on another machine: its own hostname (a UTS namespace), its own home. */
export function spawnOnMachine(hostname: string, args: string[], home: string, env: Record<string, string>): Spawned {
  // Unprivileged, a user namespace lets it set a hostname of its own; as root it needs none.
  const unshare = ['--uts', ...(process.getuid?.() === 0 ? [] : ['--map-root-user'])];
  const child = spawn('unshare', [...unshare, 'sh', '-c', 'hostname "$0" && exec "$@"', hostname, process.execPath, BIN, ...args], { env: testEnv(home, env), stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  child.stdin!.end();
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Waits for `condition`, checking every 50 ms, for at most `ms`. */
export async function eventually(condition: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
