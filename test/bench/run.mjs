// payctl benchmark (`npm run bench`). Every figure is a ratio against a baseline measured in the
// same run, with baseline and subject runs interleaved so that machine noise hits both alike;
// absolute milliseconds differ too much between machines to compare. Missed targets are reported,
// never failed: the script exits 0 whenever it could measure, and 1 only when the CLI or the
// sandbox could not be run at all. Plain Node only (no dependencies); loopback traffic only.
//
// Flags: --only <group> measures one group (startup, exports, embedded, export-files, bulk,
// bulk-input, exactly-once). --sales N sets how many sales the sandbox-at-volume figures generate
// (100,000 for the embedded and export-files groups unless told; 200,000 for the side-by-side
// sandbox figure). --against <rev> also builds that git revision (from `git archive` into a
// temporary directory, with this checkout's node_modules; removed however the run ends) and
// measures the startup, exports, bulk and embedded groups' figures on both builds, interleaved:
// a side-by-side table of medians, ratio this/other and better / same / worse (same within ±5 %).
// The embedded group's side-by-side figure is the sandbox at volume: generate speed, database
// bytes per sale, and reading every sale back through `sandbox serve`; `--sales 1000000` for the
// full million.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildRevision, NOISE, resolveRevision, verdict } from './against.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const NODE = process.execPath;
const CLI = path.resolve(here, '../../bin/payctl.js');
const BARE_GET = path.join(here, 'bare-get.mjs');
const BARE_FETCH = path.join(here, 'bare-fetch.mjs');
const BARE_PAGES = path.join(here, 'bare-pages.mjs');
const BARE_REFUNDS_CLIENT = path.join(here, 'bare-refunds.mjs');
const PEAK_RSS = path.join(here, 'peak-rss.mjs');
// The seller `sandbox serve` seeds (src/provider/sandbox-account.ts); a profile pointed at it by
// PAYCTL_BASE_URL must be told, since the embedded sandbox's ids do not follow a base URL.
const SANDBOX_SELLER_ID = '717306fb6d8e0a3645ce5a907a498f8d';
// The built-in sandbox profile's key (src/provider/sandbox-account.ts). `sandbox serve` makes each key a
// marketplace of its own; this one's is the embedded sandbox's state, which the exactly-once
// figures set up and check through the server's PAYCTL_HOME.
const BENCH_KEY = 'zpk_test_sandbox_0a1bc86eb5180432';
const EXPORT_ITEMS = 100_000; // issue target: exports of 100,000 items
const EXPORT_SMALL = 10_000; // memory at 100,000 must stay within 1.2× memory at this many
const EXPORT_RUNS = 3;
const TIME_BIN = '/usr/bin/time'; // GNU time: `-f %M` prints the child's max RSS in KB
const RUNS = 15;
const WARMUPS = 2;
const BULK = 300; // transactions created before timing `list --all`
const CHILD_TIMEOUT_MS = 20_000; // no single child may hang the run
// Past this, figures stop sampling (keeping at least 3 runs) so the whole `npm run bench`,
// build included, stays under 2 minutes even on a slow or busy machine.
const DEADLINE = performance.now() + 90_000;

// Every child gets a fresh PAYCTL_HOME (never the real one), and no inherited PAYCTL_* variable
// may change which profile or server the CLI uses.
const home = mkdtempSync(path.join(os.tmpdir(), 'payctl-bench-'));
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PAYCTL_')));
Object.assign(env, { PAYCTL_HOME: home, NO_COLOR: '1' });

let server; // the `sandbox serve` child of most figures
const servers = new Set(); // every `sandbox serve` child still running, killed however the run ends
let otherDir; // the other revision's build (--against), removed however the run ends
process.on('exit', () => {
  for (const child of servers) child.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
  if (otherDir) rmSync(otherDir, { recursive: true, force: true });
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));

/** Runs one command to completion; wall time covers spawn to exit, the same for subject and baseline. */
function run(argv, extraEnv = {}) {
  const t0 = performance.now();
  const r = spawnSync(argv[0], argv.slice(1), {
    env: { ...env, ...extraEnv },
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    timeout: CHILD_TIMEOUT_MS,
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) {
    throw new Error(`${argv.join(' ')} failed (${r.error?.message ?? `exit ${r.status ?? r.signal}`}):\n${r.stderr}`);
  }
  return { ms, stdout: r.stdout, stderr: r.stderr };
}

/** Max RSS in MB, read from GNU time's last stderr line (the child's own stderr comes before it). */
function maxRssMB(argv, extraEnv) {
  const { stderr } = run([TIME_BIN, '-f', '%M', ...argv], extraEnv);
  return Number(stderr.trim().split('\n').at(-1)) / 1024;
}

function stats(values) {
  const v = [...values].sort((a, b) => a - b);
  const mid = v.length >> 1;
  const median = v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
  return { median, min: v[0], max: v.at(-1), n: v.length };
}

/** Interleaved sampling: each round runs both, alternating which goes first. */
function compare(subject, baseline, runs = RUNS, warmups = WARMUPS) {
  const s = [];
  const b = [];
  for (let i = 0; i < warmups + runs; i++) {
    if (i >= warmups + 3 && performance.now() > DEADLINE) break;
    const order = i % 2 ? [[subject, s], [baseline, b]] : [[baseline, b], [subject, s]];
    for (const [fn, out] of order) {
      const value = fn();
      if (i >= warmups) out.push(value);
    }
  }
  return { s: stats(s), b: stats(b) };
}

/** Starts `payctl sandbox serve --port 0` and resolves with the URL it prints first on stdout. */
function startServer(serverEnv = env) {
  const started = launchServer(serverEnv, CLI);
  server = started.child;
  return started.url;
}

/** `sandbox serve` of the build at `cli`, for callers that keep more than one server up at once. */
function launchServer(serverEnv, cli) {
  const child = spawn(NODE, [cli, 'sandbox', 'serve', '--port', '0'], { env: serverEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  servers.add(child);
  let out = '';
  let err = '';
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sandbox printed no URL within 10 s:\n${err}`)), 10_000);
    child.stdout.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        resolve(out.slice(0, nl).trim());
      }
    });
    child.stderr.on('data', (d) => (err += d.length < 10_000 ? d : ''));
    child.on('exit', (code) => {
      clearTimeout(timer);
      servers.delete(child);
      reject(new Error(`sandbox exited (${code}) before printing its URL:\n${err}`));
    });
  });
  return { child, url };
}

async function stopServer(child = server) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

/** Creates transactions straight through the sandbox's HTTP API, many requests in flight at once. */
async function createMany(url, apiKey, count, body) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const auth = `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`;
  const payload = JSON.stringify(body);
  const postOne = () =>
    new Promise((resolve, reject) => {
      const req = http.request(`${url}/v1/transactions`, {
        method: 'POST',
        agent,
        headers: { Authorization: auth, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) },
      });
      req.setTimeout(CHILD_TIMEOUT_MS, () => req.destroy(new Error('POST timed out')));
      req.on('error', reject);
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => (res.statusCode < 300 ? resolve() : reject(new Error(`POST ${res.statusCode}: ${text}`))));
      });
      req.end(payload);
    });
  try {
    await Promise.all(Array.from({ length: count }, postOne));
  } finally {
    agent.destroy();
  }
}

/** Newlines in a file, read a megabyte at a time: a million transactions are more than Node reads at once (2 GiB). */
function countLines(file) {
  const fd = openSync(file, 'r');
  const chunk = Buffer.alloc(1 << 20);
  let lines = 0;
  try {
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) {
      for (let i = chunk.indexOf(10); i !== -1 && i < n; i = chunk.indexOf(10, i + 1)) lines += 1;
    }
  } finally {
    closeSync(fd);
  }
  return lines;
}

/**
 * Runs an export with stdout to a file (exports are too large for a pipe buffer) under GNU time:
 * returns wall ms, peak RSS in MB and how many lines it wrote.
 */
function runExport(argv, extraEnv, serverPid) {
  const out = path.join(home, 'export.out');
  const fd = openSync(out, 'w');
  // The server's memory during this export (its peak so far may come from an earlier, bigger one).
  const serverRssFile = path.join(home, 'server-rss');
  rmSync(serverRssFile, { force: true });
  const sampler = serverPid ? spawn(NODE, [PEAK_RSS, String(serverPid), serverRssFile], { stdio: 'ignore' }) : undefined;
  const t0 = performance.now();
  const r = spawnSync(TIME_BIN, ['-f', '%M', ...argv], { env: { ...env, ...extraEnv }, stdio: ['ignore', fd, 'pipe'], encoding: 'utf8', timeout: 600_000 });
  const ms = performance.now() - t0;
  closeSync(fd);
  sampler?.kill();
  const serverRssMB = sampler && existsSync(serverRssFile) ? Number(readFileSync(serverRssFile, 'utf8')) / 1024 : undefined;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} failed (${r.error?.message ?? `exit ${r.status ?? r.signal}`}):\n${r.stderr}`);
  const lines = countLines(out);
  rmSync(out);
  return { ms, rssMB: Number(r.stderr.trim().split('\n').at(-1)) / 1024, serverRssMB, lines };
}

const exportRows = [];

/** items/s and peak RSS of one export of `items` items, against the bare pager on the same list. */
function measureExport(name, cliArgv, bareUrl, items, client, headerLines) {
  const cli = [];
  const bare = [];
  for (let i = 0; i < EXPORT_RUNS; i += 1) {
    const c = runExport(cliArgv, client, server?.pid);
    if (c.lines !== items + headerLines) throw new Error(`${name}: wrote ${c.lines} lines, expected ${items + headerLines}`);
    cli.push(c);
    bare.push(runExport([NODE, BARE_PAGES, bareUrl, String(items)], client));
  }
  const median = (values) => stats(values).median;
  const rate = (runs) => items / (median(runs.map((r) => r.ms)) / 1000);
  return { name, items, cliRate: rate(cli), bareRate: rate(bare), cliRss: median(cli.map((r) => r.rssMB)), bareRss: median(bare.map((r) => r.rssMB)), serverRss: median(cli.map((r) => r.serverRssMB ?? Number.NaN)) };
}

const EXPORT_KINDS = [['transfers', 'ndjson', 0], ['transactions', 'ndjson', 0], ['transactions', 'csv', 1]]; // noun, format, header lines

/**
 * Generates the exports' 100,000 sales through `client`'s server and pays them all out (at least
 * 100,000 transfers: a sale in instalments is paid out in several); returns the seconds it took.
 */
function fillExportStore(cli, client) {
  const setup = (argv) => spawnSync(NODE, [cli, ...argv, '-q', '-o', 'json'], { env: { ...env, ...client }, encoding: 'utf8', timeout: 600_000 });
  const t0 = performance.now();
  // 400 days of trading: every card sale but the last month's is paid out; 31 more days pay the rest.
  for (const argv of [['sandbox', 'generate', '--sales', String(EXPORT_ITEMS), '--days', '400'], ['sandbox', 'advance', '--days', '31']]) {
    const r = setup(argv);
    if (r.status !== 0) throw new Error(`payctl ${argv.join(' ')} failed: ${r.stderr}`);
  }
  return (performance.now() - t0) / 1000;
}

/** Finance exports over a sandbox holding 100,000 sales and 100,000 transfers, on its own server and home. */
async function exportFigures() {
  if (!existsSync(TIME_BIN)) return;
  const exportHome = mkdtempSync(path.join(os.tmpdir(), 'payctl-bench-export-'));
  const serverEnv = { ...env, PAYCTL_HOME: exportHome };
  try {
    const url = await startServer(serverEnv);
    const client = { PAYCTL_BASE_URL: url, PAYCTL_API_KEY: BENCH_KEY, PAYCTL_MARKETPLACE_ID: '' };
    const setupSeconds = fillExportStore(CLI, client);
    const figures = [];
    for (const [noun, format, headerLines] of EXPORT_KINDS) {
      for (const items of [EXPORT_SMALL, EXPORT_ITEMS]) {
        // The first 100,000 of each: there are more transfers than sales.
        const argv = [NODE, CLI, noun, 'list', '--limit', String(items), '-o', format];
        const bareUrl = `${url}/v1/${noun}`;
        figures.push(measureExport(`${noun} list --limit ${items} -o ${format}`, argv, bareUrl, items, client, headerLines));
      }
    }
    exportRows.push({ setupSeconds, figures });
  } finally {
    await stopServer();
    rmSync(exportHome, { recursive: true, force: true });
  }
}

// Sales generated for the embedded sandbox figures: `npm run bench -- --sales 1000000` for the
// issue's million (about 5 minutes more); 100,000 by default keeps a routine run short.
const salesArg = process.argv.indexOf('--sales');
// `npm run bench -- --only bulk` (or startup, exports, embedded, export-files, bulk, bulk-input, exactly-once) measures one group
// of figures: for working on one of them without waiting for the rest.
const onlyArg = process.argv.indexOf('--only');
const ONLY = onlyArg > 0 ? process.argv[onlyArg + 1] : undefined;
const GROUPS = ['startup', 'exports', 'embedded', 'export-files', 'bulk', 'bulk-input', 'exactly-once'];
if (ONLY !== undefined && !GROUPS.includes(ONLY)) {
  console.error(`--only takes one of: ${GROUPS.join(', ')}`);
  process.exit(2);
}
const measures = (group) => ONLY === undefined || ONLY === group;
const VOLUME_SALES = salesArg > 0 ? Number(process.argv[salesArg + 1]) : 100_000;
if (!(Number.isInteger(VOLUME_SALES) && VOLUME_SALES >= 10)) {
  console.error('--sales takes a whole number of sales, at least 10');
  process.exit(2);
}
// `npm run bench -- --against <rev>` (a branch, tag or commit) builds that revision as well and
// measures the start-up, exports, bulk and sandbox-at-volume figures of the groups picked on both
// builds, interleaved, printed side by side after the targets.
const againstArg = process.argv.indexOf('--against');
const AGAINST = againstArg > 0 ? process.argv[againstArg + 1] : undefined;
if (againstArg > 0 && (AGAINST === undefined || AGAINST.startsWith('-'))) {
  console.error('--against takes a git revision: a branch, tag or commit');
  process.exit(2);
}
const SIDE_GROUPS = ['startup', 'exports', 'embedded', 'bulk'];
if (AGAINST !== undefined && !SIDE_GROUPS.some(measures)) {
  console.error(`--against compares the groups ${SIDE_GROUPS.join(', ')}; --only ${ONLY} is none of them`);
  process.exit(2);
}
const REPO = path.resolve(here, '../..');
let otherCommit;
try {
  otherCommit = AGAINST === undefined ? undefined : resolveRevision(REPO, AGAINST);
} catch {
  console.error(`--against: ${AGAINST} names no commit here`);
  process.exit(2);
}
const VOLUME_RUNS = 7;
const volumeRows = [];

/**
 * The embedded sandbox at volume: `sandbox generate` (wall time, peak RSS), then the commands a
 * user runs, each against the same command on a fresh sandbox (ratio) with its peak RSS, then an
 * export of every transaction straight from the embedded sandbox.
 */
async function embeddedVolumeFigures() {
  if (!existsSync(TIME_BIN)) return;
  const big = { PAYCTL_HOME: mkdtempSync(path.join(os.tmpdir(), 'payctl-bench-big-')) };
  const fresh = { PAYCTL_HOME: mkdtempSync(path.join(os.tmpdir(), 'payctl-bench-fresh-')) };
  try {
    const t0 = performance.now();
    const generated = spawnSync(TIME_BIN, ['-f', '%M', NODE, CLI, 'sandbox', 'generate', '--sales', String(VOLUME_SALES), '-q', '-o', 'json'], {
      env: { ...env, ...big },
      encoding: 'utf8',
      timeout: 1_800_000,
    });
    const generateSeconds = (performance.now() - t0) / 1000;
    if (generated.status !== 0) throw new Error(`sandbox generate failed: ${generated.stderr}`);
    const generateRss = Number(generated.stderr.trim().split('\n').at(-1)) / 1024;
    const idOf = (home) => {
      run([NODE, CLI, 'transactions', 'create', '--payment-type', 'pix', '--amount', '5', '-q', '-o', 'json'], home);
      return JSON.parse(run([NODE, CLI, 'transactions', 'list', '--limit', '1', '-o', 'json'], home).stdout)[0].id;
    };
    const ids = new Map([[big, idOf(big)], [fresh, idOf(fresh)]]);
    const commands = [
      ['transactions get', (home) => ['transactions', 'get', ids.get(home), '-o', 'json']],
      ['transactions list --limit 20', () => ['transactions', 'list', '--limit', '20', '-o', 'json']],
      ['transactions create (pix)', () => ['transactions', 'create', '--payment-type', 'pix', '--amount', '5', '-o', 'json']],
      ['balances current', () => ['balances', 'current', '-o', 'json']],
    ];
    const figures = [];
    for (const [name, argv] of commands) {
      const { s, b } = compare(() => run([NODE, CLI, ...argv(big)], big).ms, () => run([NODE, CLI, ...argv(fresh)], fresh).ms, VOLUME_RUNS, 1);
      const rss = stats([0, 1, 2].map(() => maxRssMB([NODE, CLI, ...argv(big)], big))).median;
      figures.push({ name, s, b, rss });
    }
    const exports = [];
    for (const items of [EXPORT_SMALL, VOLUME_SALES]) {
      const argv = [NODE, CLI, 'transactions', 'list', ...(items === VOLUME_SALES ? ['--all'] : ['--limit', String(items)]), '-o', 'ndjson'];
      const runs = [0, 1, 2].map(() => runExport(argv, big));
      exports.push({ items, rate: items / (stats(runs.map((r) => r.ms)).median / 1000), rss: stats(runs.map((r) => r.rssMB)).median });
    }
    volumeRows.push({ generateSeconds, generateRss, figures, exports });
  } finally {
    rmSync(big.PAYCTL_HOME, { recursive: true, force: true });
    rmSync(fresh.PAYCTL_HOME, { recursive: true, force: true });
  }
}

const FILE_FORMATS = ['ndjson', 'csv', 'parquet'];
const fileExportRows = [];

/** The number `pattern` captures in `text`, as payctl writes counts ("10.000": grouped with dots); NaN when absent. */
function countIn(text, pattern) {
  const digits = pattern.exec(text)?.[1];
  return digits === undefined ? Number.NaN : Number(digits.replaceAll('.', ''));
}

/**
 * One `payctl export transactions` to a file under GNU time, from a fresh state (so every row):
 * wall ms, peak RSS in MB and the rows it says it wrote. The state file is kept for a second run.
 */
function runFileExport(big, format, state) {
  const out = path.join(home, `export-file.${format}`);
  rmSync(state, { force: true });
  const t0 = performance.now();
  const r = spawnSync(TIME_BIN, ['-f', '%M', NODE, CLI, 'export', 'transactions', '--format', format, '--out', out, '--state', state], { env: { ...env, ...big }, encoding: 'utf8', timeout: 1_800_000 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`export --format ${format} failed (${r.error?.message ?? `exit ${r.status ?? r.signal}`}):\n${r.stderr}`);
  const rows = countIn(r.stderr, /exported ([\d.]+) transactions?/);
  rmSync(out, { force: true });
  return { ms, rssMB: Number(r.stderr.trim().split('\n').at(-1)) / 1024, rows };
}

/**
 * `payctl export` of every transaction on the embedded sandbox, in each format, at --sales rows
 * (100,000 unless told) and at a tenth of that, generated in two steps into one store: rows/s and
 * peak RSS of each, against `transactions list --all -o ndjson` (the plain streaming path) on the
 * same store at the same moment; RSS at the full size against RSS at the tenth says whether memory
 * stays flat. Then a second run with the state of the first (reads only the lookback window).
 */
async function fileExportFigures() {
  if (!existsSync(TIME_BIN)) return;
  const big = { PAYCTL_HOME: mkdtempSync(path.join(os.tmpdir(), 'payctl-bench-export-files-')) };
  const state = path.join(big.PAYCTL_HOME, 'export.state.json');
  const runs = VOLUME_SALES >= 1_000_000 ? 1 : 3;
  try {
    const sizes = [];
    for (const [total, step] of [[VOLUME_SALES / 10, VOLUME_SALES / 10], [VOLUME_SALES, VOLUME_SALES - VOLUME_SALES / 10]]) {
      const generated = spawnSync(NODE, [CLI, 'sandbox', 'generate', '--sales', String(step), '--days', '30', '-q', '-o', 'json'], { env: { ...env, ...big }, encoding: 'utf8', timeout: 1_800_000 });
      if (generated.status !== 0) throw new Error(`sandbox generate failed: ${generated.stderr}`);
      const list = [0, 1, 2].slice(0, runs).map(() => runExport([NODE, CLI, 'transactions', 'list', '--all', '-o', 'ndjson'], big));
      if (list[0].lines !== total) throw new Error(`transactions list --all wrote ${list[0].lines} rows, expected ${total}`);
      const formats = {};
      for (const format of FILE_FORMATS) {
        const measured = [0, 1, 2].slice(0, runs).map(() => runFileExport(big, format, state));
        if (measured[0].rows !== total) throw new Error(`export --format ${format} wrote ${measured[0].rows} rows, expected ${total}`);
        formats[format] = { rate: total / (stats(measured.map((m) => m.ms)).median / 1000), rss: stats(measured.map((m) => m.rssMB)).median };
      }
      // The state of the last full export (Parquet): the next run reads the lookback window only.
      const t0 = performance.now();
      const againOut = path.join(home, 'again.parquet');
      const again = spawnSync(NODE, [CLI, 'export', 'transactions', '--format', 'parquet', '--out', againOut, '--state', state], { env: { ...env, ...big }, encoding: 'utf8', timeout: 600_000 });
      // Removed at once: a run from a state refuses to replace an --out it finds (the next size's run would).
      rmSync(againOut, { force: true });
      if (again.status !== 0) throw new Error(`second export failed: ${again.stderr}`);
      const incremental = { ms: performance.now() - t0, read: countIn(again.stderr, /\(([\d.]+) read/) };
      sizes.push({ total, list: { rate: total / (stats(list.map((r) => r.ms)).median / 1000), rss: stats(list.map((r) => r.rssMB)).median }, formats, incremental });
    }
    fileExportRows.push({ runs, sizes });
  } finally {
    rmSync(big.PAYCTL_HOME, { recursive: true, force: true });
  }
}

const BULK_REFUNDS = 10_000; // issue target: 10,000 refunds from a file
const LOOP_REFUNDS = 200; // the shell loop baseline, one payctl process per refund
const BARE_REFUNDS = 10_000; // a bare HTTP client's refunds, to tell the server's limit from payctl's
const bulkRows = [];
const bulkInputRows = [];
const BULK_INPUT_ROWS = 1_000_000;

/**
 * Reading a bulk file of the largest size a batch takes, through a pipe (so through its private
 * copy), as a dry run: peak RSS (median of three) against the same run on a 10-row file, and what
 * that is per row.
 */
function bulkInputFigures() {
  if (!existsSync(TIME_BIN)) return;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'payctl-bench-input-'));
  try {
    const big = path.join(dir, 'big.csv');
    const small = path.join(dir, 'small.csv');
    const lines = ['id,amount'];
    for (let i = 0; i < BULK_INPUT_ROWS; i += 1) lines.push(`${i.toString(16).padStart(32, '0')},1.00`);
    writeFileSync(big, `${lines.join('\n')}\n`);
    writeFileSync(small, `${lines.slice(0, 11).join('\n')}\n`);
    const dryRun = (file) => {
      const t = performance.now();
      const r = spawnSync('sh', ['-c', `cat "${file}" | "${TIME_BIN}" -f %M "${NODE}" "${CLI}" transactions refund --file - --yes --dry-run > /dev/null`], { env: { ...env, PAYCTL_HOME: dir }, encoding: 'utf8', timeout: 600_000 });
      if (r.status !== 0) throw new Error(`bulk dry run failed: ${r.stderr}`);
      return { ms: performance.now() - t, rss: Number(r.stderr.trim().split('\n').at(-1)) / 1024 };
    };
    const bigRuns = [0, 1, 2].map(() => dryRun(big));
    const smallRuns = [0, 1, 2].map(() => dryRun(small));
    bulkInputRows.push({ rss: stats(bigRuns.map((r) => r.rss)).median, ms: stats(bigRuns.map((r) => r.ms)).median, baseline: stats(smallRuns.map((r) => r.rss)).median });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Bulk refunds from a file against `sandbox serve`, per refund, against a shell loop of single refunds. */
async function bulkRefundFigures() {
  if (!existsSync(TIME_BIN)) return;
  const bulkHome = mkdtempSync(path.join(os.tmpdir(), 'payctl-bench-bulk-'));
  const serverEnv = { ...env, PAYCTL_HOME: bulkHome };
  try {
    const url = await startServer(serverEnv);
    const client = { PAYCTL_BASE_URL: url, PAYCTL_API_KEY: BENCH_KEY, PAYCTL_MARKETPLACE_ID: '' };
    const cli = (argv, timeout = 600_000) => spawnSync(NODE, [CLI, ...argv], { env: { ...env, ...client }, encoding: 'utf8', timeout, maxBuffer: 512 << 20 });
    // Succeeded card and PIX sales are refundable (a paid boleto is not; a declined card or an unpaid PIX has nothing to refund): about 8 in 10 generated sales.
    const wanted = BULK_REFUNDS + LOOP_REFUNDS + BARE_REFUNDS;
    const generated = cli(['sandbox', 'generate', '--sales', String(Math.ceil(wanted * 1.3)), '--days', '1', '-q', '-o', 'json']);
    if (generated.status !== 0) throw new Error(`sandbox generate failed: ${generated.stderr}`);
    const listed = cli(['transactions', 'list', '--all', '--payment-type', 'credit,pix', '--status', 'succeeded', '-o', 'ndjson']);
    const lines = listed.stdout.trimEnd().split('\n');
    if (lines.length < wanted) throw new Error(`only ${lines.length} refundable transactions`);
    const file = path.join(bulkHome, 'refunds.ndjson');
    writeFileSync(file, `${lines.slice(0, BULK_REFUNDS).join('\n')}\n`);
    const loopIds = lines.slice(BULK_REFUNDS, BULK_REFUNDS + LOOP_REFUNDS).map((l) => JSON.parse(l).id);

    // The same number of refunds by a bare HTTP client, on other sales of the same server first.
    const bareFile = path.join(bulkHome, 'bare-refunds.txt');
    writeFileSync(bareFile, `${lines.slice(BULK_REFUNDS + LOOP_REFUNDS, BULK_REFUNDS + LOOP_REFUNDS + BARE_REFUNDS).map((l) => { const t = JSON.parse(l); return `${t.id},${Math.round(Number(t.amount) * 100)}`; }).join('\n')}\n`);
    const tb = performance.now();
    const bare = spawnSync(NODE, [BARE_REFUNDS_CLIENT, url, SANDBOX_SELLER_ID, bareFile], { env: { ...env, ...client }, encoding: 'utf8', timeout: 600_000 });
    const bareMs = performance.now() - tb;
    if (bare.status !== 0) throw new Error(`bare refunds failed: ${bare.stderr}`);

    const t0 = performance.now();
    const bulk = spawnSync(TIME_BIN, ['-f', '%M', NODE, CLI, 'transactions', 'refund', '--file', file, '--yes', '--concurrency', '8'], {
      env: { ...env, ...client },
      encoding: 'utf8',
      maxBuffer: 512 << 20,
      timeout: 600_000,
    });
    const bulkMs = performance.now() - t0;
    const refunded = bulk.stdout.trimEnd().split('\n').filter((l) => JSON.parse(l).status === 'refunded').length;
    if (bulk.status !== 0 || refunded !== BULK_REFUNDS) throw new Error(`bulk refund: exit ${bulk.status}, ${refunded} refunded:\n${bulk.stderr.slice(-2000)}`);
    const rssMB = Number(bulk.stderr.trim().split('\n').at(-1)) / 1024;

    // A ledger in PostgreSQL (a server started here, on loopback) against the SQLite one: two more
    // batches of the same size, on sales generated for them (a store the same size for both),
    // SQLite's and then PostgreSQL's.
    let shared;
    try {
      const { startPostgres } = await import('../helpers/postgres-server.mjs');
      const postgres = await startPostgres();
      try {
        const before = new Set(lines.map((l) => JSON.parse(l).id));
        const more = cli(['sandbox', 'generate', '--sales', String(Math.ceil(2 * BULK_REFUNDS * 1.3)), '--days', '1', '-q', '-o', 'json']);
        if (more.status !== 0) throw new Error(`sandbox generate failed: ${more.stderr}`);
        const fresh = cli(['transactions', 'list', '--all', '--payment-type', 'credit,pix', '--status', 'succeeded', '-o', 'ndjson']).stdout.trimEnd().split('\n').filter((l) => !before.has(JSON.parse(l).id));
        if (fresh.length < 2 * BULK_REFUNDS) throw new Error(`only ${fresh.length} new refundable transactions`);
        const batch = (name, slice, extraEnv) => {
          const batchFile = path.join(bulkHome, name);
          writeFileSync(batchFile, `${slice.join('\n')}\n`);
          const t = performance.now();
          const result = spawnSync(NODE, [CLI, 'transactions', 'refund', '--file', batchFile, '--yes', '--concurrency', '8'], { env: { ...env, ...client, ...extraEnv }, encoding: 'utf8', maxBuffer: 512 << 20, timeout: 600_000 });
          const ms = performance.now() - t;
          const done = result.stdout.trimEnd().split('\n').filter((l) => l && JSON.parse(l).status === 'refunded').length;
          if (result.status !== 0 || done !== BULK_REFUNDS) throw new Error(`${name}: exit ${result.status}, ${done} refunded: ${result.stderr.slice(-500)}`);
          return ms;
        };
        const sqliteMs = batch('refunds-sqlite.ndjson', fresh.slice(0, BULK_REFUNDS), {});
        const pgMs = batch('refunds-shared.ndjson', fresh.slice(BULK_REFUNDS, 2 * BULK_REFUNDS), { PAYCTL_LEDGER_URL: postgres.url });
        shared = { sqliteMs, pgMs };
      } finally {
        await postgres.destroy();
      }
    } catch (err) {
      shared = { error: err.message.split('\n')[0] };
    }

    const script = `for id in ${loopIds.join(' ')}; do "${NODE}" "${CLI}" transactions refund "$id" --yes -q -o json > /dev/null || exit 1; done`;
    const t1 = performance.now();
    const loop = spawnSync('bash', ['-c', script], { env: { ...env, ...client }, encoding: 'utf8', timeout: 600_000 });
    const loopMs = performance.now() - t1;
    if (loop.status !== 0) throw new Error(`shell loop failed: ${loop.stderr}`);
    bulkRows.push({ bulkMs, loopMs, rssMB, bareMs, shared });
  } finally {
    await stopServer();
    rmSync(bulkHome, { recursive: true, force: true });
  }
}

const EXACTLY_ONCE_REFUNDS = 2_000; // issue figure: refunds applied / refunds asked under faults
const EXACTLY_ONCE_KILLS = 5;
// A fifth of requests fail in the six classic ways, and one in twenty changes lands 0.8 s after
// its connection is dropped (late-apply): the cases where a client must tell whether money moved.
const EXACTLY_ONCE_FAULTS = '500-before=0.04,500-after=0.04,reset-before=0.03,reset-after=0.03,429=0.03,slow=0.03,late-apply=0.05,retry-after=0,slow-ms=700,late-ms=800';
const exactlyOnceRows = [];

/** Refunds from a file: sale ids and an amount of R$ 1,00 each (a partial refund can happen twice). */
function refundFile(dir, serverHome, count) {
  const embedded = { ...env, PAYCTL_HOME: serverHome };
  const generated = spawnSync(NODE, [CLI, 'sandbox', 'generate', '--sales', String(Math.ceil(count * 1.3)), '--days', '1', '-q', '-o', 'json'], { env: embedded, encoding: 'utf8', timeout: 300_000, maxBuffer: 256 << 20 });
  if (generated.status !== 0) throw new Error(`sandbox generate failed: ${generated.stderr}`);
  const ids = refundableIds(serverHome).slice(0, count);
  if (ids.length < count) throw new Error(`only ${ids.length} refundable transactions`);
  const file = path.join(dir, 'refunds.csv');
  writeFileSync(file, `id,amount\n${ids.map((id) => `${id},1.00`).join('\n')}\n`);
  return { file, ids };
}

/** Succeeded card and PIX sales, and every transaction's succeeded voids, read fault-free through the embedded sandbox on the server's state. */
function refundableIds(serverHome) {
  return transactionsOf(serverHome)
    .filter((t) => t.status === 'succeeded' && (t.payment_type === 'credit' || t.payment_type === 'pix'))
    .map((t) => t.id);
}
function transactionsOf(serverHome) {
  const listed = spawnSync(NODE, [CLI, 'transactions', 'list', '--all', '-o', 'ndjson'], { env: { ...env, PAYCTL_HOME: serverHome }, encoding: 'utf8', timeout: 300_000, maxBuffer: 512 << 20 });
  if (listed.status !== 0) throw new Error(`transactions list failed: ${listed.stderr}`);
  return listed.stdout.trimEnd().split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

function startServerWith(serverEnv, faults) {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [CLI, 'sandbox', 'serve', '--port', '0', ...(faults ? ['--faults', faults] : [])], { env: serverEnv, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve({ child, url: out.slice(0, out.indexOf('\n')).trim() });
    });
    child.once('exit', (code) => reject(new Error(`sandbox serve exited ${code}`)));
  });
}

/**
 * A bulk refund run on a "machine": its own PAYCTL_HOME and, with `hostname`, a UTS namespace of
 * its own (unshare), so it cannot ask about the other machine's processes: only leases count.
 */
function spawnRefund(file, clientHome, client, { hostname } = {}) {
  const argv = [CLI, 'transactions', 'refund', '--file', file, '--yes', '--concurrency', '8', '--timeout', '0.5', '-q'];
  const [command, args] = hostname
    ? ['unshare', ['--uts', ...(process.getuid?.() === 0 ? [] : ['--map-root-user']), 'sh', '-c', 'hostname "$0" && exec "$@"', hostname, NODE, ...argv]]
    : [NODE, argv];
  const child = spawn(command, args, {
    env: { ...env, PAYCTL_HOME: clientHome, ...client },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d.length < 10_000 ? d : ''));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stderr })));
  return { child, exited };
}

/**
 * "Exactly once under faults": the same refund file run twice at once, then killed with SIGKILL
 * five times at random moments, then run to the end, against a server failing a fifth of
 * requests and applying some late. Reports refunds applied / refunds asked (must be 1.000) and
 * refunds/s, against the same file on a fault-free server (the baseline), both from start to
 * all-settled.
 *
 * "Exactly once for a team": the same on two machines (two PAYCTL_HOMEs, one in a UTS namespace
 * of its own) sharing a ledger on PostgreSQL (a real server, started here): two runs at once on
 * each, the kills alternating between them, then a run to the end. Its refunds/s is set against
 * the one-machine, SQLite-ledger figure under the same faults.
 */
async function exactlyOnceFigures() {
  const work = mkdtempSync(path.join(os.tmpdir(), 'payctl-bench-once-'));
  const children = [];
  let postgres;
  try {
    const measure = async (faults, { chaos, team = false }) => {
      const name = `${chaos ? 'faults' : 'clean'}${team ? '-team' : ''}`;
      const serverHome = path.join(work, `server-${name}`);
      const homes = [path.join(work, `client-${name}`), path.join(work, `client-${name}-2`)];
      const serverEnv = { ...env, PAYCTL_HOME: serverHome };
      const { file, ids } = refundFile(work, serverHome, EXACTLY_ONCE_REFUNDS);
      const served = await startServerWith(serverEnv, faults);
      children.push(served.child);
      // Changes land 0.8 s late: a settle window of 3 s covers them.
      const client = { PAYCTL_BASE_URL: served.url, PAYCTL_API_KEY: BENCH_KEY, PAYCTL_MARKETPLACE_ID: '', PAYCTL_SETTLE_WINDOW: '3' };
      if (team) client.PAYCTL_LEDGER_URL = await postgres.freshDatabase();
      const machine = (i) => (team && i % 2 === 1 ? { home: homes[1], hostname: 'caixa-2' } : { home: homes[0] });
      const runOn = (i) => {
        const { home: clientHome, hostname } = machine(i);
        const run = spawnRefund(file, clientHome, client, hostname ? { hostname } : {});
        children.push(run.child);
        return run;
      };
      const t0 = performance.now();
      let overlapExits = [];
      if (chaos) {
        const overlapping = Array.from({ length: team ? 4 : 2 }, (_, i) => runOn(i));
        // Let them overlap a while, then kill whichever still runs: the kills below do the rest.
        await new Promise((r) => setTimeout(r, 1500));
        for (const run of overlapping) run.child.kill('SIGKILL');
        overlapExits = (await Promise.all(overlapping.map((run) => run.exited))).map((e) => e.code ?? e.signal);
        for (let kill = 0; kill < EXACTLY_ONCE_KILLS; kill += 1) {
          const run = runOn(kill);
          await new Promise((r) => setTimeout(r, 300 + Math.random() * 1200));
          run.child.kill('SIGKILL');
          await run.exited;
        }
      }
      // Then to the end: on both machines for a team, each taking over its own dead processes'
      // locks at once, and the other's rows once they are done.
      const finals = await Promise.all((team ? [0, 1] : [0]).map((i) => runOn(i).exited));
      const seconds = (performance.now() - t0) / 1000;
      for (const final of finals) {
        if (final.code === 0) continue;
        // The rows it could not refund, with why: beside the input.
        const failed = path.join(work, 'refunds.failed.csv');
        const rows = existsSync(failed) ? readFileSync(failed, 'utf8').split('\n').slice(0, 6).join('\n') : '';
        throw new Error(`a last refund run exited ${final.code}:\n${final.stderr.slice(-2000)}\n${rows}`);
      }
      // Anything still queued on the server lands within late-ms: wait for it before counting.
      await new Promise((r) => setTimeout(r, 1500));
      served.child.kill('SIGTERM');
      await new Promise((r) => served.child.once('exit', r));
      const asked = new Set(ids);
      let applied = 0;
      let twice = 0;
      for (const t of transactionsOf(serverHome)) {
        if (!asked.has(t.id)) continue;
        const voids = (t.history ?? []).filter((h) => h.operation_type === 'void' && h.status === 'succeeded').length;
        applied += voids;
        if (voids > 1) twice += 1;
      }
      return { asked: ids.length, applied, twice, seconds, rate: ids.length / seconds, overlapExits };
    };
    const clean = await measure(undefined, { chaos: false });
    const chaos = await measure(EXACTLY_ONCE_FAULTS, { chaos: true });
    let team;
    try {
      const { startPostgres, freshDatabase } = await import('../helpers/postgres-server.mjs');
      const server = await startPostgres();
      postgres = { server, freshDatabase: () => freshDatabase(server) };
    } catch (err) {
      team = { error: `PostgreSQL could not be started here (${err.message.split('\n')[0]}); .ci/run installs Debian's postgresql` };
    }
    if (postgres) team = await measure(EXACTLY_ONCE_FAULTS, { chaos: true, team: true });
    exactlyOnceRows.push({ clean, chaos, team });
  } finally {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await postgres?.server.destroy();
    rmSync(work, { recursive: true, force: true });
  }
}

// Side by side (--against): each figure measured on this build and on the other, one run of each
// per round with the order alternating, so that machine noise hits both alike.
const SIDE_ROUNDS = 3; // rounds of the heavier side-by-side figures (exports use EXPORT_RUNS)
// Rounds of reading the generated sandbox back. Three were too few: the same two builds (a60d783
// against d611a5b), run three times with three rounds, gave 0.94×, 0.99× and 0.91×; seven rounds
// gave 0.99×. One read of 200,000 sales takes 7–9 s per build.
const READ_ROUNDS = 7;
// `sandbox generate` makes 1,200–4,900 sales/s on 2 shared cores, so the default's two runs take one
// to five minutes per build, and reading it back one or two more; `--sales 1000000` gives the full figure.
const SIDE_SALES = salesArg > 0 ? VOLUME_SALES : 200_000;
const builds = [{ label: 'this build', cli: CLI }]; // and the other revision's, once built
const sideGroups = []; // { title, figures: { name: { unit, values: [this build's, the other's] } } }

/** Runs `measure(build, i)` (returning [figure, unit, value] triples) on both builds each round; keeps rounds past the warm-ups, in `figures` when given. */
async function sideBySide(title, rounds, warmups, measure, figures = {}) {
  for (let round = 0; round < warmups + rounds; round += 1) {
    for (const i of round % 2 ? [1, 0] : [0, 1]) {
      const measured = await measure(builds[i], i);
      if (round < warmups) continue;
      for (const [name, unit, value] of measured) (figures[name] ??= { unit, values: builds.map(() => []) }).values[i].push(value);
    }
  }
  if (title) sideGroups.push({ title, figures });
  return figures;
}

/**
 * Per build, a `sandbox serve` of its own on `serverHomes[i]` (a fresh home unless given) and a
 * client pointed at it with a home of its own too: a build may keep its state in another layout.
 */
async function serveEach(name, serverHomes = []) {
  const served = [];
  try {
    for (const [i, build] of builds.entries()) {
      const serverHome = serverHomes[i] ?? mkdtempSync(path.join(home, `${name}-server-${i}-`));
      const { child, url } = launchServer({ ...env, PAYCTL_HOME: serverHome }, build.cli);
      served.push({ child });
      const client = { PAYCTL_HOME: mkdtempSync(path.join(home, `${name}-client-${i}-`)), PAYCTL_BASE_URL: await url, PAYCTL_API_KEY: BENCH_KEY, PAYCTL_MARKETPLACE_ID: '' };
      Object.assign(served[i], { serverHome, client, cli: (argv, timeout = 600_000) => spawnSync(NODE, [build.cli, ...argv], { env: { ...env, ...client }, encoding: 'utf8', timeout, maxBuffer: 512 << 20 }) });
    }
  } catch (err) {
    await unserve(served);
    throw err;
  }
  return served;
}

async function unserve(served) {
  for (const { child, serverHome, client } of served) {
    await stopServer(child);
    for (const dir of [serverHome, client?.PAYCTL_HOME]) if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

/** `measure(served)` with both builds' servers up, stopped and their homes removed however it ends. */
async function withServers(name, measure, serverHomes) {
  const served = await serveEach(name, serverHomes);
  try {
    return await measure(served);
  } finally {
    await unserve(served);
  }
}

/** Start-up, one request and peak memory of single commands, each build's client against its own server. */
async function startupSideBySide() {
  await withServers('startup', async (served) => {
    const seeds = served.map(({ client, cli }, i) => {
      Object.assign(client, { PAYCTL_SELLER_ID: SANDBOX_SELLER_ID });
      const created = cli(['transactions', 'create', '--payment-type', 'pix', '--amount', '5', '-o', 'json']);
      if (created.status !== 0) throw new Error(`${builds[i].label}: transactions create failed: ${created.stderr}`);
      const { id, on_behalf_of: onBehalfOf } = JSON.parse(created.stdout);
      // Each build's get must really fetch it, or the comparison means nothing.
      if (JSON.parse(run([NODE, builds[i].cli, 'transactions', 'get', id, '-o', 'json'], client).stdout).id !== id) throw new Error(`${builds[i].label}: transactions get returned another transaction`);
      return { id, onBehalfOf };
    });
    for (const [i, { client }] of served.entries()) await createMany(client.PAYCTL_BASE_URL, BENCH_KEY, BULK, { amount: 500, currency: 'BRL', payment_type: 'pix', on_behalf_of: seeds[i].onBehalfOf });
    const get = (cli, i) => [NODE, cli, 'transactions', 'get', seeds[i].id, '-o', 'json'];
    const figures = [
      ['startup: --version', 'ms', (cli) => run([NODE, cli, '--version']).ms],
      ['startup: --help', 'ms', (cli) => run([NODE, cli, '--help']).ms],
      ['startup: transactions list --help', 'ms', (cli) => run([NODE, cli, 'transactions', 'list', '--help']).ms],
      ['request: transactions get', 'ms', (cli, i) => run(get(cli, i), served[i].client).ms],
      ...(existsSync(TIME_BIN)
        ? [
            ['peak RSS: transactions get', 'MB', (cli, i) => maxRssMB(get(cli, i), served[i].client)],
            [`peak RSS: transactions list --all (${BULK + 1} tx)`, 'MB', (cli, i) => maxRssMB([NODE, cli, 'transactions', 'list', '--all', '-o', 'json'], served[i].client)],
          ]
        : []),
    ];
    const group = { title: `start-up, one request and peak memory (each build's client against its own sandbox serve); median of ${RUNS} runs + ${WARMUPS} warm-ups`, figures: {} };
    // One figure at a time, as the targets table does: the builds alternate run by run.
    for (const [name, unit, measure] of figures) await sideBySide(undefined, RUNS, WARMUPS, ({ cli }, i) => [[name, unit, measure(cli, i)]], group.figures);
    sideGroups.push(group);
  });
}

/** Every export of the exports group at 100,000 items, each build against its own server holding the same store. */
async function exportsSideBySide() {
  if (!existsSync(TIME_BIN)) return;
  await withServers('exports', async (served) => {
    for (const [i, { client }] of served.entries()) fillExportStore(builds[i].cli, client);
    await sideBySide(`exports from each build's own sandbox serve, ${EXPORT_ITEMS.toLocaleString('en-US')} sales paid out; median of ${EXPORT_RUNS} runs`, EXPORT_RUNS, 0, ({ cli }, i) =>
      EXPORT_KINDS.flatMap(([noun, format, headerLines]) => {
        const r = runExport([NODE, cli, noun, 'list', '--limit', String(EXPORT_ITEMS), '-o', format], served[i].client, served[i].child.pid);
        if (r.lines !== EXPORT_ITEMS + headerLines) throw new Error(`${builds[i].label}: ${noun} list --limit ${EXPORT_ITEMS} -o ${format} wrote ${r.lines} lines, expected ${EXPORT_ITEMS + headerLines}`);
        const name = `${noun} list --limit ${EXPORT_ITEMS} -o ${format}`;
        return [[name, 'items/s', EXPORT_ITEMS / (r.ms / 1000)], [`${name}: peak RSS`, 'MB', r.rssMB], ...(r.serverRssMB === undefined ? [] : [[`${name}: server RSS`, 'MB', r.serverRssMB]])];
      }),
    );
  });
}

/** Bulk refunds from a file, each build against its own server: a fresh batch of sales each round. */
async function bulkSideBySide() {
  if (!existsSync(TIME_BIN)) return;
  await withServers('bulk', async (served) => {
    const files = served.map(({ cli, client }, i) => {
      const generated = cli(['sandbox', 'generate', '--sales', String(Math.ceil(SIDE_ROUNDS * BULK_REFUNDS * 1.3)), '--days', '1', '-q', '-o', 'json']);
      if (generated.status !== 0) throw new Error(`${builds[i].label}: sandbox generate failed: ${generated.stderr}`);
      const lines = cli(['transactions', 'list', '--all', '--payment-type', 'credit,pix', '--status', 'succeeded', '-o', 'ndjson']).stdout.trimEnd().split('\n');
      if (lines.length < SIDE_ROUNDS * BULK_REFUNDS) throw new Error(`${builds[i].label}: only ${lines.length} refundable transactions`);
      return Array.from({ length: SIDE_ROUNDS }, (_, round) => {
        const file = path.join(client.PAYCTL_HOME, `refunds-${round}.ndjson`);
        writeFileSync(file, `${lines.slice(round * BULK_REFUNDS, (round + 1) * BULK_REFUNDS).join('\n')}\n`);
        return file;
      });
    });
    const name = `transactions refund --file (${BULK_REFUNDS.toLocaleString('en-US')} rows, --concurrency 8)`;
    await sideBySide(`bulk refunds, each build against its own sandbox serve; median of ${SIDE_ROUNDS} runs`, SIDE_ROUNDS, 0, ({ cli }, i) => {
      const t0 = performance.now();
      const bulk = spawnSync(TIME_BIN, ['-f', '%M', NODE, cli, 'transactions', 'refund', '--file', files[i].shift(), '--yes', '--concurrency', '8'], { env: { ...env, ...served[i].client }, encoding: 'utf8', maxBuffer: 512 << 20, timeout: 600_000 });
      const seconds = (performance.now() - t0) / 1000;
      const refunded = bulk.stdout.trimEnd().split('\n').filter((l) => l && JSON.parse(l).status === 'refunded').length;
      if (bulk.status !== 0 || refunded !== BULK_REFUNDS) throw new Error(`${builds[i].label}: bulk refund: exit ${bulk.status}, ${refunded} refunded:\n${bulk.stderr.slice(-2000)}`);
      return [[name, 'refunds/s', BULK_REFUNDS / seconds], [`${name}: peak RSS`, 'MB', Number(bulk.stderr.trim().split('\n').at(-1)) / 1024]];
    });
  });
}

/** Bytes in the sandbox's SQLite files (the database, its -wal and -shm) anywhere under a home. */
function sandboxDbBytes(dir) {
  let bytes = 0;
  let found = false;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.startsWith('sandbox.db')) continue;
    found = true;
    bytes += statSync(path.join(entry.parentPath ?? entry.path, entry.name)).size;
  }
  if (!found) throw new Error(`no sandbox.db under ${dir}`);
  return bytes;
}

/**
 * The sandbox at volume: `sandbox generate --sales SIDE_SALES` on the default profile (embedded),
 * its speed, peak RSS and database bytes per sale; then that store read back whole through each
 * build's `sandbox serve`.
 */
async function sandboxSideBySide() {
  if (!existsSync(TIME_BIN)) return;
  const homes = builds.map(() => undefined);
  try {
    // Twice per build, this build's first and last, so that neither always goes first; each run
    // on a fresh store, and each build's last stays for the reads.
    const generated = await sideBySide(undefined, 2, 0, ({ cli }, i) => {
      if (homes[i]) rmSync(homes[i], { recursive: true, force: true });
      homes[i] = mkdtempSync(path.join(home, `sandbox-${i}-`));
      const t0 = performance.now();
      const r = spawnSync(TIME_BIN, ['-f', '%M', NODE, cli, 'sandbox', 'generate', '--sales', String(SIDE_SALES), '-q', '-o', 'json'], { env: { ...env, PAYCTL_HOME: homes[i] }, encoding: 'utf8', timeout: 3_600_000 });
      const seconds = (performance.now() - t0) / 1000;
      if (r.status !== 0) throw new Error(`${builds[i].label}: sandbox generate failed (${r.error?.message ?? `exit ${r.status ?? r.signal}`}): ${r.stderr}`);
      return [
        ['sandbox generate', 'sales/s', SIDE_SALES / seconds],
        ['sandbox generate: peak RSS', 'MB', Number(r.stderr.trim().split('\n').at(-1)) / 1024],
        ['database per sale (sandbox.db, -wal, -shm)', 'bytes/sale', sandboxDbBytes(homes[i]) / SIDE_SALES],
      ];
    });
    const name = 'read: transactions list --all -o ndjson';
    const read = await withServers(
      'sandbox',
      (served) =>
        sideBySide(undefined, READ_ROUNDS, 0, ({ cli }, i) => {
          const r = runExport([NODE, cli, 'transactions', 'list', '--all', '-o', 'ndjson'], served[i].client, served[i].child.pid);
          if (r.lines !== SIDE_SALES) throw new Error(`${builds[i].label}: ${name} wrote ${r.lines} rows, expected ${SIDE_SALES}`);
          return [[name, 'rows/s', SIDE_SALES / (r.ms / 1000)], [`${name}: peak RSS`, 'MB', r.rssMB], ...(r.serverRssMB === undefined ? [] : [[`${name}: server RSS`, 'MB', r.serverRssMB]])];
        }),
      homes,
    );
    const size = salesArg > 0 ? `--sales ${SIDE_SALES}` : `--sales ${SIDE_SALES} (the default; --sales 1000000 for the full figure)`;
    sideGroups.push({ title: `the sandbox at volume: sandbox generate ${size} on the embedded default profile, twice per build (median of 2), then every sale read back through each build's sandbox serve (median of ${READ_ROUNDS})`, figures: { ...generated, ...read } });
  } finally {
    for (const dir of homes) if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

const rows = [];
const ms = 'ms';
const mb = 'MB';
function addRow(name, { s, b }, unit, target) {
  const ratio = s.median / b.median;
  const cell = (st) => `${st.median.toFixed(1)} ${unit} (${st.min.toFixed(1)}–${st.max.toFixed(1)})`;
  // Time targets are ratios; the memory target is absolute MB (its ratio is shown for context).
  const met = target.ratio ? ratio <= target.ratio : s.median <= target.mb;
  rows.push([name, cell(s), cell(b), `${ratio.toFixed(2)}×`, target.ratio ? `≤ ${target.ratio}×` : `≤ ${target.mb} MB`, met ? 'met' : 'NOT met', s.n]);
}

async function main() {
  // Before any figure: a revision that does not build should not cost a whole run first.
  if (otherCommit) {
    otherDir = mkdtempSync(path.join(os.tmpdir(), 'payctl-bench-against-'));
    builds.push({ label: AGAINST, cli: buildRevision(REPO, otherCommit, otherDir) });
  }
  const against = builds.length > 1;
  // 1–4. Start-up, one request, peak memory of single commands.
  if (measures('startup')) await startupFigures();
  if (measures('startup') && against) await startupSideBySide();
  // 5. Exports at volume (issue targets: ≥ 25,000 items/s, ≤ 120 MB, memory at 100k ≤ 1.15× at 10k).
  if (measures('exports')) await exportFigures();
  if (measures('exports') && against) await exportsSideBySide();
  // 5b. The embedded sandbox at volume (issue targets: ≤ 1.3× a fresh sandbox, ≤ 100 MB; generate
  // 1,000,000 in ≤ 3 min at ≤ 300 MB; exports ≥ 25,000 rows/s with RSS 100k/10k ≤ 1.15×).
  if (measures('embedded')) await embeddedVolumeFigures();
  if (measures('embedded') && against) await sandboxSideBySide();
  // 5c. `payctl export` to files (issue targets: rows/s and peak RSS per format; RSS at --sales
  // rows ≤ 1.15× RSS at a tenth of them).
  if (measures('export-files')) await fileExportFigures();
  // 6. Bulk refunds (issue targets: ≥ 50× a shell loop per refund, ≥ 2,500 refunds/s, ≤ 150 MB).
  if (measures('bulk')) await bulkRefundFigures();
  if (measures('bulk') && against) await bulkSideBySide();
  // 6b. Reading the largest bulk file a batch takes (issue target: memory flat for any input).
  if (measures('bulk-input')) bulkInputFigures();
  // 7. Exactly once under faults, overlapping runs and kills (target: applied / asked = 1.000).
  if (measures('exactly-once')) await exactlyOnceFigures();
}

/** Start-up, one request, and peak memory of single commands: what every user waits for. */
async function startupFigures() {
  const nodeE0 = () => run([NODE, '-e', '0']).ms;

  // 1–2. Start-up: what a user waits for before anything useful happens.
  addRow('startup: --version', compare(() => run([NODE, CLI, '--version']).ms, nodeE0), ms, { ratio: 1.15 });
  addRow('startup: --help', compare(() => run([NODE, CLI, '--help']).ms, nodeE0), ms, { ratio: 1.3 });
  addRow('startup: transactions list --help', compare(() => run([NODE, CLI, 'transactions', 'list', '--help']).ms, nodeE0), ms, { ratio: 1.3 });

  // 3. A real request against a real (loopback) server, so the CLI's own overhead is what differs.
  const url = await startServer();
  // An empty marketplace id (instead of unset, which falls back to the built-in sandbox
  // profile's) makes the CLI use /v1/transactions/<id>: the very path the bare script requests.
  const client = { PAYCTL_BASE_URL: url, PAYCTL_API_KEY: BENCH_KEY, PAYCTL_MARKETPLACE_ID: '', PAYCTL_SELLER_ID: SANDBOX_SELLER_ID };
  const created = JSON.parse(run([NODE, CLI, 'transactions', 'create', '--payment-type', 'pix', '--amount', '5', '-o', 'json'], client).stdout);
  const getCli = [NODE, CLI, 'transactions', 'get', created.id, '-o', 'json'];
  const getBare = [NODE, BARE_GET, `${url}/v1/transactions/${created.id}`];
  const getFetch = [NODE, BARE_FETCH, `${url}/v1/transactions/${created.id}`];
  // All must really fetch the transaction, or the comparison means nothing.
  for (const argv of [getCli, getBare, getFetch]) {
    const id = JSON.parse(run(argv, client).stdout).id;
    if (id !== created.id) throw new Error(`${argv.join(' ')} returned id ${id}, expected ${created.id}`);
  }
  // Against a bare fetch() script (the contract issue's target), and against the least Node can do.
  addRow('request: transactions get vs fetch()', compare(() => run(getCli, client).ms, () => run(getFetch, client).ms), ms, { ratio: 1.0 });
  addRow('request: transactions get vs node:http', compare(() => run(getCli, client).ms, () => run(getBare, client).ms), ms, { ratio: 1.5 });

  // 4. Peak memory, against `node -e 0`'s own peak.
  if (existsSync(TIME_BIN)) {
    const baseRss = () => maxRssMB([NODE, '-e', '0']);
    addRow('peak RSS: transactions get', compare(() => maxRssMB(getCli, client), baseRss), mb, { mb: 80 });
    // Seller from the first transaction, so the bulk ones look like what the CLI creates.
    await createMany(url, client.PAYCTL_API_KEY, BULK, { amount: 500, currency: 'BRL', payment_type: 'pix', on_behalf_of: created.on_behalf_of });
    const listAll = [NODE, CLI, 'transactions', 'list', '--all', '-o', 'json'];
    const listed = JSON.parse(run(listAll, client).stdout);
    if (!Array.isArray(listed) || listed.length < BULK + 1) throw new Error(`list --all returned ${listed.length ?? '?'} items, expected ≥ ${BULK + 1}`);
    addRow(`peak RSS: transactions list --all (${listed.length} tx)`, compare(() => maxRssMB(listAll, client), baseRss), mb, { mb: 80 });
  } else {
    for (const what of ['transactions get', 'transactions list --all']) rows.push([`peak RSS: ${what}`, `not measured (no ${TIME_BIN})`, '', '', '≤ 80 MB', '', 0]);
  }
  await stopServer();
}

const started = performance.now();
let failure;
try {
  await main();
} catch (err) {
  failure = err;
} finally {
  await stopServer();
}

const header = ['figure', 'subject median (min–max)', 'baseline median (min–max)', 'ratio', 'target', 'result', 'runs'];
const table = [header, ...rows].map((r) => r.map(String));
const widths = header.map((_, i) => Math.max(...table.map((r) => r[i].length)));
console.log(`\npayctl bench: node ${process.version}, ${os.cpus().length} CPUs${ONLY ? `, only ${ONLY}` : ''}`);
if (rows.length > 0) {
  console.log(`${RUNS} runs + ${WARMUPS} warm-ups per figure, baseline interleaved`);
  for (const r of table) console.log(r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd());
  console.log('baselines: startup and RSS figures vs `node -e 0`; requests vs test/bench/bare-fetch.mjs (the runtime\'s fetch()) and test/bench/bare-get.mjs (node:http GET), both with Basic auth');
}
for (const { setupSeconds, figures } of exportRows) {
  console.log(`\nexports from \`payctl sandbox serve\` (${EXPORT_ITEMS.toLocaleString('en-US')} sales generated and paid out in ${setupSeconds.toFixed(1)} s); median of ${EXPORT_RUNS} runs; baseline: test/bench/bare-pages.mjs (node:http, one page after another, writing NDJSON)`);
  const exportHeader = ['export', 'items/s', 'baseline items/s', 'ratio', 'peak RSS', 'baseline RSS', 'ratio', 'server RSS', 'targets'];
  const lines = [exportHeader];
  for (const f of figures) {
    const big = f.items === EXPORT_ITEMS;
    const small = figures.find((g) => g.name.split(' ')[0] === f.name.split(' ')[0] && g.name.split(' ').at(-1) === f.name.split(' ').at(-1) && g.items === EXPORT_SMALL);
    const growth = big && small ? f.cliRss / small.cliRss : undefined;
    // The server runs the 10,000-item exports first, so its figure at 100,000 includes whatever
    // the earlier exports left it holding.
    const serverGrowth = big && small ? f.serverRss / small.serverRss : undefined;
    const flat = (ratio) => (ratio !== undefined && ratio <= 1.15 ? 'met' : 'NOT met');
    const verdicts = big
      ? [`${f.cliRate >= 25_000 ? 'met' : 'NOT met'} ≥ 25,000/s`, `${f.cliRss <= 120 ? 'met' : 'NOT met'} ≤ 120 MB`, `${flat(growth)} RSS 100k/10k ${growth?.toFixed(2)}× ≤ 1.15×`, `server: ${flat(serverGrowth)} RSS 100k/10k ${serverGrowth?.toFixed(2)}× ≤ 1.15×`]
      : [];
    lines.push([f.name, Math.round(f.cliRate).toLocaleString('en-US'), Math.round(f.bareRate).toLocaleString('en-US'), `${(f.cliRate / f.bareRate).toFixed(2)}×`, `${f.cliRss.toFixed(1)} MB`, `${f.bareRss.toFixed(1)} MB`, `${(f.cliRss / f.bareRss).toFixed(2)}×`, `${f.serverRss.toFixed(1)} MB`, verdicts.join('; ')]);
  }
  const w = exportHeader.map((_, i) => Math.max(...lines.map((r) => String(r[i]).length)));
  for (const r of lines) console.log(r.map((c, i) => String(c).padEnd(w[i])).join('  ').trimEnd());
}
for (const { generateSeconds, generateRss, figures, exports } of volumeRows) {
  const perMillion = (generateSeconds * 1_000_000) / VOLUME_SALES;
  console.log(`\nembedded sandbox (the default profile) at volume: sandbox generate --sales ${VOLUME_SALES.toLocaleString('en-US')} took ${generateSeconds.toFixed(1)} s (${Math.round(VOLUME_SALES / generateSeconds).toLocaleString('en-US')} sales/s; ${(perMillion / 60).toFixed(1)} min per million: ${perMillion <= 180 ? 'met' : 'NOT met'} ≤ 3 min), peak RSS ${generateRss.toFixed(1)} MB (${generateRss <= 300 ? 'met' : 'NOT met'} ≤ 300 MB)`);
  console.log(`each command after it vs the same command on a fresh sandbox (median of ${VOLUME_RUNS}, interleaved):`);
  const lines = [['command', 'after generate', 'fresh', 'ratio', 'peak RSS', 'targets']];
  for (const f of figures) {
    const ratio = f.s.median / f.b.median;
    lines.push([f.name, `${f.s.median.toFixed(0)} ms`, `${f.b.median.toFixed(0)} ms`, `${ratio.toFixed(2)}×`, `${f.rss.toFixed(1)} MB`, `${ratio <= 1.3 ? 'met' : 'NOT met'} ≤ 1.3×; ${f.rss <= 100 ? 'met' : 'NOT met'} ≤ 100 MB`]);
  }
  const [small, whole] = exports;
  const growth = whole.rss / small.rss;
  lines.push([`transactions list --all -o ndjson (${whole.items.toLocaleString('en-US')})`, `${Math.round(whole.rate).toLocaleString('en-US')} rows/s`, '', '', `${whole.rss.toFixed(1)} MB`, `${whole.rate >= 25_000 ? 'met' : 'NOT met'} ≥ 25,000/s; ${growth <= 1.15 ? 'met' : 'NOT met'} RSS vs --limit ${small.items.toLocaleString('en-US')} ${growth.toFixed(2)}× ≤ 1.15×`]);
  const w = lines[0].map((_, i) => Math.max(...lines.map((r) => String(r[i]).length)));
  for (const r of lines) console.log(r.map((c, i) => String(c).padEnd(w[i])).join('  ').trimEnd());
}
for (const { runs, sizes } of fileExportRows) {
  const [small, whole] = sizes;
  console.log(`\npayctl export transactions --out FILE on the embedded sandbox (median of ${runs}); baseline: transactions list --all -o ndjson on the same store`);
  const lines = [['export', 'rows/s', 'baseline rows/s', 'ratio', 'peak RSS', 'baseline RSS', `RSS ${whole.total.toLocaleString('en-US')} / ${small.total.toLocaleString('en-US')}`, 'target']];
  for (const size of sizes) {
    for (const format of FILE_FORMATS) {
      const f = size.formats[format];
      const growth = size === whole ? f.rss / small.formats[format].rss : undefined;
      lines.push([
        `--format ${format} (${size.total.toLocaleString('en-US')})`,
        Math.round(f.rate).toLocaleString('en-US'),
        Math.round(size.list.rate).toLocaleString('en-US'),
        `${(f.rate / size.list.rate).toFixed(2)}×`,
        `${f.rss.toFixed(1)} MB`,
        `${size.list.rss.toFixed(1)} MB`,
        growth === undefined ? '' : `${growth.toFixed(2)}×`,
        growth === undefined ? '' : `${growth <= 1.15 ? 'met' : 'NOT met'} ≤ 1.15×`,
      ]);
    }
  }
  const w = lines[0].map((_, i) => Math.max(...lines.map((r) => String(r[i]).length)));
  for (const r of lines) console.log(r.map((c, i) => String(c).padEnd(w[i])).join('  ').trimEnd());
  for (const size of sizes) console.log(`a second run with the state, over ${size.total.toLocaleString('en-US')} transactions: read ${size.incremental.read.toLocaleString('en-US')} (the lookback window) in ${(size.incremental.ms / 1000).toFixed(1)} s`);
}
for (const { bulkMs, loopMs, rssMB, bareMs, shared } of bulkRows) {
  const perBulk = bulkMs / BULK_REFUNDS;
  const perLoop = loopMs / LOOP_REFUNDS;
  const rate = BULK_REFUNDS / (bulkMs / 1000);
  const speedup = perLoop / perBulk;
  console.log(`\nbulk refunds from \`payctl sandbox serve\` (no faults); baseline: a shell loop of \`payctl transactions refund <id> --yes\` over ${LOOP_REFUNDS} ids`);
  console.log(`transactions refund --file (${BULK_REFUNDS.toLocaleString('en-US')} rows, --concurrency 8): ${(bulkMs / 1000).toFixed(1)} s, ${Math.round(rate).toLocaleString('en-US')} refunds/s, ${perBulk.toFixed(2)} ms/refund, peak RSS ${rssMB.toFixed(1)} MB`);
  console.log(`shell loop: ${(loopMs / 1000).toFixed(1)} s, ${perLoop.toFixed(1)} ms/refund`);
  console.log(`per refund ${speedup.toFixed(0)}× faster (target ≥ 50×: ${speedup >= 50 ? 'met' : 'NOT met'}); ${rate >= 2500 ? 'met' : 'NOT met'} ≥ 2,500 refunds/s; ${rssMB <= 150 ? 'met' : 'NOT met'} ≤ 150 MB`);
  const bareRate = BARE_REFUNDS / (bareMs / 1000);
  console.log(`bare HTTP client (test/bench/bare-refunds.mjs, 8 at a time, same server): ${Math.round(bareRate).toLocaleString('en-US')} refunds/s; payctl reaches ${(rate / bareRate).toFixed(2)}× of it`);
  if (shared?.error) console.log(`on a shared PostgreSQL ledger: not measured: ${shared.error}`);
  else if (shared) {
    const [sqliteRate, pgRate] = [shared.sqliteMs, shared.pgMs].map((ms) => BULK_REFUNDS / (ms / 1000));
    console.log(`then ${BULK_REFUNDS.toLocaleString('en-US')} more rows each, on sales generated for them: SQLite ledger ${Math.round(sqliteRate).toLocaleString('en-US')} refunds/s, shared PostgreSQL ledger ${Math.round(pgRate).toLocaleString('en-US')} refunds/s: ${(pgRate / sqliteRate).toFixed(2)}×`);
  }
}
for (const { rss, ms, baseline } of bulkInputRows) {
  console.log(`\nreading a bulk file through a pipe (dry run, median of 3): ${BULK_INPUT_ROWS.toLocaleString('en-US')} rows in ${(ms / 1000).toFixed(1)} s, peak RSS ${rss.toFixed(1)} MB; baseline: 10 rows, ${baseline.toFixed(1)} MB`);
  console.log(`${(rss / baseline).toFixed(2)}× the baseline; ${(((rss - baseline) * 1024 * 1024) / BULK_INPUT_ROWS).toFixed(0)} bytes a row (${rss <= 200 ? 'met' : 'NOT met'} ≤ 200 MB at the largest batch)`);
}
for (const { clean, chaos, team } of exactlyOnceRows) {
  const ratio = chaos.applied / chaos.asked;
  console.log(`\nexactly once under faults: ${chaos.asked.toLocaleString('en-US')} partial refunds from one file; server: ${EXACTLY_ONCE_FAULTS}`);
  console.log(`two runs at once (exits: ${chaos.overlapExits.join(', ')}), ${EXACTLY_ONCE_KILLS} SIGKILLs at random moments, then a run to the end; --timeout 0.5 --concurrency 8; SQLite ledger`);
  console.log(`refunds applied / refunds asked: ${chaos.applied} / ${chaos.asked} = ${ratio.toFixed(3)} (${chaos.twice} refunded twice) — ${ratio === 1 && chaos.twice === 0 ? 'met' : 'NOT met'} = 1.000`);
  console.log(`refunds/s, start to all settled: ${Math.round(chaos.rate).toLocaleString('en-US')} under faults vs ${Math.round(clean.rate).toLocaleString('en-US')} on a fault-free server (baseline, same file size, one run): ${(chaos.rate / clean.rate).toFixed(2)}×; baseline applied / asked ${(clean.applied / clean.asked).toFixed(3)}`);
  if (team?.error) {
    console.log(`\nexactly once for a team: not measured: ${team.error}`);
  } else if (team) {
    const teamRatio = team.applied / team.asked;
    const speed = team.rate / chaos.rate;
    console.log(`\nexactly once for a team: the same file and faults on 2 machines (2 PAYCTL_HOMEs, one in its own UTS namespace) sharing a PostgreSQL ledger`);
    console.log(`2 × 2 runs at once (exits: ${team.overlapExits.join(', ')}), ${EXACTLY_ONCE_KILLS} SIGKILLs alternating between the machines, then a run to the end on each`);
    console.log(`refunds applied / refunds asked: ${team.applied} / ${team.asked} = ${teamRatio.toFixed(3)} (${team.twice} refunded twice) — ${teamRatio === 1 && team.twice === 0 ? 'met' : 'NOT met'} = 1.000`);
    console.log(`refunds/s, start to all settled: ${Math.round(team.rate).toLocaleString('en-US')} on the shared ledger vs ${Math.round(chaos.rate).toLocaleString('en-US')} with the SQLite ledger (same faults, this run): ${speed.toFixed(2)}× — ${speed >= 0.6 ? 'met' : 'NOT met'} ≥ 0.6×`);
  }
}
if (sideGroups.length > 0) {
  console.log(`\nthis build against ${AGAINST} (${otherCommit.slice(0, 12)}, built from git archive), both interleaved: medians; ratio this/other; better or worse beyond ±${NOISE * 100} %, else same`);
  for (const { title, figures } of sideGroups) {
    console.log(`\n${title}`);
    const lines = [['figure', 'this build', AGAINST, 'this/other', 'verdict', 'runs']];
    const shown = (value, unit) => `${value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(1)} ${unit}`;
    for (const [name, { unit, values }] of Object.entries(figures)) {
      const [mine, theirs] = values.map((v) => stats(v).median);
      lines.push([name, shown(mine, unit), shown(theirs, unit), `${(mine / theirs).toFixed(2)}×`, verdict(mine, theirs, unit), values[0].length]);
    }
    const w = lines[0].map((_, i) => Math.max(...lines.map((r) => String(r[i]).length)));
    for (const r of lines) console.log(r.map((c, i) => String(c).padEnd(w[i])).join('  ').trimEnd());
  }
}
console.log(`took ${((performance.now() - started) / 1000).toFixed(1)} s`);
if (failure) {
  console.error(`\nbench could not complete: ${failure.stack ?? failure}`);
  process.exitCode = 1;
}
