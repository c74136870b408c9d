// A real PostgreSQL server for the tests of the shared ledger: one per test file, in a temporary
// directory, on a free loopback port, with trust authentication for the role `payctl`. Tests can
// stop it and start it again on the same port and data (the database going away for a while), or
// kill it outright (the database vanishing mid-operation).
// Plain JavaScript, so that run.mjs runs on Node without a build; its types are in
// postgres-server.d.mts, and postgres.ts adds the vitest helper.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, chownSync, closeSync, constants, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import pg from 'pg';

/** @typedef {import('./postgres-server.d.mts').PgServer} PgServer */

const ROLE = 'payctl';
const DATABASE = 'payctl';
const READY_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 20_000;
const GONE_TIMEOUT_MS = 5_000;
const INITDB_TIMEOUT_MS = 60_000;
const POLL_MS = 100;
const PORT_ATTEMPTS = 5;

/**
 * @param {number} port
 * @param {string} [database]
 * @returns {string}
 */
export function pgUrl(port, database = DATABASE) {
  return `postgres://${ROLE}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
}

/**
 * Initialises a cluster in a fresh temporary directory, starts it and creates the database `payctl`.
 * @returns {Promise<PgServer>}
 */
export async function startPostgres() {
  const binaries = findBinaries();
  const runner = privilegeRunner();
  const dir = mkdtempSync(join(tmpdir(), 'payctl-pg-'));
  /** @type {PgServer | undefined} */
  let server;
  try {
    if (runner.owner) chownRecursive(dir, runner.owner.uid, runner.owner.gid);
    const dataDir = join(dir, 'data');
    await initCluster(binaries.initdb, runner, dir, dataDir);
    server = await startOnFreePort(binaries.postgres, runner, dir, dataDir);
    await createDatabase(server.port, DATABASE);
    return server;
  } catch (error) {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * A new empty database on the server, for one test: tests never see each other's tables.
 * @param {PgServer} server
 * @param {string} [name]
 * @returns {Promise<string>}
 */
export async function freshDatabase(server, name = `test_${randomBytes(6).toString('hex')}`) {
  await createDatabase(server.port, name);
  return pgUrl(server.port, name);
}

// --- binaries -------------------------------------------------------------------------------

/**
 * @typedef {object} Binaries
 * @property {string} initdb
 * @property {string} postgres
 */

/**
 * On PATH first, then Debian's per-version layout, which does not put the server on PATH.
 * @returns {Binaries}
 */
function findBinaries() {
  for (const dir of [...pathDirs(), ...debianBinDirs()]) {
    const initdb = join(dir, 'initdb');
    const postgres = join(dir, 'postgres');
    if (isExecutable(initdb) && isExecutable(postgres)) return { initdb, postgres };
  }
  throw new Error(
    'PostgreSQL is not installed: no initdb and postgres on PATH nor under /usr/lib/postgresql/<version>/bin/. ' +
      "The tests of the shared ledger need it; .ci/run installs Debian's postgresql package (apt-get install postgresql).",
  );
}

/**
 * /usr/lib/postgresql/<version>/bin, highest version first.
 * @returns {string[]}
 */
function debianBinDirs() {
  let versions;
  try {
    versions = readdirSync('/usr/lib/postgresql').filter((name) => /^\d+(\.\d+)*$/.test(name));
  } catch {
    return [];
  }
  return versions.sort(compareVersionsDescending).map((version) => join('/usr/lib/postgresql', version, 'bin'));
}

/**
 * @param {string} a
 * @param {string} b
 * @returns {number}
 */
function compareVersionsDescending(a, b) {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const difference = (right[i] ?? 0) - (left[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** @returns {string[]} */
function pathDirs() {
  return (process.env.PATH ?? '').split(delimiter).filter((dir) => dir !== '');
}

/**
 * @param {string} name
 * @param {string[]} [extraDirs]
 * @returns {string | undefined}
 */
function findExecutable(name, extraDirs = []) {
  return [...pathDirs(), ...extraDirs].map((dir) => join(dir, name)).find(isExecutable);
}

/**
 * @param {string} file
 * @returns {boolean}
 */
function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

// --- running as an unprivileged user -----------------------------------------------------------

/**
 * @typedef {object} Runner
 * @property {(file: string, args: string[]) => [string, string[]]} command
 *   The command line that runs `file args` as the user the server runs as.
 * @property {boolean} forks
 *   True when the wrapper forks and waits, so the postmaster is its child rather than itself.
 * @property {{ uid: number, gid: number }} [owner]
 *   Who must own the server's files, when that is not this process.
 */

/**
 * PostgreSQL refuses to run as root, and the tests run as root here and in CI: then initdb and
 * postgres run as the `postgres` system user (the postgresql package creates it), else as nobody.
 * @returns {Runner}
 */
function privilegeRunner() {
  if (process.getuid?.() !== 0) return { command: (file, args) => [file, args], forks: false };
  const user = userExists('postgres') ? 'postgres' : 'nobody';
  const owner = { uid: idOf(user, '-u'), gid: idOf(user, '-g') };
  const runuser = findExecutable('runuser', ['/usr/sbin', '/sbin']);
  if (runuser) return { command: (file, args) => [runuser, ['-u', user, '--', file, ...args]], forks: true, owner };
  const setpriv = findExecutable('setpriv', ['/usr/bin', '/bin']);
  if (setpriv) {
    const drop = [`--reuid=${owner.uid}`, `--regid=${owner.gid}`, '--init-groups', '--'];
    return { command: (file, args) => [setpriv, [...drop, file, ...args]], forks: false, owner };
  }
  throw new Error('PostgreSQL cannot run as root, and neither runuser nor setpriv (util-linux) is there to run it as another user');
}

/**
 * @param {string} user
 * @returns {boolean}
 */
function userExists(user) {
  try {
    idOf(user, '-u');
    return true;
  } catch {
    return false;
  }
}

/**
 * @param {string} user
 * @param {'-u' | '-g'} flag
 * @returns {number}
 */
function idOf(user, flag) {
  return Number(execFileSync('id', [flag, user], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
}

/**
 * @param {string} path
 * @param {number} uid
 * @param {number} gid
 */
function chownRecursive(path, uid, gid) {
  chownSync(path, uid, gid);
  if (!statSync(path).isDirectory()) return;
  for (const entry of readdirSync(path)) chownRecursive(join(path, entry), uid, gid);
}

// --- the cluster -------------------------------------------------------------------------------

/**
 * No fsync and the C locale: the data is thrown away after the run, and C sorts the same everywhere.
 * @param {string} initdb
 * @param {Runner} runner
 * @param {string} dir
 * @param {string} dataDir
 * @returns {Promise<void>}
 */
async function initCluster(initdb, runner, dir, dataDir) {
  const [file, args] = runner.command(initdb, ['-D', dataDir, '-U', ROLE, '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync']);
  await new Promise((resolve, reject) => {
    // The working directory is one the unprivileged user can enter: initdb looks its own path up from it.
    execFile(file, args, { cwd: dir, timeout: INITDB_TIMEOUT_MS }, (error, stdout, stderr) => {
      if (error) reject(new Error(`initdb failed (${error.message.split('\n')[0]}):\n${tail(`${stdout}${stderr}`)}`));
      else resolve(undefined);
    });
  });
}

/**
 * @param {number} port
 * @param {string} name
 * @returns {Promise<void>}
 */
async function createDatabase(port, name) {
  const client = new pg.Client({ connectionString: pgUrl(port, 'postgres'), connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

/**
 * The port is free when picked but can be taken before postgres binds it: then another one.
 * @param {string} postgres
 * @param {Runner} runner
 * @param {string} dir
 * @param {string} dataDir
 * @returns {Promise<PgServer>}
 */
async function startOnFreePort(postgres, runner, dir, dataDir) {
  for (let attempt = 1; ; attempt++) {
    const server = new LocalPostgres(postgres, runner, dir, dataDir, await freePort());
    try {
      await server.start();
      return server;
    } catch (error) {
      if (!(error instanceof PostmasterExited && error.portTaken) || attempt >= PORT_ATTEMPTS) throw error;
    }
  }
}

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (probe.address());
      probe.close(() => resolve(port));
    });
  });
}

class PostmasterExited extends Error {
  /**
   * @param {number} port
   * @param {string} log
   */
  constructor(port, log) {
    super(`PostgreSQL exited while starting on port ${port}; its log ends:\n${log}`);
    /** @readonly */
    this.port = port;
    /** @readonly */
    this.log = log;
  }

  get portTaken() {
    return /could not bind|Address already in use/i.test(this.log);
  }
}

/**
 * Servers with a postmaster running, for the exit handler.
 * @type {Set<LocalPostgres>}
 */
const running = new Set();

// A test process that dies abnormally (an uncaught error, process.exit in a worker) runs no
// afterAll: the postmasters it started must not outlive it, holding ports and temp directories.
process.on('exit', () => {
  for (const server of running) server.abandon();
});

/** @implements {PgServer} */
class LocalPostgres {
  /**
   * @param {string} postgres
   * @param {Runner} runner
   * @param {string} dir
   * @param {string} dataDir
   * @param {number} port
   */
  constructor(postgres, runner, dir, dataDir, port) {
    /** @private @readonly */
    this.postgres = postgres;
    /** @private @readonly */
    this.runner = runner;
    /** @private @readonly */
    this.dir = dir;
    /** @readonly */
    this.dataDir = dataDir;
    /** @readonly */
    this.port = port;
    /** @readonly */
    this.url = pgUrl(port);
    /** @private @type {ServerProcess | undefined} */
    this.process = undefined;
  }

  /** @returns {Promise<void>} */
  async start() {
    if (this.process) throw new Error(`PostgreSQL is already running on port ${this.port}`);
    const log = join(this.dir, 'postgres.log');
    const serverProcess = spawnServer(this.runner, this.dir, log, this.postgres, [
      ...['-D', this.dataDir, '-p', String(this.port), '-k', this.dir],
      ...['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=100'],
      // Durability is worth nothing for data thrown away after the run, and costs seconds.
      ...['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    ]);
    this.process = serverProcess;
    running.add(this);
    try {
      await waitUntilReady(serverProcess, this.port);
    } catch (error) {
      await this.kill();
      throw error;
    }
  }

  /** @returns {Promise<void>} */
  async stop() {
    const serverProcess = this.process;
    if (!serverProcess) return;
    const postmaster = serverProcess.postmasterPid();
    if (postmaster === undefined) return this.kill();
    signal(postmaster, 'SIGINT'); // fast shutdown: ends the sessions, writes a checkpoint
    if (!(await serverProcess.exitedWithin(STOP_TIMEOUT_MS))) return this.kill();
    this.forget();
  }

  /** @returns {Promise<void>} */
  async kill() {
    const serverProcess = this.process;
    if (!serverProcess) return;
    const pids = killPostmaster(serverProcess);
    // The postmaster must be reaped, not a zombie, before a restart: postgres takes a lock file
    // naming a pid that still exists for a postmaster still running. Its parent (this process,
    // or runuser, which then exits) reaps it.
    if (!(await serverProcess.exitedWithin(GONE_TIMEOUT_MS))) {
      signal(serverProcess.child.pid, 'SIGKILL');
      await serverProcess.exitedWithin(GONE_TIMEOUT_MS);
    }
    // Backends left over would keep the old shared memory attached, and a restart refuses to
    // start beside them.
    await waitGone(pids, GONE_TIMEOUT_MS);
    this.forget();
  }

  /** @returns {Promise<void>} */
  async destroy() {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** For the exit handler, where nothing asynchronous runs any more. */
  abandon() {
    if (this.process) killPostmaster(this.process);
    this.forget();
    try {
      rmSync(this.dir, { recursive: true, force: true });
    } catch {
      // Best effort: a process dying this very moment may still hold it.
    }
  }

  /** @private */
  forget() {
    this.process = undefined;
    running.delete(this);
  }
}

// --- the server process ------------------------------------------------------------------------

/**
 * @typedef {object} ServerProcess
 * @property {import('node:child_process').ChildProcess} child
 * @property {() => boolean} hasExited
 * @property {(ms: number) => Promise<boolean>} exitedWithin
 * @property {() => number | undefined} postmasterPid
 * @property {() => string} logTail What the server logged since this process was started.
 */

/**
 * @param {Runner} runner
 * @param {string} dir
 * @param {string} log
 * @param {string} postgres
 * @param {string[]} args
 * @returns {ServerProcess}
 */
function spawnServer(runner, dir, log, postgres, args) {
  const [file, wrappedArgs] = runner.command(postgres, args);
  const logStart = fileSize(log);
  const fd = openSync(log, 'a');
  let child;
  try {
    child = spawn(file, wrappedArgs, { cwd: dir, stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd);
  }
  let exited = false;
  /** @type {Error | undefined} */
  let spawnError;
  const exit = new Promise((resolve) => {
    child.once('exit', () => resolve(undefined));
    child.once('error', (error) => {
      spawnError = error;
      resolve(undefined);
    });
  }).then(() => {
    exited = true;
  });
  return {
    child,
    hasExited: () => exited,
    exitedWithin: (ms) => within(exit, ms),
    postmasterPid: () => (runner.forks ? childrenOf(child.pid)[0] : child.pid),
    logTail: () => (spawnError ? `${spawnError.message}\n` : '') + tail(readFrom(log, logStart)),
  };
}

/**
 * Polls with a real connection: the postmaster listening is not yet the server accepting sessions.
 * @param {ServerProcess} serverProcess
 * @param {number} port
 * @returns {Promise<void>}
 */
async function waitUntilReady(serverProcess, port) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (serverProcess.hasExited()) throw new PostmasterExited(port, serverProcess.logTail());
    if (await acceptsConnections(port)) return;
    if (Date.now() > deadline) {
      throw new Error(`PostgreSQL did not accept connections on port ${port} within ${READY_TIMEOUT_MS / 1000} s; its log ends:\n${serverProcess.logTail()}`);
    }
    await sleep(POLL_MS);
  }
}

/**
 * @param {number} port
 * @returns {Promise<boolean>}
 */
async function acceptsConnections(port) {
  const client = new pg.Client({ connectionString: pgUrl(port, 'postgres'), connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    await client.end().catch(() => {});
    return false;
  }
}

// --- processes, through /proc ------------------------------------------------------------------

/**
 * SIGKILLs the postmaster, then its backends, so none is left to fork again; returns their pids.
 * A wrapper (runuser) is left to reap the postmaster; before it forked, it is what gets killed.
 * @param {ServerProcess} serverProcess
 * @returns {number[]}
 */
function killPostmaster(serverProcess) {
  const root = serverProcess.postmasterPid() ?? serverProcess.child.pid;
  if (root === undefined) return [];
  const pids = processTree(root);
  for (const pid of pids) signal(pid, 'SIGKILL');
  return pids;
}

/**
 * @param {number | undefined} pid
 * @param {NodeJS.Signals} name
 */
function signal(pid, name) {
  if (pid === undefined) return;
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

/**
 * `root` and its descendants, breadth first. Without /proc (not Linux), only `root`.
 * @param {number} root
 * @returns {number[]}
 */
function processTree(root) {
  const children = childrenByParent();
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(/** @type {number} */ (tree[i])) ?? []));
  return tree;
}

/**
 * @param {number | undefined} pid
 * @returns {number[]}
 */
function childrenOf(pid) {
  return pid === undefined ? [] : (childrenByParent().get(pid) ?? []);
}

/** @returns {Map<number, number[]>} */
function childrenByParent() {
  /** @type {Map<number, number[]>} */
  const children = new Map();
  let entries;
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return children;
  }
  for (const entry of entries) {
    const stat = procStat(Number(entry));
    if (!stat) continue;
    children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), Number(entry)]);
  }
  return children;
}

/**
 * State and parent from /proc/<pid>/stat; the command name before them may hold spaces and parentheses.
 * @param {number} pid
 * @returns {{ state: string, ppid: number } | undefined}
 */
function procStat(pid) {
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const [state = '', ppid = ''] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state, ppid: Number(ppid) };
}

/**
 * Gone, or a zombie: a zombie holds no memory and no sockets, only its exit status for its parent.
 * @param {number[]} pids
 * @param {number} ms
 * @returns {Promise<void>}
 */
async function waitGone(pids, ms) {
  const deadline = Date.now() + ms;
  const alive = () => pids.some((pid) => (procStat(pid)?.state ?? 'Z') !== 'Z');
  while (alive() && Date.now() < deadline) await sleep(POLL_MS / 2);
}

// --- small things ------------------------------------------------------------------------------

/**
 * @param {number} ms
 * @returns {Promise<void>}
 */
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Whether `promise` settled within `ms`; the timer does not outlive it.
 * @param {Promise<void>} promise
 * @param {number} ms
 * @returns {Promise<boolean>}
 */
async function within(promise, ms) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const timeout = new Promise((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * @param {string} text
 * @param {number} [lines]
 * @returns {string}
 */
function tail(text, lines = 30) {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/**
 * @param {string} file
 * @returns {number}
 */
function fileSize(file) {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/**
 * @param {string} file
 * @param {number} offset
 * @returns {string}
 */
function readFrom(file, offset) {
  let fd;
  try {
    fd = openSync(file, 'r');
  } catch {
    return '';
  }
  try {
    const buffer = Buffer.alloc(Math.max(0, fileSize(file) - offset));
    const read = readSync(fd, buffer, 0, buffer.length, offset);
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
