import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock, LockBusyError, tryLock, type HeldLock } from '../../src/platform/lock.js';
import { currentOwner } from '../../src/platform/owner.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const me = currentOwner();
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

let dir: string;
let target: string;
let lockFile: string;
const held: HeldLock[] = [];
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'payctl-lock-'));
  target = path.join(dir, 'thing.json');
  lockFile = `${target}.lock`;
});
afterEach(() => {
  for (const lock of held.splice(0)) lock.release();
  rmSync(dir, { recursive: true, force: true });
});

const take = (options: Parameters<typeof tryLock>[1] = { leaseMs: 5_000 }) => {
  const lock = tryLock(target, options);
  held.push(lock);
  return lock;
};
const record = () => JSON.parse(readFileSync(lockFile, 'utf8')) as Record<string, unknown>;
const busy = (fn: () => unknown): LockBusyError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof LockBusyError) return err;
    throw err;
  }
  throw new Error('the lock was taken');
};

describe('one holder at a time, in one process', () => {
  it('a second holder is refused, naming the first; release lets the next one in and removes the file', () => {
    const first = take();
    expect(record()).toMatchObject({ holder: me.holder, host_id: me.host_id, pid: process.pid, started: me.started });
    const refused = busy(() => take());
    expect(refused.holder).toMatchObject({ holder: me.holder, pid: process.pid });
    expect(refused.message).toBe(`lock ${lockFile} is held by ${me.holder}, pid ${process.pid}, since ${record().since}`);
    first.release();
    first.release();
    expect(existsSync(lockFile)).toBe(false);
    const second = take();
    expect(second.lost).toBe(false);
    second.release();
    expect(existsSync(lockFile)).toBe(false);
  });

  it('renews its lease while held', async () => {
    take({ leaseMs: 200, renewMs: 50 });
    const first = Date.parse(record().expires as string);
    await sleep(400);
    expect(Date.parse(record().expires as string)).toBeGreaterThan(first + 100);
    expect(() => take({ leaseMs: 200 })).toThrow(LockBusyError);
  });

  it('waits with jittered tries up to waitMs, then fails naming the holder and the wait', async () => {
    const first = take();
    const started = Date.now();
    const err = await acquireLock(target, { leaseMs: 5_000, waitMs: 300 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(err).toBeInstanceOf(LockBusyError);
    expect((err as Error).message).toMatch(new RegExp(`^lock ${lockFile} is held by ${me.holder}, pid ${process.pid}, since \\S+ \\(waited 0\\.[3-9] s\\)$`));
    // Let go while another waits: that one gets it.
    setTimeout(() => first.release(), 100);
    const next = await acquireLock(target, { leaseMs: 5_000, waitMs: 2_000 });
    held.push(next);
    expect(record().pid).toBe(process.pid);
  });

  it('a lock whose lease ran out is taken over; its holder is told when it next looks, and its release leaves the new lock alone', async () => {
    const lost: string[] = [];
    // Renewed too late, as by a process stopped or too busy to run its timer.
    const first = take({ leaseMs: 100, renewMs: 400, onLost: (why) => lost.push(why) });
    expect(() => take({ leaseMs: 100 })).toThrow(LockBusyError);
    await sleep(150);
    const second = take();
    expect(lost).toEqual([]);
    await sleep(400);
    expect(lost).toEqual([`${lockFile} was taken over or removed`]);
    expect(first.lost).toBe(true);
    first.release();
    expect(existsSync(lockFile)).toBe(true);
    expect(() => take()).toThrow(LockBusyError);
    second.release();
    expect(existsSync(lockFile)).toBe(false);
  });

  it('a lock removed under its holder is lost, and said so once', async () => {
    const lost: string[] = [];
    const lock = take({ leaseMs: 5_000, renewMs: 50, onLost: (why) => lost.push(why) });
    rmSync(lockFile);
    await sleep(200);
    expect(lost).toHaveLength(1);
    expect(lock.lost).toBe(true);
  });
});

describe('a record that cannot be read', () => {
  it('an empty lock file (one being written this instant) lasts for its mtime plus the lease', () => {
    writeFileSync(lockFile, '');
    expect(busy(() => take()).message).toBe(`lock ${lockFile} is held by another process`);
    const old = new Date(Date.now() - 60_000);
    utimesSync(lockFile, old, old);
    take();
    expect(record().pid).toBe(process.pid);
  });
});

describe('across processes', () => {
  let script: string;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'payctl-lock-child-'));
    script = path.join(out, 'holder.mjs');
    // Takes the lock on argv[2] and says so (or who has it), holds it until its stdin ends; with
    // "leave", holds it until its own end, which only its renewal timer could put off.
    await build({
      stdin: {
        contents: `import { tryLock, LockBusyError } from './src/platform/lock.js';
          try {
            const lock = tryLock(process.argv[2], { leaseMs: 5000 });
            console.log('held');
            if (process.argv[3] !== 'leave') {
              process.stdin.resume();
              process.stdin.on('end', () => { lock.release(); process.exit(0); });
            }
          } catch (err) {
            console.log(err instanceof LockBusyError ? 'busy ' + err.holder?.pid : 'error ' + err.message);
            process.exit(0);
          }`,
        resolveDir: repoRoot,
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: script,
      logLevel: 'warning',
    });
  });
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(path.dirname(script), { recursive: true, force: true });
  });

  const holder = async (...args: string[]): Promise<{ child: ChildProcess; said: string }> => {
    const child = spawn(process.execPath, [script, target, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
    children.push(child);
    const line = await createInterface({ input: child.stdout! })[Symbol.asyncIterator]().next();
    return { child, said: line.done ? '(nothing)' : line.value };
  };
  const exited = (child: ChildProcess) => new Promise((done) => (child.exitCode !== null ? done(undefined) : child.once('exit', done)));

  it('a second process is refused while the first holds the lock; the next one gets it once the first lets go', async () => {
    const first = await holder();
    expect(first.said).toBe('held');
    const second = await holder();
    expect(second.said).toBe(`busy ${first.child.pid}`);
    expect(busy(() => take()).holder).toMatchObject({ holder: me.holder, pid: first.child.pid });
    first.child.stdin!.end();
    await exited(first.child);
    expect(existsSync(lockFile)).toBe(false);
    const third = await holder();
    expect(third.said).toBe('held');
    third.child.stdin!.end();
    await exited(third.child);
  }, 20_000);

  it('a holder killed with SIGKILL leaves its lock, taken over at once though its lease runs on', async () => {
    const first = await holder();
    expect(first.said).toBe('held');
    first.child.kill('SIGKILL');
    await exited(first.child);
    expect(Date.parse(record().expires as string)).toBeGreaterThan(Date.now());
    take();
    expect(record().pid).toBe(process.pid);
    const second = await holder();
    expect(second.said).toBe(`busy ${process.pid}`);
  }, 20_000);

  it('a holder that ends without letting go is not kept alive by its lease; the next one takes its lock over', async () => {
    const first = await holder('leave');
    expect(first.said).toBe('held');
    const started = Date.now();
    await exited(first.child);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(existsSync(lockFile)).toBe(true);
    take();
    expect(record().pid).toBe(process.pid);
  }, 20_000);
});
