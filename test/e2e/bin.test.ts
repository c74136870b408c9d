import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SHORT_RUN_ITEMS } from '../../src/output/printer.js';
import { SANDBOX_API_KEY, SANDBOX_BUYER_ID } from '../../src/provider/sandbox-account.js';
import { VERSION } from '../../src/version.js';
import { payctl as inProcess, tempHome, testEnv } from '../helpers/run.js';

// A few runs of the real binary (built dist/ by `npm test`), as a user or a script runs it.
const BIN = fileURLToPath(new URL('../../bin/payctl.js', import.meta.url));
let home: { home: string; cleanup: () => void };

beforeEach(() => {
  home = tempHome();
});
afterEach(() => home.cleanup());

function payctl(args: string[], options: { input?: string; env?: Record<string, string> } = {}) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    env: testEnv(home.home, options.env),
    input: options.input ?? '',
    encoding: 'utf8',
    // NODE_DEBUG=esm on Node 24 logs some 4 MB: more than spawnSync's default 1 MB keeps.
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const card = ['--card-number', '4111111111111111', '--holder-name', 'Maria Silva', '--exp-month', '12', '--exp-year', '2031', '--cvv', '123'];

describe('bin/payctl.js', () => {
  it('--version and --help', () => {
    expect(payctl(['--version'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    const help = payctl(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: payctl');
    expect(help.stdout).toContain('Examples:');
    const verbHelp = payctl(['transactions', 'refund', '--help']);
    expect(verbHelp.stdout).toContain('payctl transactions refund <id> --amount 5.00 --yes');
  });

  it('--version starts neither the bundle nor the ES module loader (start-up floor)', () => {
    const version = payctl(['--version'], { env: { NODE_DEBUG: 'esm' } });
    expect(version.code).toBe(0);
    expect(version.stdout).toBe(`${VERSION}\n`);
    expect(version.stderr).toBe('');
    // The check can fail: anything else does load the bundle through the ES module loader.
    expect(payctl(['help', 'transactions'], { env: { NODE_DEBUG: 'esm' } }).stderr).toContain('dist/main.js');
  });

  it('help into a pipe is the text the build wrote for the command, without the bundle, and what the command line prints', async () => {
    const helpDir = fileURLToPath(new URL('../../dist/help/', import.meta.url));
    const files = readdirSync(helpDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.txt'));
    expect(files.length).toBeGreaterThan(90);
    for (const file of files) {
      const words = file.replace(/\.txt$/, '').split(sep).slice(1);
      const live = await inProcess([...words, '--help'], { home: home.home });
      expect(readFileSync(join(helpDir, file), 'utf8'), `payctl ${words.join(' ')} --help`).toBe(live.stdout);
    }
    for (const args of [['--help'], ['transactions', 'list', '--help'], ['transactions', 'splits', 'add', '-h']]) {
      const built = payctl(args, { env: { NODE_DEBUG: 'esm' } });
      expect(built.code).toBe(0);
      expect(built.stderr).not.toContain('dist/main.js');
      expect(built.stdout).toBe((await inProcess(args, { home: home.home })).stdout);
    }
    // Anything but words naming a command before --help is the command line's to answer.
    const flagged = payctl(['transactions', 'list', '--limit', '5', '--help'], { env: { NODE_DEBUG: 'esm' } });
    expect(flagged.stderr).toContain('dist/main.js');
    expect(flagged.stdout).toBe((await inProcess(['transactions', 'list', '--help'], { home: home.home })).stdout);
  });

  it('help on a terminal of 80 columns or more is the build\'s text too, without the bundle; a narrower one is fitted by the command line', () => {
    /** What `payctl <args>` shows on a terminal `columns` wide (script(1) gives it one), stderr included. */
    const onTerminal = (columns: number, args: string, env: Record<string, string> = {}) => {
      const shell = `stty cols ${columns} rows 50; "${process.execPath}" "${BIN}" ${args}`;
      const result = spawnSync('script', ['-qec', shell, '/dev/null'], { env: testEnv(home.home, env), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      return result.stdout.replace(/\r\n/g, '\n');
    };
    const built = readFileSync(fileURLToPath(new URL('../../dist/help/payctl/transactions/list.txt', import.meta.url)), 'utf8');
    for (const columns of [80, 200]) {
      expect(onTerminal(columns, 'transactions list --help'), `${columns} columns`).toBe(built);
      expect(onTerminal(columns, 'transactions list --help', { NODE_DEBUG: 'esm' })).not.toContain('dist/main.js');
    }
    expect(onTerminal(60, 'transactions list --help', { NODE_DEBUG: 'esm' })).toContain('dist/main.js');
    const narrow = onTerminal(60, 'transactions list --help');
    expect(narrow).toContain('Usage: payctl transactions list');
    for (const line of narrow.split('\n')) expect(line.length, line).toBeLessThanOrEqual(60);
  });

  it('take a payment, look it up and refund it, piped: JSON on stdout, status on stderr', () => {
    const created = payctl(['transactions', 'create', '--amount', '10.50', ...card, '--reference-id', 'e2e-1']);
    expect(created.code, created.stderr).toBe(0);
    const tx = JSON.parse(created.stdout);
    expect(tx).toMatchObject({ status: 'succeeded', amount: '10.50', reference_id: 'e2e-1' });
    expect(created.stderr).toContain('SANDBOX');

    const got = payctl(['transactions', 'get', tx.id, '--fields', 'id,status,payment_method.last4_digits']);
    expect(JSON.parse(got.stdout)).toEqual({ id: tx.id, status: 'succeeded', payment_method: { last4_digits: '1111' } });

    const refusedWithoutYes = payctl(['transactions', 'refund', tx.id]);
    expect(refusedWithoutYes.code).toBe(2);
    expect(refusedWithoutYes.stderr).toContain('--yes required');

    const refunded = payctl(['transactions', 'refund', tx.id, '--amount', '4', '--yes', '-o', 'ndjson']);
    expect(refunded.code, refunded.stderr).toBe(0);
    expect(JSON.parse(refunded.stdout)).toMatchObject({ status: 'succeeded', amount: '6.50', original_amount: '10.50' });

    // More than is left cannot succeed: exit 6 naming what is left, never an offer of --again.
    const over = payctl(['transactions', 'refund', tx.id, '--amount', '100', '--yes']);
    expect(over.code).toBe(6);
    expect(over.stderr).toMatch(/^error: R\$ 100,00 is more than the R\$ 6,50 left to refund on transaction \w+; it was already refunded R\$ 4,00 by payctl on .*; nothing was sent\n$/);
    // The same amount again, which the sale still allows: a probable duplicate (exit 11) unless said so.
    const twice = payctl(['transactions', 'refund', tx.id, '--amount', '4', '--yes']);
    expect(twice.code).toBe(11);
    expect(twice.stderr).toMatch(/^error: probable duplicate: transaction \w+ was already refunded R\$ 4,00 by payctl on .*; nothing was sent\. Pass --again to refund R\$ 4,00 more\n$/);
  });

  it('a bolepix carries its QR code as a PNG; the QR encoder is bundled in a chunk loaded only then', () => {
    const loaded = (args: string[]) => {
      const run = payctl(['transactions', 'create', ...args, '--amount', '80', '--customer', SANDBOX_BUYER_ID, '-o', 'json'], { env: { NODE_DEBUG: 'esm' } });
      expect(run.code, run.stderr).toBe(0);
      return { tx: JSON.parse(run.stdout), qrChunk: /dist\/chunks\/qrcode-[\w-]+\.js/.test(run.stderr) };
    };
    const boleto = loaded(['--payment-type', 'boleto']);
    expect(boleto.qrChunk).toBe(false);
    const bolepix = loaded(['--payment-type', 'bolepix']);
    expect(bolepix.qrChunk).toBe(true);
    expect(Buffer.from(bolepix.tx.payment_method.base64, 'base64').subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  });

  it("the PostgreSQL driver is in a chunk of its own, loaded only when a shared ledger is set", () => {
    const pgChunk = (stderr: string) => /dist\/chunks\/postgres-store-[\w-]+\.js/.test(stderr);
    const created = payctl(['transactions', 'create', '--amount', '10.00', ...card, '-o', 'json'], { env: { NODE_DEBUG: 'esm' } });
    expect(created.code, created.stderr).toBe(0);
    expect(pgChunk(created.stderr)).toBe(false);
    // Set (and out of reach): loaded to try it, and nothing moves.
    const shared = payctl(['transactions', 'refund', JSON.parse(created.stdout).id, '--yes'], { env: { NODE_DEBUG: 'esm', PAYCTL_LEDGER_URL: 'postgres://payctl@127.0.0.1:1/payctl' } });
    expect(shared.code).toBe(8);
    expect(pgChunk(shared.stderr)).toBe(true);
  });

  it('exit codes: usage 2, not found 5', () => {
    expect(payctl(['transactions', 'list', '--bogus']).code).toBe(2);
    const missing = payctl(['transactions', 'get', 'ffffffffffffffffffffffffffffffff']);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toMatch(/^error: Sorry, the transaction .* \(resource_not_found, HTTP 404\)\n$/);
  });

  it('a reader that goes away early (| head) is not an error', () => {
    for (let i = 0; i < 3; i++) payctl(['transactions', 'create', '--payment-type', 'pix', '--amount', '1', '-q']);
    const result = spawnSync('sh', ['-c', `"${process.execPath}" "${BIN}" transactions list --all -o ndjson | head -n 1`], {
      env: testEnv(home.home),
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toBe('');
  });

  it('sandbox serve answers other programs over HTTP and stops cleanly on SIGINT', async () => {
    const server = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0'], { env: testEnv(home.home) });
    try {
      const url = await firstLine(server);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      // The built-in key: its marketplace in the served sandbox is the embedded sandbox's state.
      const env = { PAYCTL_BASE_URL: url, PAYCTL_API_KEY: SANDBOX_API_KEY, PAYCTL_MARKETPLACE_ID: '' };
      const created = payctl(['transactions', 'create', '--payment-type', 'pix', '--amount', '7', '--on-behalf-of', JSON.parse(payctl(['whoami']).stdout).seller_id ?? ''], { env });
      expect(created.code, created.stderr).toBe(0);
      expect(created.stderr).toContain('SANDBOX (test API key');
      const id = JSON.parse(created.stdout).id;
      // The embedded sandbox shares the state directory with the server.
      const paid = payctl(['sandbox', 'pay', id]);
      expect(paid.code, paid.stderr).toBe(0);
      expect(JSON.parse(payctl(['transactions', 'get', id], { env }).stdout).status).toBe('succeeded');
      const unauthorized = payctl(['transactions', 'list'], { env: { ...env, PAYCTL_API_KEY: 'wrong' } });
      expect(unauthorized.code).toBe(4);
    } finally {
      server.kill('SIGINT');
    }
    const code = await new Promise<number | null>((resolve) => server.on('exit', (c) => resolve(c)));
    expect(code).toBe(0);
  });

  it('webhooks listen against sandbox serve: events arrive as NDJSON, and SIGINT removes its webhook', async () => {
    const server = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0'], { env: testEnv(home.home) });
    let listener: ChildProcessWithoutNullStreams | undefined;
    try {
      const url = await firstLine(server);
      const env = { PAYCTL_BASE_URL: url, PAYCTL_API_KEY: SANDBOX_API_KEY, PAYCTL_MARKETPLACE_ID: '' };
      listener = spawn(process.execPath, [BIN, 'webhooks', 'listen', '--event', 'transaction.succeeded'], { env: testEnv(home.home, env) });
      let stderr = '';
      listener.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const webhooks = () => JSON.parse(payctl(['webhooks', 'list', '-o', 'json'], { env }).stdout) as Array<{ id: string }>;
      for (let i = 0; i < 100 && webhooks().length === 0; i += 1) await new Promise((r) => setTimeout(r, 50));
      expect(webhooks()).toHaveLength(1);
      const seller = JSON.parse(payctl(['whoami']).stdout).seller_id;
      const sale = JSON.parse(payctl(['transactions', 'create', '--amount', '9.99', '--on-behalf-of', seller, ...card], { env }).stdout);
      const line = JSON.parse(await firstLine(listener));
      expect(line).toMatchObject({ type: 'transaction.succeeded', resource: 'event', payload: { object: { id: sale.id } } });

      listener.kill('SIGINT');
      const code = await new Promise<number | null>((resolve) => listener!.on('exit', (c) => resolve(c)));
      expect(code, stderr).toBe(0);
      expect(stderr).toContain('removed webhook');
      expect(webhooks()).toEqual([]);
    } finally {
      if (listener && listener.exitCode === null) listener.kill('SIGKILL');
      server.kill('SIGINT');
      await new Promise((resolve) => server.on('exit', resolve));
    }
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} stops a long list on the embedded sandbox at once (exit 3)`, async () => {
      expect(payctl(['sandbox', 'generate', '--sales', '1500']).code).toBe(0);
      const child = spawn(process.execPath, [BIN, 'transactions', 'list', '--all', '-o', 'ndjson'], { env: testEnv(home.home) });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      // The first rows arrive; then nobody reads, so the command sits blocked on a full pipe.
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      child.stdout.pause();
      const started = Date.now();
      child.kill(signal);
      const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
      expect(code).toBe(3);
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(stderr).toContain('cancelled');
    });
  }

  it('a long list runs the embedded sandbox on its own thread, a short one on the command\'s; both answer the same', () => {
    expect(payctl(['sandbox', 'generate', '--sales', '150']).code).toBe(0);
    const long = payctl(['transactions', 'list', '--limit', '150', '-o', 'ndjson', '--debug']);
    const short = payctl(['transactions', 'list', '--limit', '5', '-o', 'ndjson', '--debug']);
    expect(long.code, long.stderr).toBe(0);
    expect(short.code, short.stderr).toBe(0);
    expect(long.stderr).toMatch(/\* embedded sandbox on its own thread at http:\/\/127\.0\.0\.1:\d+/);
    expect(short.stderr).not.toContain('own thread');
    const longIds = long.stdout.trim().split('\n').map((line) => JSON.parse(line).id as string);
    expect(longIds).toHaveLength(150);
    expect(new Set(longIds).size).toBe(150);
    expect(short.stdout.trim().split('\n').map((line) => JSON.parse(line).id)).toEqual(longIds.slice(0, 5));
  });

  it('Ctrl-C during sandbox generate: exit 3 within a second; the sales traded so far stay, on a sandbox that still answers', async () => {
    const child = spawn(process.execPath, [BIN, 'sandbox', 'generate', '--sales', '200000'], { env: testEnv(home.home) });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // The first part traded (10,000 sales) is announced; Ctrl-C lands during the second.
    await new Promise<void>((resolve) => {
      const check = () => (stderr.includes('Traded 10.000') ? resolve() : child.stderr.once('data', check));
      check();
    });
    const started = Date.now();
    child.kill('SIGINT');
    expect(await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)))).toBe(3);
    expect(Date.now() - started).toBeLessThan(1_000);
    const listed = payctl(['transactions', 'list', '--limit', '1', '-o', 'json']);
    expect(listed.code, listed.stderr).toBe(0);
    const total = JSON.parse(payctl(['api', 'GET', '/transactions?limit=1']).stdout).total as number;
    expect(total).toBeGreaterThanOrEqual(10_000);
    expect(total).toBeLessThan(200_000);
  }, 90_000);

  it('Ctrl-C during a bulk refund on the embedded sandbox: exit 3 at once; the rerun finishes, each sale refunded exactly once', async () => {
    // One day of trading: its sales are as they were made (nothing refunded or disputed yet); the card sales that went through are refunded.
    expect(payctl(['sandbox', 'generate', '--sales', '400', '--days', '1']).code).toBe(0);
    const ids = payctl(['transactions', 'list', '--all', '--payment-type', 'credit', '--status', 'succeeded', '-o', 'csv', '--fields', 'id']).stdout;
    const rows = ids.trim().split('\n').length - 1;
    // More rows than a short run: the embedded sandbox runs on its own thread, killed with the process.
    expect(rows).toBeGreaterThan(SHORT_RUN_ITEMS);
    // A settle window of 3 s: a row in flight when Ctrl-C came is looked for, on the rerun, until
    // 3 s after it was sent; the default 120 s would make the rerun wait that long.
    const window = { PAYCTL_SETTLE_WINDOW: '3' };
    const child = spawn(process.execPath, [BIN, 'transactions', 'refund', '--file', '-', '--full', '--yes', '-o', 'ndjson', '--timeout', '1'], { env: testEnv(home.home, window) });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(ids);
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    const started = Date.now();
    child.kill('SIGINT');
    expect(await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)))).toBe(3);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(stderr).toContain('Run the same command again');

    const rerun = payctl(['transactions', 'refund', '--file', '-', '--full', '--yes', '-o', 'ndjson', '--timeout', '1'], { input: ids, env: window });
    expect(rerun.code, rerun.stderr).toBe(0);
    const results = rerun.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(results).toHaveLength(rows);
    // What the interrupted run refunded is skipped (refunded earlier by payctl); the rest is refunded now.
    expect(results.every((r) => r.status === 'refunded' || (r.status === 'skipped' && r.reason.includes('by payctl')))).toBe(true);
    const listed = new Set(ids.trim().split('\n').slice(1));
    const sales = (JSON.parse(payctl(['transactions', 'list', '--all', '--payment-type', 'credit', '-o', 'json']).stdout) as Array<{ id: string; status: string; history: Array<{ operation_type: string }> }>).filter((t) => listed.has(t.id));
    expect(sales).toHaveLength(rows);
    expect(sales.every((t) => t.status === 'canceled' && t.history.filter((h) => h.operation_type === 'void').length === 1)).toBe(true);
    // Four payctl runs and a generated sandbox: slow on a loaded machine, hence its own time limit.
  }, 90_000);

  it('receipts render on a terminal writes a file and prints its path instead of dumping HTML', async () => {
    const tx = JSON.parse(payctl(['transactions', 'create', '--amount', '10.50', ...card]).stdout);
    const cwd = mkdtempSync(join(tmpdir(), 'payctl-render-'));
    try {
      const result = spawnSync('script', ['-qfec', `"${process.execPath}" "${BIN}" receipts render ${tx.sales_receipt}`, '/dev/null'], {
        env: { ...testEnv(home.home), TERM: 'xterm' },
        cwd,
        encoding: 'utf8',
      });
      expect(result.status, result.stdout).toBe(0);
      const file = `receipt-${tx.sales_receipt}.html`;
      expect(result.stdout).toContain(file);
      expect(result.stdout).not.toContain('<html');
      expect(readFileSync(join(cwd, file), 'utf8')).toMatch(/^<!doctype html>/i);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('the create walk-through under a real pseudo-terminal', async () => {
    // `script` gives payctl a real tty (raw mode, isTTY) while we type into its stdin.
    const child = spawn('script', ['-qfec', `"${process.execPath}" "${BIN}" transactions create --no-color`, '/dev/null'], {
      env: { ...testEnv(home.home), TERM: 'xterm', COLUMNS: '160' },
    }) as ChildProcessWithoutNullStreams;
    let screen = '';
    child.stdout.on('data', (d: Buffer) => {
      screen += d.toString();
    });
    const plain = () => screen.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
    const waitFor = async (pattern: RegExp) => {
      const deadline = Date.now() + 8000;
      while (!pattern.test(plain())) {
        if (Date.now() > deadline) throw new Error(`never saw ${pattern}; screen:\n${plain()}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      await new Promise((r) => setTimeout(r, 60));
    };
    const type = async (keys: string) => {
      for (const key of keys.match(/\x1b\[[A-D]|[\s\S]/g) ?? []) {
        child.stdin.write(key);
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    await waitFor(/Payment type/);
    await type('\x1b[B\x1b[B\x1b[B\r'); // PIX
    await waitFor(/Amount/);
    await type('42,00\r');
    await waitFor(/Order number/);
    await type('pedido-42\r');
    await waitFor(/Description/);
    await type('Balcão PIX\r');
    await waitFor(/\[y\/N\]/);
    await type('y\r');
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code, plain()).toBe(0);
    // The charge in words before the question, not the request body.
    expect(plain()).toMatch(/Amount +R\$ 42,00 by PIX/);
    expect(plain()).not.toContain('"payment_type"');
    expect(plain()).toMatch(/pending/);
    expect(plain()).toMatch(/R\$ 42,00/);
    expect(plain()).toMatch(/Reference +pedido-42/);
  });

  it("under a real pseudo-terminal an agent's shell is not prompted: exit 2 naming the argument and why", async () => {
    const script = ['-qfec', `"${process.execPath}" "${BIN}" transfers explain --no-color`, '/dev/null'];
    const env = { ...testEnv(home.home), TERM: 'xterm' };
    const agent = spawnSync('script', script, { env: { ...env, CLAUDECODE: '1' }, encoding: 'utf8', timeout: 20_000 });
    expect(agent.stdout).toContain("error: missing required argument <id> (prompts are off: this is an AI agent's shell, CLAUDECODE is set)");
    expect(agent.status, agent.stdout).toBe(2);
    // A person at the same terminal is asked (no transfers to choose from: the id typed), and Ctrl-C cancels (exit 3).
    const person = spawn('script', script, { env }) as ChildProcessWithoutNullStreams;
    let screen = '';
    person.stdout.on('data', (d: Buffer) => {
      screen += d.toString();
    });
    const deadline = Date.now() + 8000;
    while (!/Transfer id/.test(screen) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    await new Promise((r) => setTimeout(r, 60));
    person.stdin.write('\x03');
    const code = await new Promise<number | null>((resolve) => person.on('exit', (c) => resolve(c)));
    expect(screen).toMatch(/Transfer id/);
    expect(code, screen).toBe(3);
  });
});

function firstLine(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      const newline = buffer.indexOf('\n');
      if (newline >= 0) resolve(buffer.slice(0, newline));
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
}
